/**
 * The TradingRuntime on a virtual clock over the backtest's simulated exchange (a real spot venue
 * engine behind SimulatedGateway, the real OrderManager, RiskEngine with the default rules, the
 * in-memory run journal), for runtime tests. Market: TESTUSDT, tick 1 and step 1, no fees, recorded
 * book 99 / 101 (10 lots each side); 1,000,000 USDT and 1,000 TEST.
 */
import { expect } from 'chai';
import { Observable, Subject } from 'rxjs';
import { VirtualClock } from '../../../src/core/clock.js';
import { D } from '../../../src/core/decimal.js';
import type { StrategyId } from '../../../src/core/ids.js';
import { InstrumentRegistry } from '../../../src/domain/instrument-registry.js';
import type { MarketSnapshot } from '../../../src/domain/snapshot.js';
import { ClientIdCodec } from '../../../src/domain/client-id-codec.js';
import { OrderManager } from '../../../src/execution/order-manager.js';
import type { MarketDataSource } from '../../../src/marketdata/market-data-source.js';
import { RiskEngine } from '../../../src/risk/risk-engine.js';
import { DEFAULT_RISK_LIMITS, type RiskLimits } from '../../../src/risk/risk-rule.js';
import type { Strategy } from '../../../src/strategy/strategy.js';
import { resolveFillModel } from '../../../src/backtest/fill-model.js';
import { MemoryRunJournal } from '../../../src/backtest/memory-run-journal.js';
import { ReplayMarket } from '../../../src/backtest/replay-market.js';
import { SimulatedExchange } from '../../../src/backtest/simulated-exchange.js';
import { SimulatedGateway } from '../../../src/backtest/simulated-gateway.js';
import { SpotSimVenue } from '../../../src/backtest/spot-sim-venue.js';
import { KindJournal } from '../../../src/runtime/kind-journal.js';
import { TradingRuntime } from '../../../src/runtime/trading-runtime.js';
import { book, SYMBOL, testInstrument } from '../../backtest/support/exchange-kit.js';

export const T0 = 1_700_000_000_000;
export const RECONCILE_MS = 5_000;
export const SID = 'rt' as StrategyId;

/** Snapshots the test hands in one by one (what a poller would deliver), stamped with the virtual clock. */
export class HandFedSource implements MarketDataSource {
  readonly symbols = [SYMBOL];
  private readonly subject = new Subject<MarketSnapshot>();
  /** The book the next feed() shows (the test moves it). */
  bid = 99;
  ask = 101;
  constructor(private readonly clock: VirtualClock) {}
  snapshots(): Observable<MarketSnapshot> {
    return this.subject.asObservable();
  }
  async start(): Promise<void> {
    this.feed();
  }
  async stop(): Promise<void> {
    this.subject.complete();
  }
  feed(): void {
    const lv = (p: number, q: number) => ({ price: D(p), quantity: D(q) });
    this.subject.next({
      symbol: SYMBOL,
      kind: 'spot',
      pollTime: this.clock.now(),
      book: { bids: [lv(this.bid, 10)], asks: [lv(this.ask, 10)] },
    });
  }
}

export function simRuntime(strategy: Strategy, name: string, limits: RiskLimits = DEFAULT_RISK_LIMITS) {
  const clock = new VirtualClock(T0);
  const inst = testInstrument();
  const market = new ReplayMarket([{ instrument: inst, source: { market: 'spot', symbol: SYMBOL } }]);
  // Optimistic model: no latency (gateway calls are answered at once) and first in the queue at a new price.
  const exchange = new SimulatedExchange(clock, market, resolveFillModel('optimistic'));
  const venue = new SpotSimVenue({ exchange, instruments: [inst], deposits: { USDT: '1000000', TEST: '1000' } });
  exchange.attach('spot', venue);
  market.apply(book(T0, 1, [[99, 10]], [[101, 10]]));
  const gateway = new SimulatedGateway(exchange, venue);
  const journal = new MemoryRunJournal();
  const codec = new ClientIdCodec(clock);
  codec.register(SID);
  const instruments = new InstrumentRegistry([inst]);
  const orders = new OrderManager(gateway, new KindJournal(journal, 'spot'), clock, codec, instruments);
  const source = new HandFedSource(clock);
  const warnings: string[] = [];
  const note = (m: string): void => void warnings.push(m);
  const logger = { debug: () => {}, info: () => {}, warn: note, error: note };
  const runtime = new TradingRuntime({
    clock,
    logger,
    mode: 'paper',
    configHash: 'test',
    instruments,
    market: source,
    venues: [{ kind: 'spot', gateway, orders }],
    journal,
    risk: new RiskEngine(),
    limits,
    codec,
    strategies: [{ id: SID, name, instruments: [SYMBOL], strategy }],
    policy: {
      cancelOnExit: true,
      reconcileIntervalMs: RECONCILE_MS,
      maxSnapshotAgeMs: 10_000,
      chaseMaxReprices: 10,
      firstSnapshotTimeoutMs: 1_000,
    },
    valuationAsset: 'USDT',
    resume: false,
  });
  return { clock, market, venue, journal, runtime, warnings, source, orders };
}

/**
 * Lets the runtime's job (already started by the timer) run to its end: the simulated gateway answers
 * through settled promises, so the job needs only event-loop turns, never time. Fails instead of hanging.
 */
export async function until(cond: () => boolean, what: string): Promise<void> {
  for (let turn = 0; turn < 1_000 && !cond(); turn++) await new Promise<void>((resolve) => setImmediate(resolve));
  expect(cond(), what).to.equal(true);
}
