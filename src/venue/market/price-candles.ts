/**
 * Index and fair price candles (/api/v1/contract/kline/index_price|fair_price): OHLC of price
 * samples per interval, with vol and amount 0 as the contract document says. The published example
 * of these endpoints repeats the close in every real* column and opens each bar at the previous
 * close, and that is what `contractCandles` returns.
 */
import { D, Decimal, toUnits, type DecimalLike } from '../../core/decimal.js';
import { KlineStore } from './kline-store.js';
import type { KlineInterval } from '../../domain/kline-interval.js';
import { candlesOf, contractCandleSelection, type CandleQuery, type ContractCandles } from './tape-aggregator.js';

export class PriceCandleSeries {
  private readonly unit: Decimal;
  private readonly store: KlineStore;
  private lastTime = -Infinity;
  private lastUnits: number | undefined;

  /** `unit`: the price resolution samples are kept at (the index's own precision, e.g. 0.01). */
  constructor(unit: DecimalLike, retention = 10_000) {
    this.unit = D(unit);
    this.store = new KlineStore(retention);
  }

  /** Adds a sample at `time` (ms); samples stamped before the previous one are booked at its time. */
  add(time: number, price: DecimalLike): void {
    this.addUnits(time, toUnits(price, this.unit, 'nearest'));
  }

  addUnits(time: number, units: number): void {
    const t = Math.max(time, this.lastTime);
    this.lastTime = t;
    this.lastUnits = units;
    this.store.add(t, units, 0, 0, false);
  }

  last(): Decimal | undefined {
    return this.lastUnits === undefined ? undefined : this.unit.mul(this.lastUnits);
  }

  contractCandles(interval: KlineInterval, q: CandleQuery, now: number): ContractCandles {
    const bars = this.store.select(interval, contractCandleSelection(q, now));
    const price = (u: number): number => this.unit.mul(u).toNumber();
    return candlesOf(
      bars,
      price,
      () => 0,
      () => 0,
      true,
    );
  }
}
