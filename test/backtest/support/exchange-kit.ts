/**
 * A simulated spot exchange over a hand-made recorded market: one instrument with tick 1 and step 1
 * (so prices are ticks and quantities are lots, and every expected number is small arithmetic),
 * records built inline, the clock moved by the test.
 */
import { VirtualClock } from '../../../src/core/clock.js';
import { D } from '../../../src/core/decimal.js';
import { clientOrderId, type SpotSymbol } from '../../../src/core/ids.js';
import type { SpotInstrument } from '../../../src/domain/instrument.js';
import type { OrderSide, TimeInForce } from '../../../src/domain/order.js';
import { spotInstrumentSchema, toSpotInstrument } from '../../../src/emulator/config/instrument-schemas.js';
import type { DataRecord } from '../../../src/marketdata/record/record.js';
import { resolveFillModel, type FillModelOverrides, type StandardFillModelName } from '../../../src/backtest/fill-model.js';
import { ReplayMarket } from '../../../src/backtest/replay-market.js';
import { SimulatedExchange } from '../../../src/backtest/simulated-exchange.js';
import { SimulatedGateway } from '../../../src/backtest/simulated-gateway.js';
import { SpotSimVenue } from '../../../src/backtest/spot-sim-venue.js';
import type { PlaceAck } from '../../../src/execution/exchange-gateway.js';

export const SYMBOL = 'TESTUSDT' as SpotSymbol;

export function testInstrument(): SpotInstrument {
  return toSpotInstrument(
    spotInstrumentSchema.parse({
      symbol: SYMBOL,
      baseAsset: 'TEST',
      quoteAsset: 'USDT',
      baseAssetPrecision: 0,
      quotePrecision: 0,
      minQuantity: '1',
      minQuoteAmount: '1',
      maxQuoteAmount: '100000000',
      makerCommission: '0',
      takerCommission: '0',
    }),
  );
}

export interface Kit {
  readonly clock: VirtualClock;
  readonly market: ReplayMarket;
  readonly exchange: SimulatedExchange;
  readonly venue: SpotSimVenue;
  readonly gateway: SimulatedGateway;
  /** Moves the clock to `t` (running what is due), then applies the record. */
  at(t: number, r?: DataRecord): void;
  place(side: OrderSide, price: number, qty: number, tif?: TimeInForce, id?: string): Promise<PlaceAck>;
  /** Our fills so far: [side, price, qty] with numbers. */
  fills(): [string, number, number][];
}

let ids = 0;

export function kit(model: StandardFillModelName, overrides: FillModelOverrides = {}): Kit {
  const clock = new VirtualClock(1_000);
  const inst = testInstrument();
  const market = new ReplayMarket([{ instrument: inst, source: { market: 'spot', symbol: SYMBOL } }]);
  const exchange = new SimulatedExchange(clock, market, resolveFillModel(model, overrides));
  const venue = new SpotSimVenue({ exchange, instruments: [inst], deposits: { USDT: '1000000', TEST: '1000' } });
  const gateway = new SimulatedGateway(exchange, venue);
  const at = (t: number, r?: DataRecord): void => {
    for (let due = exchange.nextDueAt(); due !== undefined && due <= t; due = exchange.nextDueAt()) {
      clock.advanceTo(Math.max(due, clock.now()));
      exchange.runDue(clock.now());
    }
    if (t > clock.now()) clock.advanceTo(t);
    if (r) market.apply(r);
  };
  return {
    clock,
    market,
    exchange,
    venue,
    gateway,
    at,
    place: (side, price, qty, tif = 'gtc', id = `pptest_p_${String(++ids).padStart(11, '0')}`) =>
      gateway.placeOrder({
        clientOrderId: clientOrderId(id),
        order: { symbol: SYMBOL, kind: 'spot', side, type: 'limit', timeInForce: tif, price: D(price), quantity: D(qty) },
      }),
    fills: () => venue.fills.map((f) => [f.side, f.price.toNumber(), f.quantity.toNumber()]),
  };
}

const lv = (l: readonly [number, number][]): [string, string][] => l.map(([p, q]) => [String(p), String(q)]);

export const book = (t: number, u: number, bids: [number, number][], asks: [number, number][]): DataRecord => ({
  s: 'depth.snapshot',
  m: 'spot',
  i: SYMBOL,
  et: t,
  lt: t,
  u,
  b: lv(bids),
  a: lv(asks),
});

export const diff = (t: number, u: number, bids: [number, number][], asks: [number, number][]): DataRecord => ({
  s: 'depth.diff',
  m: 'spot',
  i: SYMBOL,
  et: t,
  lt: t,
  U: u,
  u,
  b: lv(bids),
  a: lv(asks),
});

export const trade = (t: number, takerSide: 'buy' | 'sell', price: number, qty: number): DataRecord => ({
  s: 'trade',
  m: 'spot',
  i: SYMBOL,
  et: t,
  lt: t,
  p: String(price),
  q: String(qty),
  ts: takerSide,
});
