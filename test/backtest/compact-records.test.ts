/**
 * compact-records.ts must give back exactly what it was given: the same keys in the same order, the
 * same numbers (-0, NaN and fractions included), strings and booleans, Decimals of the same value
 * and sign, and anything that is not a flat record as the very object it was. The expected values
 * are the inputs themselves, compared key by key.
 */
import { expect } from 'chai';
import { D, Decimal } from '../../src/core/decimal.js';
import { CompactRecords } from '../../src/backtest/compact-records.js';

/** Keys in order, and every value: primitives with Object.is, Decimals by value and sign. */
function expectSame(actual: object, expected: object): void {
  expect(Object.keys(actual)).to.deep.equal(Object.keys(expected));
  for (const [k, v] of Object.entries(expected)) {
    const a = (actual as Record<string, unknown>)[k];
    if (v instanceof Decimal) {
      expect(a, k).to.be.instanceOf(Decimal);
      const d = a as Decimal;
      expect(d.toFixed(), k).to.equal(v.toFixed());
      expect(d.isNegative(), `${k} sign`).to.equal(v.isNegative());
    } else expect(Object.is(a, v), `${k}: ${String(a)} vs ${String(v)}`).to.equal(true);
  }
}

describe('backtest/compact-records', () => {
  const kline = (ot: number, o: string) => ({
    s: 'kline',
    m: 'spot',
    i: 'BTCUSDT',
    et: ot + 60_000,
    lt: ot + 60_000,
    iv: '1m',
    ot,
    o,
    h: '105597.1',
    l: '105554.31',
    c: '105554.32',
    v: '10.82647',
    x: true,
  });
  const records: object[] = [
    kline(1747699200000, '105573.73'),
    kline(1747699260000, '105554.32'),
    { s: 'funding', m: 'contract', i: 'BTC_USDT', et: 5, lt: 5, r: '-0.0001', nt: 28_800_005 },
    // Not flat (level arrays): kept as the object.
    { s: 'depth', key: 'spot:BTCUSDT', et: 7, snapshot: true, U: 1, u: 2, pu: undefined, bids: [1, 2], asks: [3, 4] },
    { s: 'print', key: 'spot:BTCUSDT', et: 8, priceTicks: 10557373, lots: 2, takerSide: 'buy' },
    { a: -0, b: Number.NaN, c: 0.1 + 0.2, d: Number.NEGATIVE_INFINITY, e: '', f: false, g: 'x\u0000y' },
    {
      tradeId: '17',
      venueOrderId: '3',
      clientOrderId: 'ppmm1_qb0_0mavr0jo200',
      symbol: 'BTCUSDT',
      kind: 'spot',
      price: D('105527.93'),
      quantity: D('0.002'),
      time: 1747699260100,
      side: 'buy',
      fee: new Decimal(-0),
      feeAsset: 'USDT',
      liquidity: 'maker',
    },
    { price: D('1e-35'), quantity: D('123456789012345678901234567890.123456789'), fee: D('-0.000000052763965') },
  ];

  it('gives_back_every_record_as_it_was_twice_over', () => {
    const c = CompactRecords.of(records);
    expect(c.length).to.equal(records.length);
    for (const pass of [[...c], [...c], c.toArray()]) {
      expect(pass).to.have.length(records.length);
      pass.forEach((r, i) => expectSame(r, records[i]!));
    }
    // What is not a flat record comes back as the same object (the depth event; the NUL in a string).
    expect([...c][3]).to.equal(records[3]);
    expect([...c][5]).to.equal(records[5]);
  });

  it('reads_any_index_and_shares_equal_decimals_when_asked', () => {
    const c = new CompactRecords<Record<string, unknown>>();
    for (let k = 0; k < 3000; k++) c.push({ n: k, q: D('0.002'), p: D(100 + k) });
    expect(c.at(2999)['n']).to.equal(2999);
    expect((c.at(1234)['p'] as Decimal).toFixed()).to.equal('1334');
    const all = c.toArray();
    expect(all[0]!['q']).to.equal(all[2999]!['q']);
    expect(all.map((r) => r['n'])).to.deep.equal([...Array(3000).keys()]);
  });
});
