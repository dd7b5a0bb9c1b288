/** The name of an environment variable that holds a secret (the config names it, never holds the value). */
import { z } from 'zod';

export const envName = z
  .string()
  .regex(/^[A-Z_][A-Z0-9_]*$/)
  .meta({ expected: 'an environment variable name (A-Z, 0-9, _)', typeName: 'env var name' });
