/**
 * What every contract catalogue entry shares: the `{success, code, data}` envelope, weight 1 and the
 * per-endpoint bucket (about 20 requests per 2 s per endpoint, wire-protocol.md).
 */
import { z } from 'zod';

export const CONTRACT_ENTRY = {
  api: 'contract',
  weight: 1,
  buckets: ['contract-endpoint'],
  envelope: 'contract',
} as const;

/** Request of an endpoint without parameters: nothing, or an empty object. */
export const noParams = z
  .strictObject({})
  .optional()
  .transform((): Record<string, never> => ({}));
