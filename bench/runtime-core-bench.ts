/**
 * The runtime's hot path, in process: snapshot → strategy → risk → order manager → gateway call.
 *
 *  - latency p50 / p99 of one snapshot carried through a quoting strategy (3 bids + 3 asks as desired
 *    quotes), the full risk rule set and the order manager's diff (contract: native amends) down to
 *    the in-memory gateway — against the strategy alone on the same snapshots (what risk + orders add);
 *  - risk engine throughput on that quote set: every rule vs the tick rule alone;
 *  - the desired-quotes diff vs the naive plan (cancel everything, place everything) on the same input.
 *
 * The gateway is the test suite's FakeGateway: it answers at once, so the figures are our own cost.
 *
 * Console on vs off: the same pipeline with the console attached as `perpetua run` attaches it — its
 * read model and metrics following every event, a sample each (virtual) second, the fastify server
 * listening on 127.0.0.1 with a live SSE client connected and /metrics scraped every 500 events.
 */
import { VirtualClock } from '../src/core/clock.js';
import { D, type Decimal, ZERO } from '../src/core/decimal.js';
import { SeededRandom } from '../src/core/random.js';
import { InstrumentRegistry } from '../src/domain/instrument-registry.js';
import type { DesiredQuote, Intent } from '../src/domain/intent.js';
import type { Order } from '../src/domain/order.js';
import type { MarketSnapshot } from '../src/domain/snapshot.js';
import { ClientIdCodec } from '../src/domain/client-id-codec.js';
import { diffDesiredQuotes } from '../src/execution/desired-quotes-diff.js';
import { MemoryOrderJournal } from '../src/execution/order-journal.js';
import { OrderManager } from '../src/execution/order-manager.js';
import { RiskEngine } from '../src/risk/risk-engine.js';
import { DEFAULT_RISK_LIMITS, type RiskState } from '../src/risk/risk-rule.js';
import { priceTickRule } from '../src/risk/rules/price-tick-rule.js';
import type { Strategy } from '../src/strategy/strategy.js';
import type { StrategyContext, TradingStateView } from '../src/strategy/strategy-context.js';
import { StrategyRunner } from '../src/strategy/strategy-runner.js';
import { loadavg } from 'node:os';
import { request } from 'undici';
import { TradingState } from '../src/runtime/trading-state.js';
import type { ConsoleRun } from '../src/console/console-port.js';
import { ConsoleMetrics } from '../src/console/console-metrics.js';
import { buildConsoleServer } from '../src/console/console-server.js';
import { ConsoleReadModel } from '../src/console/read-model.js';
import { account, balance, BTC_USDT, contractInstrument, order, S1, snapshot } from '../test/domain/support/builders.js';
import { CONTRACT_CAPS, FakeGateway } from '../test/execution/fake-gateway.js';
import { type BenchRow, type BenchSuite, measure } from './bench-row.js';

const N = 3000;
/** Passes of the p50 / p99 rows, each a build of its own pipeline; odd, so the median is one of them. */
const LATENCY_PASSES = 5;
const inst = contractInstrument();

/** Quotes three levels each side around the mid, one tick apart. */
class LadderQuoter implements Strategy {
  onSnapshot(s: MarketSnapshot, ctx: StrategyContext): Intent[] {
    const mid = s.book!.bids[0]!.price.plus(s.book!.asks[0]!.price).div(2);
    const tick = inst.priceUnit;
    const quotes = [0, 1, 2].flatMap((k) => [
      { slot: `b${k}`, side: 'buy' as const, price: mid.minus(tick.mul(k + 2)).toDecimalPlaces(1, 1), quantity: '10', leverage: 10 },
      { slot: `a${k}`, side: 'sell' as const, price: mid.plus(tick.mul(k + 2)).toDecimalPlaces(1, 0), quantity: '10', leverage: 10 },
    ]);
    return [ctx.intents.quotes(s.symbol, quotes)];
  }
}

