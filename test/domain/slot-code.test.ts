import { expect } from 'chai';
import { SLOT_PATTERN, slotCode } from '../../src/domain/intent.js';

/**
 * slotCode() stands in for SLOT_PATTERN in the risk check of every quote set: every string of up to three
 * characters over the slot alphabet and its neighbours ('/', ':', '`', '{', upper case, space, newline),
 * and every four-character one over a few of them, is a slot exactly when the pattern says so, and the
 * codes of slots are distinct.
 */
describe('slotCode', () => {
  it('accepts_exactly_what_the_slot_pattern_accepts_and_gives_distinct_codes', () => {
    const alphabet = [...'0123456789abcdefghijklmnopqrstuvwxyz', '/', ':', '`', '{', 'A', 'Z', ' ', '\n', 'é'];
    const codes = new Map<number, string>();
    let strings = [''];
    let checked = 0;
    const wrong: string[] = [];
    const check = (s: string): void => {
      const code = slotCode(s);
      if (code >= 0 !== SLOT_PATTERN.test(s) || (code < 0 && code !== -1)) wrong.push(`${JSON.stringify(s)}: ${code}`);
      else if (code >= 0) {
        if (codes.has(code)) wrong.push(`${s} and ${codes.get(code)!}: ${code}`);
        codes.set(code, s);
      }
      checked++;
    };
    for (let len = 0; len <= 3; len++) {
      for (const s of strings) check(s);
      if (len < 3) strings = strings.flatMap((s) => alphabet.map((c) => s + c));
    }
    for (const s of strings) for (const c of ['0', 'z', '{', '\n']) check(s + c);
    expect(wrong).to.deep.equal([]);
    expect(codes.size).to.equal(36 + 36 ** 2 + 36 ** 3);
    expect(checked).to.be.greaterThan(400_000);
  });
});
