/** Lossless JSON parsing of venue bodies. */
import { expect } from 'chai';
import { parseContractJson, quoteLongNumbers } from '../../../src/api/contract/parse-contract-json.js';

describe('parseContractJson', () => {
  it('keeps_an_integer_above_2_pow_53_as_its_exact_digits', () => {
    // JSON.parse gives 101716841474621952 (doubles are 16 apart near 1e17)
    expect(JSON.parse('{"orderId":101716841474621953}').orderId).to.not.equal(101716841474621953n.toString());
    expect(parseContractJson('{"orderId":101716841474621953}')).to.deep.equal({ orderId: '101716841474621953' });
  });

  it('leaves_safe_numbers_as_numbers', () => {
    expect(parseContractJson('{"a":1394650,"b":87511.3,"c":-0.0018,"d":3.7e-05,"t":1767211407368}')).to.deep.equal({ a: 1394650, b: 87511.3, c: -0.0018, d: 3.7e-5, t: 1767211407368 });
  });

  it('keeps_decimals_with_more_than_15_significant_digits_as_strings', () => {
    // 0.30000000000000004 has 17 significant digits
    expect(parseContractJson('[0.30000000000000004, 11316022274.28668]')).to.deep.equal(['0.30000000000000004', '11316022274.28668']);
  });

  it('does_not_touch_digits_inside_strings', () => {
    const text = '{"s":"id 101716841474621953 \\" 218699511659380224","n":[218699511659380224]}';
    expect(parseContractJson(text)).to.deep.equal({ s: 'id 101716841474621953 " 218699511659380224', n: ['218699511659380224'] });
  });

  it('returns_the_same_text_when_nothing_needs_quoting', () => {
    const text = '{"success":true,"code":0,"data":[1,2,3]}';
    expect(quoteLongNumbers(text)).to.equal(text);
  });

  it('quotes_a_negative_long_integer', () => {
    expect(parseContractJson('[-9007199254740993]')).to.deep.equal(['-9007199254740993']);
  });
});