function snapshots(clock0: number): MarketSnapshot[] {
  const r = new SeededRandom('runtime-core-bench');
  let mid = 60_000;
  const out: MarketSnapshot[] = [];
  for (let i = 0; i < N; i++) {
    mid += r.int(-2, 2) * 0.1;
    const bid = (Math.round((mid - 0.1) * 10) / 10).toFixed(1);
    const ask = (Math.round((mid + 0.1) * 10) / 10).toFixed(1);
    out.push(snapshot(BTC_USDT, { bids: [[bid, '500']], asks: [[ask, '500']], last: bid, fair: bid, pollTime: clock0 + (i + 1) * 1000 }));
  }
  return out;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The console of `perpetua run`, attached to the bench's order manager; `between` runs between snapshots. */
async function attachConsole(om: OrderManager, clock: VirtualClock): Promise<{ between(): void; detach(): Promise<void> }> {
  const books = { liveOrders: () => om.liveOrders(), order: (cid: string) => om.order(cid) };
  const state = new TradingState(new InstrumentRegistry([inst]), books, DEFAULT_RISK_LIMITS, 'USDT');
  const zero = { placed: 0, fills: 0, volume: ZERO, amends: 0, cancels: 0, rejects: 0, denials: 0, failures: 0, deniedBy: {} };
  const run: ConsoleRun = {
    state,
    events$: om.events$,
    status: () => ({
      now: clock.now(),
      elapsedMs: 0,
      marks: [],
      balances: [],
      strategies: [],
      totals: zero,
      staleSnapshots: 0,
      snapshots: 0,
    }),
    isPaused: () => false,
    applyControl: () => Promise.reject(new Error('no control in the bench')),
  };
  const strategies = [{ id: S1, name: 'ladder', instruments: [BTC_USDT], params: {} }];
  const info = { mode: 'bench', venue: 'fake', valuationAsset: 'USDT', instruments: [BTC_USDT], strategies };
  const model = new ConsoleReadModel(run, info, clock);
  const metrics = new ConsoleMetrics(run, info, clock);
  model.start();
  metrics.start();
  const token = 'bench-console-token-0123456789';
  const app = buildConsoleServer({ model, metrics, token, control: run.applyControl as never, stop: async () => {} });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const a = app.server.address();
  const base = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
  const headers = { authorization: `Bearer ${token}` };
  const sse = await request(`${base}/api/stream`, { headers });
  sse.body.on('data', () => {});
  let n = 0;
  const sub = om.events$.subscribe(() => void n++);
  // A Prometheus scrape every 500 events. It is sent between snapshots, where a real scrape arrives (a
  // socket read in the event loop); sending it from inside an event handler charged the client's cost to
  // the timed span.
  let scraped = 0;
  const between = (): void => {
    if (n - scraped < 500) return;
    scraped = n;
    void request(`${base}/metrics`, { headers }).then((r) => r.body.dump());
  };
  const detach = async (): Promise<void> => {
    sub.unsubscribe();
    sse.body.destroy();
    model.stop();
    metrics.stop();
    await app.close();
  };
  return { between, detach };
}

/** `console`: undefined for the plain rows; 'off' / 'on' for the console pair (both yield to the event loop after each snapshot). */
async function pipelineLatency(
  full: boolean,
  console?: 'on' | 'off',
): Promise<{ p50: number; p99: number; cpuP50: number; cpuP99: number }> {
  const clock = new VirtualClock(1_000_000);
  const gw = new FakeGateway(CONTRACT_CAPS);
  const codec = new ClientIdCodec(clock);
  codec.register(S1, 'bench');
  const om = new OrderManager(gw, new MemoryOrderJournal(), clock, codec, new InstrumentRegistry([inst]), {});
  const risk = new RiskEngine();
  let last: MarketSnapshot | undefined;
  const view: TradingStateView = {
    instrument: () => inst,
    positions: () => [],
    balances: () => [],
    openOrders: (id) => om.liveOrders({ strategyId: id }),
    order: (cid) => om.order(cid),
    lastSnapshot: () => last,
  };
  const runner = new StrategyRunner(S1, new LadderQuoter(), view, clock);
  await runner.start();
  const attached = console === 'on' ? await attachConsole(om, clock) : undefined;
  const acct = account('contract', balance('USDT', '100000000'));
  const times: number[] = [];
  // CPU time of the process per snapshot beside the wall time: on a machine shared with other jobs the
  // wall time includes waiting for a core, which the console does not cause.
  const cpu: number[] = [];
  for (const s of snapshots(clock.now())) {
    clock.advanceTo(s.pollTime);
    last = s;
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    const intents = runner.onSnapshot(s);
    if (full) {
      for (const intent of intents) {
        const state: RiskState = {
          now: clock.now(),
          snapshot: s,
          account: acct,
          positions: [],
          strategyPositions: [],
          openOrders: om.liveOrders(),
          positionMode: 'one-way',
          leverage: { 'BTC_USDT|net': 10 },
          limits: DEFAULT_RISK_LIMITS,
          metrics: { rejectTimes: [] },
        };
        const d = risk.evaluate(intent, inst, state);
        if (d.approved) await om.execute(d.approved);
      }
    }
    times.push(Number(process.hrtime.bigint() - t0) / 1000);
    const c = process.cpuUsage(c0);
    cpu.push(c.user + c.system);
    // Outside the timed span: the console's server gets its turn of the event loop, as between real snapshots.
    attached?.between();
    if (console) await new Promise((r) => setImmediate(r));
  }
  await attached?.detach();
  const warm = times.slice(N / 10).sort((a, b) => a - b);
  const warmCpu = cpu.slice(N / 10).sort((a, b) => a - b);
  return { p50: percentile(warm, 50), p99: percentile(warm, 99), cpuP50: percentile(warmCpu, 50), cpuP99: percentile(warmCpu, 99) };
}

function quoteSet(): { quotes: DesiredQuote[]; resting: Order[]; state: RiskState; intent: Intent } {
  const quotes: DesiredQuote[] = [];
  const resting: Order[] = [];
  for (let k = 0; k < 5; k++) {
    quotes.push({ slot: `b${k}`, side: 'buy', price: D(59_990 - k), quantity: D(10), leverage: 10 });
    quotes.push({ slot: `a${k}`, side: 'sell', price: D(60_010 + k), quantity: D(10), leverage: 10 });
    // half the levels moved by a tick since the last round
    const moved = k % 2 === 0 ? D('0.1') : ZERO;
    resting.push(order({ symbol: BTC_USDT, slot: `b${k}`, side: 'buy', price: D(59_990 - k).minus(moved), quantity: D(10), leverage: 10 }));
    resting.push(order({ symbol: BTC_USDT, slot: `a${k}`, side: 'sell', price: D(60_010 + k).plus(moved), quantity: D(10), leverage: 10 }));
  }
  const state: RiskState = {
    now: 1000,
    snapshot: snapshot(BTC_USDT, { bids: [['59999.9', '500']], asks: [['60000.1', '500']], last: '60000', fair: '60000', pollTime: 1000 }),
    account: account('contract', balance('USDT', '100000000')),
    positions: [],
    strategyPositions: [],
    openOrders: resting,
    positionMode: 'one-way',
    leverage: { 'BTC_USDT|net': 10 },
    limits: DEFAULT_RISK_LIMITS,
    metrics: { rejectTimes: [] },
  };
  return { quotes, resting, state, intent: { kind: 'desired-quotes', intentId: 'b:1', strategyId: S1, symbol: BTC_USDT, quotes } };
}

function naivePlan(quotes: readonly DesiredQuote[], resting: readonly Order[]): number {
  // cancel every resting order, place every quote: what a strategy without a diff would send
  let n = 0;
  for (const o of resting) if (o.price) n++;
  for (const q of quotes) if (q.quantity.gt(0)) n++;
  return n;
}

export const suite: BenchSuite = {
  title: 'runtime core',
  async run(): Promise<BenchRow[]> {
    type Pass = { p50: number; p99: number; cpuP50: number; cpuP99: number };
    const median = (xs: Pass[], k: keyof Pass): number => xs.map((x) => x[k]).sort((a, b) => a - b)[(xs.length - 1) / 2]!;
    // Strategy alone and the full path alternate, five passes each, and the medians are reported: one
    // pass's p99 is the 27th slowest of 2,700 snapshots, so a few scavenges or another process's burst
    // moved it 240-550 µs between runs of the same build (session 14).
    // One pass of each first, not counted: the first two passes of a process ran 2-10x slower at p99 than
    // the rest (the JIT still compiling the path past the first 10 % of a pass); the rows are the steady state.
    await pipelineLatency(false);
    await pipelineLatency(true);
    const aloneRuns: Pass[] = [];
    const fullRuns: Pass[] = [];
    for (let i = 0; i < LATENCY_PASSES; i++) {
      aloneRuns.push(await pipelineLatency(false));
      fullRuns.push(await pipelineLatency(true));
    }
    const strategyOnly = { p50: median(aloneRuns, 'p50'), p99: median(aloneRuns, 'p99') };
    const full = { p50: median(fullRuns, 'p50'), p99: median(fullRuns, 'p99') };
    const spread = (k: keyof Pass): string => fullRuns.map((x) => x[k].toFixed(1)).join(' / ');
    // Off and on alternate, three times each; the medians are compared (one pass is at the mercy of
    // whatever else the machine does at that moment).
    const offRuns: Pass[] = [];
    const onRuns: Pass[] = [];
    for (let i = 0; i < 3; i++) {
      offRuns.push(await pipelineLatency(true, 'off'));
      onRuns.push(await pipelineLatency(true, 'on'));
    }
    const consoleOff = { p50: median(offRuns, 'p50'), p99: median(offRuns, 'p99'), cpuP50: median(offRuns, 'cpuP50') };
    const consoleOn = { p50: median(onRuns, 'p50'), p99: median(onRuns, 'p99'), cpuP50: median(onRuns, 'cpuP50') };
    const { quotes, resting, state, intent } = quoteSet();
    const allRules = new RiskEngine();
    const tickOnly = new RiskEngine([priceTickRule]);
    const riskAll = measure(() => {
      for (let i = 0; i < 50; i++) allRules.evaluate(intent, inst, state);
      return 50;
    }, 1000).opsPerSec;
    const riskTick = measure(() => {
      for (let i = 0; i < 50; i++) tickOnly.evaluate(intent, inst, state);
      return 50;
    }, 1000).opsPerSec;
    const opts = { amend: 'native' as const, batchPlaceMax: 1, batchCancelMax: 50, budget: 100 };
    let sink: Decimal | number = 0;
    const diff = measure(() => {
      for (let i = 0; i < 200; i++) sink = diffDesiredQuotes(quotes, resting, opts).calls;
      return 200;
    }, 1000).opsPerSec;
    const naive = measure(() => {
      for (let i = 0; i < 200; i++) sink = naivePlan(quotes, resting);
      return 200;
    }, 1000).opsPerSec;
    const calls = diffDesiredQuotes(quotes, resting, opts).calls;
    void sink;
    return [
      {
        name: 'snapshot → intent → request, p50',
        ours: full.p50,
        baseline: strategyOnly.p50,
        baselineName: 'strategy alone',
        unit: 'µs',
        budget: 20,
        higherIsBetter: false,
        note:
          `median of ${LATENCY_PASSES} passes after one not counted (${spread('p50')}); ${N} snapshots each, 6 desired quotes each, full risk rule set, ` +
          'order manager with native amends, in-memory gateway',
      },
      {
        name: 'snapshot → intent → request, p99',
        ours: full.p99,
        baseline: strategyOnly.p99,
        baselineName: 'strategy alone',
        unit: 'µs',
        budget: 200,
        higherIsBetter: false,
        note:
          `median of ${LATENCY_PASSES} passes (${spread('p99')}); CPU time p99 ${median(fullRuns, 'cpuP99').toFixed(0)} µs ` +
          `(a wall p99 far above it is time spent waiting for a core); load average ${loadavg()[0]!.toFixed(1)}`,
      },
      {
        name: 'snapshot → intent → request, p50, console on',
        ours: consoleOn.p50,
        baseline: consoleOff.p50,
        baselineName: 'console off',
        unit: 'µs',
        higherIsBetter: false,
        note:
          'median of 3 alternating passes each; console on: read model + metrics on every event, 1 s samples, ' +
          `fastify with an SSE client and /metrics scrapes; p99 on ${consoleOn.p99.toFixed(1)} vs off ${consoleOff.p99.toFixed(1)} µs; ` +
          `CPU time p50 on ${consoleOn.cpuP50.toFixed(0)} vs off ${consoleOff.cpuP50.toFixed(0)} µs; ` +
          `load average ${loadavg()[0]!.toFixed(1)}`,
      },
      {
        name: 'risk evaluate, 10-quote set',
        ours: riskAll,
        baseline: riskTick,
        baselineName: 'tick rule only',
        unit: 'intents/s',
        // Issue 13: risk on a 10-quote set ≤ 10 µs, i.e. ≥ 100,000 of these intents a second.
        budget: 100_000,
        higherIsBetter: true,
        note: 'each intent is one desired-quotes set of 10 quotes against 10 resting orders, the full rule set: ≥ 100,000/s is ≤ 10 µs a set',
      },
      {
        name: 'desired-quotes diff, 10 quotes / 10 resting',
        ours: diff,
        baseline: naive,
        baselineName: 'naive cancel-all + place-all plan',
        unit: 'diffs/s',
        higherIsBetter: true,
        note: `the diff sends ${calls} calls where the naive plan sends ${naivePlan(quotes, resting)}`,
      },
    ];
  },
};
