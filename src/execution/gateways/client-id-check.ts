/**
 * Client ids are checked before sending: a venue that silently truncates or refuses them would break
 * "query by client id" (the only safe way to resolve an unknown outcome).
 */
import { ValidationError } from '../../core/errors.js';

const CLIENT_ID_CHARS = /^[A-Za-z0-9_-]+$/;

export function checkClientId(id: string, maxLength: number, field = 'clientOrderId'): void {
  if (id.length === 0 || id.length > maxLength || !CLIENT_ID_CHARS.test(id)) {
    throw new ValidationError(field, `1..${maxLength} characters of A-Z a-z 0-9 _ -`, id);
  }
}
