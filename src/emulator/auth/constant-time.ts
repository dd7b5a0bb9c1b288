/**
 * Constant-time equality of two signatures as strings (lower-case hex expected; case is folded), so a
 * verifier leaks nothing about how many characters matched. Same contract as client/hmac.ts hexEqual
 * without allocating two Buffers per request on the placement hot path.
 */
export function signatureEquals(expected: string, given: string): boolean {
  if (expected.length !== given.length) return false;
  let diff = 0;
  for (let i = 0; i < expected.length; i++) {
    let c = given.charCodeAt(i);
    // A–F fold to a–f; every other character is compared as is.
    if (c >= 0x41 && c <= 0x46) c |= 0x20;
    diff |= expected.charCodeAt(i) ^ c;
  }
  return diff === 0;
}
