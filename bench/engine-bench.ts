/**
 * Matching engine throughput: one generated stream of order messages (passive limit adds, cancels,
 * crossing limits, market orders) run through our integer OrderBook, through the full SpotVenue
 * (validation, ledger reservations, fees, own trades, order records) — bare, with a tape subscriber and
 * with a Decimal event subscriber — and through the published `nodejs-order-book` package on the SAME
 * stream, interleaved in one run. Budget (issue): ≥ 1,000,000 simple operations (order messages)/s on
 * one core. orders/s counts every message of the stream; fills/s counts maker fills.
 *
 * Fills are counted per engine and compared: equal counts show the engines did the same matching work.
 * Absolute rates move with the load of a shared machine; the ratio to nodejs-order-book within each
 * round is the stable figure (the notes give its spread over the rounds).
 */
import { OrderBook as NobOrderBook, Side as NobSide } from 'nodejs-order-book';
import { VirtualClock } from '../src/core/clock.js';
import { SeededRandom } from '../src/core/random.js';
import { OrderBook } from '../src/venue/book/order-book.js';
import { SpotVenue } from '../src/venue/spot/spot-venue.js';
import { benchBtcUsdtSpot } from './support/bench-instruments.js';
import type { BenchRow, BenchSuite } from './bench-row.js';

const OP_ADD = 0;
const OP_CANCEL = 1;
const OP_CROSS = 2;
const OP_MARKET = 3;

interface Stream {
  readonly n: number;
  readonly kind: Uint8Array;
  /** 0 buy, 1 sell */
  readonly side: Uint8Array;
  readonly price: Int32Array;
  readonly lots: Int32Array;
  /** For adds/crosses: the order's own index; for cancels: the index of the order to cancel. */
  readonly ref: Int32Array;
  readonly account: Uint8Array;
  readonly ids: string[];
}

const MID = 10_000;
const ACCOUNTS = ['mm-0', 'mm-1', 'mm-2', 'mm-3'];

/**
 * 42 % passive adds, 45 % cancels, 8 % crossing limits, 5 % market orders; sizes 1–100 lots, prices
 * within 20 ticks of the touch. A cancel picks any not yet cancelled order (some were filled meanwhile:
 * a miss is part of the workload), which keeps the book at a steady few thousand orders, as quoting
 * market makers would.
 */
export function generateStream(n: number, seed = 42): Stream {
  const rnd = new SeededRandom(seed);
  const s: Stream = {
    n,
    kind: new Uint8Array(n),
    side: new Uint8Array(n),
    price: new Int32Array(n),
    lots: new Int32Array(n),
    ref: new Int32Array(n),
    account: new Uint8Array(n),
    ids: new Array<string>(n),
  };
  const pool: number[] = [];
  for (let i = 0; i < n; i++) {
    const u = rnd.next();
    const buy = rnd.next() < 0.5;
    s.side[i] = buy ? 0 : 1;
    s.account[i] = rnd.int(0, ACCOUNTS.length - 1);
    s.ids[i] = `o${i}`;
    s.ref[i] = i;
    s.lots[i] = rnd.int(1, 100);
    if (u < 0.42 || pool.length === 0) {
      s.kind[i] = OP_ADD;
      s.price[i] = buy ? MID - 1 - rnd.int(0, 20) : MID + 1 + rnd.int(0, 20);
      pool.push(i);
    } else if (u < 0.87) {
      s.kind[i] = OP_CANCEL;
      const k = rnd.int(0, pool.length - 1);
      s.ref[i] = pool[k]!;
      pool[k] = pool[pool.length - 1]!;
      pool.pop();
    } else if (u < 0.95) {
      s.kind[i] = OP_CROSS;
      s.price[i] = buy ? MID + rnd.int(0, 8) : MID - rnd.int(0, 8);
      pool.push(i);
    } else {
      s.kind[i] = OP_MARKET;
      s.lots[i] = rnd.int(1, 60);
    }
  }
  return s;
}

/** Our OrderBook: a limit order is match() then add() of the remainder. Returns fills. */
export function runOurBook(s: Stream): number {
  const book = new OrderBook<null>();
  let fills = 0;
  for (let i = 0; i < s.n; i++) {
    const side = s.side[i] === 0 ? 'BUY' : 'SELL';
    switch (s.kind[i]) {
      case OP_ADD:
      case OP_CROSS: {
        const lots = s.lots[i]!;
        const price = s.price[i]!;
        let left = lots;
        if (book.wouldCross(side, price)) {
          const r = book.match(side, { limitTicks: price, lots });
          fills += r.fills.length;
          left -= r.lots;
        }
        if (left > 0) book.add(s.ids[i]!, side, price, left, ACCOUNTS[s.account[i]!]!, null);
        break;
      }
      case OP_CANCEL:
        book.cancel(s.ids[s.ref[i]!]!);
        break;
      default:
        fills += book.match(side, { lots: s.lots[i]! }).fills.length;
    }
  }
  return fills;
}

