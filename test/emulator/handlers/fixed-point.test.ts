/**
 * unitsFromFixed reads a decimal string into integer units in one pass (issue 12, the spot placement
 * path). The reference is the regex-and-strings definition it replaced, kept here; both must agree on
 * any text of digits, points and other characters, at any number of decimals, including values around
 * 2^53 where the result stops being a safe integer.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { unitsFromFixed } from '../../../src/emulator/handlers/fixed-point.js';

const PLAIN = /^(\d+)(?:\.(\d*))?$/;

function referenceUnits(text: string, decimals: number): number | undefined {
  const m = PLAIN.exec(text);
  if (!m) return undefined;
  const frac = (m[2] ?? '').replace(/0+$/, '');
  if (frac.length > decimals) return undefined;
  const n = Number(m[1]! + frac.padEnd(decimals, '0'));
  return Number.isSafeInteger(n) ? n : undefined;
}

const text = fc.oneof(
  fc.string({ unit: fc.constantFrom('0', '1', '5', '9', '.', '0', '0'), maxLength: 24 }),
  fc.string({ unit: fc.constantFrom('0', '7', '.', '-', 'e', ' ', '+', 'x', '٣'), maxLength: 8 }),
  fc.bigInt({ min: 0n, max: 2n ** 60n }).chain((v) =>
    fc.nat(20).map((k) => {
      const s = v.toString().padStart(k + 1, '0');
      return k === 0 ? s : `${s.slice(0, s.length - k)}.${s.slice(s.length - k)}`;
    }),
  ),
);

describe('unitsFromFixed', () => {
  it('agrees_with_the_regex_and_strings_definition_on_any_text_and_decimals', () => {
    fc.assert(
      fc.property(text, fc.nat(18), (t, decimals) => {
        expect(unitsFromFixed(t, decimals), JSON.stringify(t)).to.equal(referenceUnits(t, decimals));
      }),
      { numRuns: 5000 },
    );
  });

  it('reads_the_placement_values_and_refuses_past_2_53', () => {
    expect(unitsFromFixed('87500', 2)).to.equal(8_750_000);
    expect(unitsFromFixed('0.001', 6)).to.equal(1000);
    expect(unitsFromFixed('0.0010', 3)).to.equal(1);
    expect(unitsFromFixed('5.', 0)).to.equal(5);
    expect(unitsFromFixed('0.0001', 3)).to.equal(undefined);
    expect(unitsFromFixed('.5', 1)).to.equal(undefined);
    expect(unitsFromFixed('', 1)).to.equal(undefined);
    expect(unitsFromFixed('9007199254740991', 0)).to.equal(Number.MAX_SAFE_INTEGER);
    expect(unitsFromFixed('9007199254740992', 0)).to.equal(undefined);
    expect(unitsFromFixed('900719925474099.2', 1)).to.equal(undefined);
    expect(unitsFromFixed('90071992547409.91', 2)).to.equal(Number.MAX_SAFE_INTEGER);
  });
});
