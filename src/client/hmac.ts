/**
 * HMAC-SHA256 in lower-case hex, the primitive both venues sign with. The secret is held as a
 * `KeyObject`: node prints a KeyObject as `SecretKeyObject { type: 'secret', … }` without the key
 * material, so an object that holds one can be logged or inspected without leaking the secret.
 */
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

export type SecretKey = KeyObject;

/** Wraps a secret string so it is never again held as a printable string. */
export function secretKeyOf(secret: string): SecretKey {
  return createSecretKey(Buffer.from(secret, 'utf8'));
}

export function hmacSha256Hex(key: SecretKey | string, message: string): string {
  return createHmac('sha256', key).update(message, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex signatures (a verifier must not leak how many bytes matched). */
export function hexEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const ab = Buffer.from(a.toLowerCase(), 'utf8');
  const bb = Buffer.from(b.toLowerCase(), 'utf8');
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