/** nodejs-order-book on the same stream. Returns fills (makers touched). */
export function runNob(s: Stream): number {
  const book = new NobOrderBook();
  let fills = 0;
  const count = (r: { done: { id: string }[]; partial: { id: string } | null }, taker: string | undefined): void => {
    for (const o of r.done) if (o.id !== taker) fills++;
    if (r.partial !== null && r.partial.id !== taker) fills++;
  };
  for (let i = 0; i < s.n; i++) {
    const side = s.side[i] === 0 ? NobSide.BUY : NobSide.SELL;
    switch (s.kind[i]) {
      case OP_ADD:
      case OP_CROSS: {
        const id = s.ids[i]!;
        count(book.limit({ id, side, size: s.lots[i]!, price: s.price[i]! }), id);
        break;
      }
      case OP_CANCEL:
        book.cancel(s.ids[s.ref[i]!]!);
        break;
      default:
        count(book.market({ side, size: s.lots[i]! }), undefined);
    }
  }
  return fills;
}

/** What listens to the venue: nobody, a tape (trade ticks: numbers and strings), or full Decimal events. */
export type VenueListening = 'none' | 'ticks' | 'events';

/** The full venue: same stream as placeOrderUnits / cancelOrder calls from four funded accounts. Returns fills. */
export function runVenue(s: Stream, listening: VenueListening | boolean = 'none'): number {
  const mode: VenueListening = listening === true ? 'events' : listening === false ? 'none' : listening;
  const venue = new SpotVenue({
    clock: new VirtualClock(0),
    instruments: [benchBtcUsdtSpot()],
    maxOpenOrdersPerAccount: 1_000_000,
    pruneEveryCommands: 0,
  });
  for (const a of ACCOUNTS) {
    venue.deposit(a, 'USDT', '1000000000000');
    venue.deposit(a, 'BTC', '1000000000');
  }
  // A tape subscriber gets one integer tick per fill (the emulator's situation); an event subscriber
  // makes the venue build Decimal views of every order, trade and balance change.
  let ticks = 0;
  if (mode === 'ticks') venue.subscribeTrades(() => void ticks++);
  if (mode === 'events') venue.subscribe(() => undefined);
  const orderIds: (string | undefined)[] = new Array<string | undefined>(s.n);
  for (let i = 0; i < s.n; i++) {
    const side = s.side[i] === 0 ? 'BUY' : 'SELL';
    const accountId = ACCOUNTS[s.account[i]!]!;
    switch (s.kind[i]) {
      case OP_ADD:
      case OP_CROSS: {
        const r = venue.placeOrderUnits({ accountId, symbol: 'BTCUSDT', side, type: 'LIMIT', priceTicks: s.price[i]!, lots: s.lots[i]! });
        if (r.ok) orderIds[i] = r.order.orderId;
        break;
      }
      case OP_CANCEL: {
        const ref = s.ref[i]!;
        const id = orderIds[ref];
        if (id !== undefined) venue.cancelOrder(ACCOUNTS[s.account[ref]!]!, 'BTCUSDT', { orderId: id });
        break;
      }
      default:
        venue.placeOrderUnits({ accountId, symbol: 'BTCUSDT', side, type: 'MARKET', lots: s.lots[i]! });
    }
  }
  const trades = venue.stats().trades;
  if (mode === 'ticks' && ticks !== trades) throw new Error(`tape saw ${ticks} ticks for ${trades} trades`);
  return trades;
}

/**
 * Runs every engine once per round, interleaved, for at least `minMs` (and `minRounds` rounds): each
 * engine's fastest pass is the one least disturbed on a shared machine, and interleaving exposes all
 * engines to the same load. Each round starts one engine further, so the garbage a pass leaves behind
 * (collected during whichever pass runs next) does not always land on the same engine. Also returns
 * each round's times, so ratios can be taken within a round.
 */
function interleaved(minMs: number, minRounds: number, engines: readonly (() => number)[]): { best: number[]; rounds: number[][] } {
  for (const run of engines) {
    run(); // warm-up (JIT)
    run();
  }
  const k = engines.length;
  const best = engines.map(() => Infinity);
  const rounds: number[][] = [];
  const t0 = process.hrtime.bigint();
  while (rounds.length < minRounds || Number(process.hrtime.bigint() - t0) / 1e6 < minMs) {
    const times = new Array<number>(k);
    for (let j = 0; j < k; j++) {
      const i = (rounds.length + j) % k;
      const t = process.hrtime.bigint();
      engines[i]!();
      const ms = Number(process.hrtime.bigint() - t) / 1e6;
      if (ms < best[i]!) best[i] = ms;
      times[i] = ms;
    }
    rounds.push(times);
  }
  return { best, rounds };
}

