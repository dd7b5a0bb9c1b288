import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { signatureEquals } from '../../../src/emulator/auth/constant-time.js';

const hex = createHmac('sha256', 'secret').update('symbol=BTCUSDT&timestamp=1').digest('hex');
const other = createHmac('sha256', 'secret').update('symbol=BTCUSDT&timestamp=2').digest('hex');

describe('signatureEquals', () => {
  it('accepts_the_hmac_in_lower_or_upper_case_hex', () => {
    expect(signatureEquals(hex, hex)).to.equal(true);
    expect(signatureEquals(hex, hex.toUpperCase())).to.equal(true);
  });

  it('refuses_a_signature_that_differs_in_any_one_digit', () => {
    for (let i = 0; i < hex.length; i++) {
      const changed = hex.slice(0, i) + (hex[i] === '0' ? '1' : '0') + hex.slice(i + 1);
      expect(signatureEquals(hex, changed), `digit ${i}`).to.equal(false);
    }
    expect(signatureEquals(hex, other)).to.equal(false);
  });

  it('refuses_a_signature_of_another_length', () => {
    expect(signatureEquals(hex, hex.slice(0, 63))).to.equal(false);
    expect(signatureEquals(hex, `${hex}0`)).to.equal(false);
    expect(signatureEquals(hex, '')).to.equal(false);
  });

  it('refuses_a_character_that_is_not_hex_wherever_it_is_even_right_after_a_match', () => {
    for (const i of [0, 1, 31, 62, 63]) {
      for (const c of ['g', 'z', ' ', '+', '-']) {
        expect(signatureEquals(hex, hex), 'the match before').to.equal(true);
        const bad = hex.slice(0, i) + c + hex.slice(i + 1);
        expect(signatureEquals(hex, bad), `${JSON.stringify(c)} at ${i}`).to.equal(false);
      }
    }
  });
});
