/** fast-check generators of every record type, biased toward the awkward values a codec can lose. */
import fc from 'fast-check';
import { KLINE_INTERVALS } from '../../../../src/domain/kline-interval.js';
import type { DataRecord, RecordLevel, RecordStream } from '../../../../src/marketdata/record/record.js';

/** Any string the record model accepts as a decimal: venue-like values and edge cases. */
export const decimalArb: fc.Arbitrary<string> = fc.oneof(
  // Venue-like: a price with a fixed number of decimals (trailing zeros kept).
  fc
    .tuple(fc.integer({ min: 0, max: 200_000_00 }), fc.integer({ min: 0, max: 10 }))
    .map(([cents, pad]) => (cents / 100).toFixed(2) + '0'.repeat(pad)),
  fc.tuple(fc.nat({ max: 10 ** 9 }), fc.integer({ min: 0, max: 12 })).map(([m, s]) => {
    const d = String(m).padStart(s + 1, '0');
    return s === 0 ? d : `${d.slice(0, d.length - s)}.${d.slice(d.length - s)}`;
  }),
  // Arbitrary digit strings: leading zeros, negative zero, more digits than a double holds.
  fc
    .tuple(fc.boolean(), fc.stringMatching(/^\d{1,30}$/), fc.option(fc.stringMatching(/^\d{1,30}$/), { nil: undefined }))
    .map(([neg, int, frac]) => `${neg ? '-' : ''}${int}${frac === undefined ? '' : `.${frac}`}`),
  fc.constantFrom('0', '-0', '0.0', '-0.00000000', '00', '007.50', '9007199254740993', '0.000000000000000000000001', '-1', '1.10'),
);

const time = fc.oneof(fc.integer({ min: 1_600_000_000_000, max: 1_800_000_000_000 }), fc.maxSafeNat());
const id = fc.oneof(fc.nat({ max: 2 ** 40 }), fc.maxSafeNat());
const market = fc.constantFrom('spot' as const, 'contract' as const);
const symbol = fc.constantFrom('BTCUSDT', 'BTC_USDT', 'ETHUSDT', 'Ω_USDT');

const level: fc.Arbitrary<RecordLevel> = fc.oneof(
  fc.tuple(decimalArb, decimalArb),
  fc.tuple(decimalArb, decimalArb, fc.nat({ max: 10_000 })),
) as fc.Arbitrary<RecordLevel>;
const levels = fc.array(level, { maxLength: 6 });

/** Drops keys whose value is undefined (records never carry undefined keys). */
function clean<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

const opt = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(a, { nil: undefined });

const head = { m: market, i: symbol, et: time, lt: time };

export const recordArbs: Readonly<Record<RecordStream, fc.Arbitrary<DataRecord>>> = {
  'depth.snapshot': fc.record({ s: fc.constant('depth.snapshot' as const), ...head, u: id, b: levels, a: levels }),
  'depth.diff': fc.record({ s: fc.constant('depth.diff' as const), ...head, U: id, u: id, pu: opt(id), b: levels, a: levels }).map(clean),
  trade: fc
    .record({
      s: fc.constant('trade' as const),
      ...head,
      id: opt(fc.oneof(id.map(String), fc.string({ maxLength: 12 }), fc.constantFrom('0', '007', '', '18446744073709551615'))),
      p: decimalArb,
      q: decimalArb,
      ts: fc.constantFrom('buy' as const, 'sell' as const),
    })
    .map(clean),
  bookTicker: fc
    .record({ s: fc.constant('bookTicker' as const), ...head, u: opt(id), bp: decimalArb, bq: decimalArb, ap: decimalArb, aq: decimalArb })
    .map(clean),
  kline: fc
    .record({
      s: fc.constant('kline' as const),
      ...head,
      iv: fc.constantFrom(...KLINE_INTERVALS),
      ot: time,
      o: decimalArb,
      h: decimalArb,
      l: decimalArb,
      c: decimalArb,
      v: decimalArb,
      qv: opt(decimalArb),
      n: opt(fc.nat()),
      x: opt(fc.boolean()),
    })
    .map(clean),
  funding: fc
    .record({
      s: fc.constant('funding' as const),
      ...head,
      r: decimalArb,
      nt: opt(time),
      min: opt(decimalArb),
      max: opt(decimalArb),
      cy: opt(fc.oneof(fc.integer({ min: 1, max: 24 }), fc.double({ min: 0.25, max: 24, noNaN: true }))),
    })
    .map(clean),
  index: fc.record({ s: fc.constant('index' as const), ...head, p: decimalArb }),
  fair: fc.record({ s: fc.constant('fair' as const), ...head, p: decimalArb }),
  ticker: fc
    .record({
      s: fc.constant('ticker' as const),
      ...head,
      last: decimalArb,
      open: opt(decimalArb),
      high: opt(decimalArb),
      low: opt(decimalArb),
      v: opt(decimalArb),
      qv: opt(decimalArb),
      n: opt(fc.nat()),
    })
    .map(clean),
} as Readonly<Record<RecordStream, fc.Arbitrary<DataRecord>>>;

export const anyRecordArb: fc.Arbitrary<DataRecord> = fc.oneof(...Object.values(recordArbs));