const BUDGET = 1_000_000;

/** "min–median–max" of a list. */
function spread(xs: number[], digits = 2): string {
  const s = [...xs].sort((a, b) => a - b);
  return `${s[0]!.toFixed(digits)}–${s[Math.floor(s.length / 2)]!.toFixed(digits)}–${s[s.length - 1]!.toFixed(digits)}`;
}

export const suite: BenchSuite = {
  title: 'matching engine (venue-spot)',
  async run(): Promise<BenchRow[]> {
    const n = 40_000;
    const stream = generateStream(n);
    const fillsOurs = runOurBook(stream);
    const fillsNob = runNob(stream);
    const fillsVenue = runVenue(stream);
    const same = fillsOurs === fillsNob && fillsOurs === fillsVenue;
    const { best, rounds } = interleaved(6000, 10, [
      () => runNob(stream),
      () => runOurBook(stream),
      () => runVenue(stream),
      () => runVenue(stream, 'ticks'),
      () => runVenue(stream, 'events'),
    ]);
    const [nobMs, bookMs, venueMs, tapeMs, eventsMs] = best as [number, number, number, number, number];
    const orders = (ms: number): number => (n * 1000) / ms;
    const fills = (ms: number, f: number): number => (f * 1000) / ms;
    // ratio to nodejs-order-book within each round (same moment, same load)
    const ratios = (i: number): string => spread(rounds.map((r) => r[0]! / r[i]!));
    const verdict = (ms: number): string => (orders(ms) >= BUDGET ? 'within budget' : 'OVER BUDGET');
    const workload = `${n} order messages per pass (42% passive limit adds, 45% cancels, 8% crossing limits, 5% market orders; 4 accounts), best of ${rounds.length} interleaved passes per engine, one core; fills per pass: OrderBook ${fillsOurs}, SpotVenue ${fillsVenue}, nodejs-order-book ${fillsNob}${same ? ' (identical matching work)' : ' (MISMATCH)'}`;
    const vsNob = (what: string, i: number, ms: number): string =>
      `${what}: ×nodejs-order-book per round min–median–max ${ratios(i)}; budget ≥ ${BUDGET.toLocaleString('en-US')} orders/s on one core: ${verdict(ms)}`;
    return [
      {
        name: 'OrderBook: orders/s',
        ours: orders(bookMs),
        baseline: orders(nobMs),
        baselineName: 'nodejs-order-book',
        unit: 'orders/s',
        budget: BUDGET,
        higherIsBetter: true,
        note: `${workload}. ${vsNob('OrderBook', 1, bookMs)}`,
      },
      {
        name: 'OrderBook: fills/s',
        ours: fills(bookMs, fillsOurs),
        baseline: fills(nobMs, fillsNob),
        baselineName: 'nodejs-order-book',
        unit: 'fills/s',
        higherIsBetter: true,
      },
      {
        name: 'SpotVenue (full engine): orders/s',
        ours: orders(venueMs),
        baseline: orders(nobMs),
        baselineName: 'nodejs-order-book',
        unit: 'orders/s',
        budget: BUDGET,
        higherIsBetter: true,
        note: `validation, ledger reservations and settlement, fees, order records and own trades on every order. ${vsNob('SpotVenue', 2, venueMs)}`,
      },
      {
        name: 'SpotVenue (full engine): fills/s',
        ours: fills(venueMs, fillsVenue),
        baseline: fills(nobMs, fillsNob),
        baselineName: 'nodejs-order-book',
        unit: 'fills/s',
        higherIsBetter: true,
      },
      {
        name: 'SpotVenue + tape subscriber: orders/s',
        ours: orders(tapeMs),
        baseline: orders(nobMs),
        baselineName: 'nodejs-order-book',
        unit: 'orders/s',
        budget: BUDGET,
        higherIsBetter: true,
        note: `subscribeTrades: one integer tick per fill (the emulator's tape). ${vsNob('with a tape', 3, tapeMs)}`,
      },
      {
        name: 'SpotVenue + Decimal event subscriber: orders/s',
        ours: orders(eventsMs),
        baseline: orders(nobMs),
        baselineName: 'nodejs-order-book',
        unit: 'orders/s',
        higherIsBetter: true,
        note: `subscribe: every order, trade and balance change as a Decimal event (the backtest's simulated exchange). ×nodejs-order-book per round ${ratios(4)}`,
      },
    ];
  },
};
