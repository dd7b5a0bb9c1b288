import { expect } from 'chai';
import { parseJsonKeepingLongInts, quoteLongIntegers, stringifyJson } from '../../src/core/json-codec.js';

describe('core/json-codec', () => {
  it('keeps_integers_above_2_pow_53_as_exact_strings', () => {
    // 101716841474621953 > 2^53 = 9007199254740992; JSON.parse would give 101716841474621950
    const v = parseJsonKeepingLongInts('{"data":[{"orderId":101716841474621953,"errorCode":2040}]}') as {
      data: { orderId: unknown; errorCode: unknown }[];
    };
    expect(v.data[0]!.orderId).to.equal('101716841474621953');
    expect(v.data[0]!.errorCode).to.equal(2040);
  });

  it('leaves_safe_integers_floats_and_strings_alone', () => {
    const text =
      '{"ts":1779795118533,"p":87903.98,"id":"1196315350023612316","neg":-9007199254740991,"e":1e+21,"s":"x:12345678901234567890,"}';
    expect(quoteLongIntegers(text)).to.equal(text);
    expect(JSON.parse(text)).to.deep.equal(parseJsonKeepingLongInts(text));
  });

  it('quotes_a_long_negative_integer_and_a_bare_long_array', () => {
    expect(quoteLongIntegers('[-90071992547409930, 218699511659380224]')).to.equal('["-90071992547409930", "218699511659380224"]');
  });

  it('handles_escaped_quotes_inside_strings', () => {
    const text = '{"m":"say \\"12345678901234567890\\"","id":12345678901234567890}';
    expect(parseJsonKeepingLongInts(text)).to.deep.equal({ m: 'say "12345678901234567890"', id: '12345678901234567890' });
  });

  it('writes_bigint_as_a_bare_number_with_every_digit', () => {
    expect(stringifyJson([218699511659380224n, 1])).to.equal('[218699511659380224,1]');
    expect(stringifyJson({ orderId: 101716841474621953n, s: 'a' })).to.equal('{"orderId":101716841474621953,"s":"a"}');
    expect(stringifyJson({ a: 1 })).to.equal('{"a":1}');
  });

  it('keeps_a_long_integer_exact_and_leaves_every_other_number_as_the_venue_sent_it', () => {
    // JSON.parse gives 101716841474621952 (doubles are 16 apart near 1e17): the id would name another order.
    expect(String((JSON.parse('{"orderId":101716841474621953}') as { orderId: number }).orderId)).to.equal('101716841474621950');
    expect(parseJsonKeepingLongInts('{"orderId":101716841474621953}')).to.deep.equal({ orderId: '101716841474621953' });
    expect(parseJsonKeepingLongInts('{"a":1394650,"b":87511.3,"c":-0.0018,"d":3.7e-05,"t":1767211407368}')).to.deep.equal({
      a: 1394650,
      b: 87511.3,
      c: -0.0018,
      d: 3.7e-5,
      t: 1767211407368,
    });
    expect(parseJsonKeepingLongInts('[-9007199254740993]')).to.deep.equal(['-9007199254740993']);
  });
});
