/**
 * Market-model hot paths: prints through the TapeAggregator (klines of all ten intervals, 24h and
 * 5-minute windows, aggregate and recent trades) against a baseline that keeps only 1m OHLCV in
 * decimal.js — what a straightforward Decimal implementation costs for a tenth of the work — and
 * JSON-lines record decoding (validated) against a bare JSON.parse of the same lines.
 */
import { Decimal } from '../src/core/decimal.js';
import { SeededRandom } from '../src/core/random.js';
import { encodeRecordLine, decodeRecordLine } from '../src/marketdata/record/json-lines-codec.js';
import type { MarketRecord } from '../src/marketdata/record/record.js';
import { TapeAggregator, type TapeTrade } from '../src/venue/market/tape-aggregator.js';
import { measure, type BenchRow, type BenchSuite } from './bench-row.js';

const N = 200_000;

function makeTrades(): TapeTrade[] {
  const rng = new SeededRandom('tape-bench');
  const out: TapeTrade[] = [];
  let t = Date.UTC(2024, 0, 1);
  let p = 8_700_000;
  for (let i = 0; i < N; i++) {
    t += rng.int(0, 400);
    p += rng.int(-3, 3);
    out.push({
      id: i + 1,
      time: t,
      priceTicks: p,
      lots: rng.int(1, 5000),
      takerSide: rng.next() < 0.5 ? 'buy' : 'sell',
      takerOrderId: String(i >> 1),
    });
  }
  return out;
}

/** Baseline: 1m bars only, every value a Decimal. */
function decimalMinuteBars(trades: readonly TapeTrade[]): number {
  const tick = new Decimal('0.01');
  const step = new Decimal('0.00001');
  let open = new Decimal(0);
  let high = new Decimal(0);
  let low = new Decimal(0);
  let close = new Decimal(0);
  let vol = new Decimal(0);
  let quote = new Decimal(0);
  let barStart = -1;
  let bars = 0;
  for (const tr of trades) {
    const price = tick.mul(tr.priceTicks);
    const qty = step.mul(tr.lots);
    const start = Math.floor(tr.time / 60_000) * 60_000;
    if (start !== barStart) {
      barStart = start;
      bars++;
      open = high = low = price;
      vol = new Decimal(0);
      quote = new Decimal(0);
    }
    if (price.gt(high)) high = price;
    if (price.lt(low)) low = price;
    close = price;
    vol = vol.plus(qty);
    quote = quote.plus(price.mul(qty));
  }
  return bars + (open.isZero() || close.isZero() ? 0 : 1);
}

export const suite: BenchSuite = {
  title: 'market model',
  async run(): Promise<BenchRow[]> {
    const trades = makeTrades();
    const ours = measure(() => {
      const tape = new TapeAggregator({ tick: '0.01', step: '0.00001' });
      for (const tr of trades) tape.onTrade(tr);
      return trades.length;
    }, 2000);
    const base = measure(() => {
      decimalMinuteBars(trades);
      return trades.length;
    }, 2000);

    const records: MarketRecord[] = trades.slice(0, 50_000).map((tr) => ({
      s: 'trade',
      m: 'spot',
      i: 'BTCUSDT',
      et: tr.time,
      lt: tr.time + 3,
      id: String(tr.id),
      p: new Decimal(tr.priceTicks).div(100).toFixed(2),
      q: new Decimal(tr.lots).div(100000).toFixed(5),
      ts: tr.takerSide,
    }));
    const lines = records.map(encodeRecordLine);
    const decode = measure(() => {
      for (let i = 0; i < lines.length; i++) decodeRecordLine(lines[i]!, i + 1);
      return lines.length;
    }, 1500);
    const parse = measure(() => {
      let n = 0;
      for (const l of lines) n += (JSON.parse(l) as { et: number }).et > 0 ? 1 : 0;
      return n;
    }, 1500);
    return [
      {
        name: 'tape: prints/s (10 intervals + windows + aggTrades)',
        ours: ours.opsPerSec,
        baseline: base.opsPerSec,
        baselineName: 'decimal.js, 1m bars only',
        unit: 'prints/s',
        higherIsBetter: true,
      },
      {
        name: 'record codec: JSON lines decoded/s (validated)',
        ours: decode.opsPerSec,
        baseline: parse.opsPerSec,
        baselineName: 'JSON.parse, no validation',
        unit: 'lines/s',
        higherIsBetter: true,
      },
    ];
  },
};
