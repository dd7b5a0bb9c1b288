/**
 * API credentials. They come from configuration or from the environment; they are never logged and
 * never placed in an error message (see redaction in CatalogueClient).
 */
import { ConfigError } from '../core/errors.js';

export interface Credentials {
  readonly apiKey: string;
  readonly secretKey: string;
}

export const API_KEY_ENV = 'PERPETUA_API_KEY';
export const API_SECRET_ENV = 'PERPETUA_API_SECRET';

/**
 * Credentials from `PERPETUA_API_KEY` / `PERPETUA_API_SECRET`. Neither set → undefined (public use);
 * only one set → ConfigError naming the missing variable (never echoing the one that is set).
 */
export function credentialsFromEnv(env: NodeJS.ProcessEnv = process.env): Credentials | undefined {
  const apiKey = env[API_KEY_ENV]?.trim();
  const secretKey = env[API_SECRET_ENV]?.trim();
  if (!apiKey && !secretKey) return undefined;
  if (!apiKey) throw new ConfigError(API_KEY_ENV, `is not set but ${API_SECRET_ENV} is`);
  if (!secretKey) throw new ConfigError(API_SECRET_ENV, `is not set but ${API_KEY_ENV} is`);
  return { apiKey, secretKey };
}
