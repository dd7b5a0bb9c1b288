import { expect } from 'chai';
import fc from 'fast-check';
import type { Clock, TimerHandle } from '../../../src/core/clock.js';
import { D } from '../../../src/core/decimal.js';
import { spotSymbol } from '../../../src/core/ids.js';
import { SpotVenue, type SpotVenueOptions } from '../../../src/venue/spot/spot-venue.js';
import type { SpotOrderRecord } from '../../../src/venue/spot/spot-order.js';
import { ReferenceSpotVenue } from '../../reference/spot-venue-reference.js';
import { btcUsdt } from './spot-fixtures.js';

/**
 * Retention sweep: the venue finds expired orders from the front of each account's closed-order list
 * (in the order they closed); the frozen reference venue (test/reference) filters every account's whole
 * history. The same random commands — placements that rest, fill or end at once, cancels, time moving
 * forward and BACK (a wall clock can step back), explicit sweeps and the automatic one every few
 * commands, one account with its own retention — must leave the same orders answerable by id and client
 * id, the same allOrders and myTrades, after every command.
 */
const ACCOUNTS = ['a0', 'a1', 'a2', 'crowd'];
const SYMBOLS = ['BTCUSDT', 'ETHUSDT'];

/** A clock the test sets, forward or back (the venue reads only now()). */
class SteppedClock implements Clock {
  constructor(public t: number) {}
  now(): number {
    return this.t;
  }
  setTimer(): TimerHandle {
    throw new Error('not used by the venue');
  }
  setInterval(): TimerHandle {
    throw new Error('not used by the venue');
  }
  clearTimer(): void {}
  sleep(): Promise<void> {
    throw new Error('not used by the venue');
  }
}

type Cmd =
  | {
      c: 'place';
      account: number;
      symbol: number;
      side: 'BUY' | 'SELL';
      type: 'LIMIT' | 'IMMEDIATE_OR_CANCEL' | 'MARKET';
      price: number;
      lots: number;
      cid: number;
    }
  | { c: 'cancel'; account: number; symbol: number; pick: number }
  | { c: 'cancelAll'; account: number; symbol: number }
  | { c: 'time'; ms: number }
  | { c: 'prune' };

const account = fc.integer({ min: 0, max: ACCOUNTS.length - 1 });
const symbol = fc.integer({ min: 0, max: SYMBOLS.length - 1 });
const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      c: fc.constant('place' as const),
      account,
      symbol,
      side: fc.constantFrom('BUY' as const, 'SELL' as const),
      type: fc.constantFrom('LIMIT' as const, 'LIMIT' as const, 'IMMEDIATE_OR_CANCEL' as const, 'MARKET' as const),
      price: fc.integer({ min: 9990, max: 10010 }),
      lots: fc.integer({ min: 1, max: 50 }),
      cid: fc.integer({ min: 0, max: 12 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ c: fc.constant('cancel' as const), account, symbol, pick: fc.nat(20) }) },
  { weight: 1, arbitrary: fc.record({ c: fc.constant('cancelAll' as const), account, symbol }) },
  // mostly forward, sometimes back; steps around the retention windows (4 s orders, 6 s trades)
  { weight: 4, arbitrary: fc.record({ c: fc.constant('time' as const), ms: fc.integer({ min: -3_000, max: 5_000 }) }) },
  { weight: 2, arbitrary: fc.record({ c: fc.constant('prune' as const) }) },
);

type Venue = Pick<
  SpotVenue,
  'deposit' | 'placeOrderUnits' | 'openOrders' | 'cancelOrder' | 'cancelAllOrders' | 'getOrder' | 'allOrders' | 'myTrades' | 'pruneHistory'
> &
  Pick<SpotVenue, 'checkInvariants'>;

const json = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x));
const record = (o: SpotOrderRecord) => [o.orderId, o.clientOrderId, o.status, o.executedLots, o.cumQuoteUnits, o.time, o.updateTime];

/** Expired orders swept so far (checked at the end: the runs must expire orders, out of order too). */
const seen = { expired: 0, clockBack: 0 };

function run(make: (o: SpotVenueOptions) => Venue, cmds: readonly Cmd[]): { out: string[]; expired: number } {
  const clock = new SteppedClock(1_700_000_000_000);
  const venue = make({
    clock,
    instruments: [
      btcUsdt({ minQuoteAmount: D('0'), minQuoteAmountMarket: D('0') }),
      btcUsdt({ symbol: spotSymbol('ETHUSDT'), baseAsset: 'ETH', minQuoteAmount: D('0'), minQuoteAmountMarket: D('0') }),
    ],
    orderRetentionMs: 4_000,
    tradeRetentionMs: 6_000,
    pruneEveryCommands: 7,
    retentionMsOf: (id) => (id === 'crowd' ? 0 : undefined),
  });
  for (const a of ACCOUNTS) for (const asset of ['USDT', 'BTC', 'ETH']) venue.deposit(a, asset, '1000000');
  const ids: string[] = [];
  const out: string[] = [];
  const answerable = new Set<string>();
  let expired = 0;
  for (const c of cmds) {
    let r: unknown;
    if (c.c === 'place') {
      const base = {
        accountId: ACCOUNTS[c.account]!,
        symbol: SYMBOLS[c.symbol]!,
        side: c.side,
        clientOrderId: c.cid > 0 ? `c${c.cid}` : undefined,
      };
      const p =
        c.type === 'MARKET'
          ? venue.placeOrderUnits({ ...base, type: 'MARKET', lots: c.lots })
          : venue.placeOrderUnits({ ...base, type: c.type, priceTicks: c.price * 100, lots: c.lots });
      if (p.ok) ids.push(p.order.orderId);
      r = p.ok ? record(p.order) : p;
    } else if (c.c === 'cancel') {
      const open = venue.openOrders(ACCOUNTS[c.account]!, SYMBOLS[c.symbol]);
      const o = open[c.pick % Math.max(1, open.length)];
      const p = venue.cancelOrder(ACCOUNTS[c.account]!, SYMBOLS[c.symbol]!, { orderId: o?.orderId ?? 'missing' });
      r = p.ok ? record(p.order) : p;
    } else if (c.c === 'cancelAll') {
      const p = venue.cancelAllOrders(ACCOUNTS[c.account]!, SYMBOLS[c.symbol]!);
      r = p.ok ? p.orders.map(record) : p;
    } else if (c.c === 'time') {
      clock.t += c.ms;
    } else {
      venue.pruneHistory();
    }
    const state: unknown[] = [r];
    for (const a of ACCOUNTS) {
      for (const s of SYMBOLS) {
        state.push(venue.allOrders(a, s, { startTime: 0, limit: 1000 }).map(record));
        state.push(venue.myTrades(a, s).map((t) => [t.tradeId, t.orderId, t.time]));
        for (const cid of ['c1', 'c2', 'c3']) {
          const g = venue.getOrder(a, s, { clientOrderId: cid });
          state.push(g.ok ? record(g.order) : g);
        }
      }
    }
    for (const id of ids)
      for (const a of ACCOUNTS)
        for (const s of SYMBOLS) {
          const g = venue.getOrder(a, s, { orderId: id });
          if (g.ok) {
            state.push(id, a, s, record(g.order));
            answerable.add(id);
          }
        }
    // An order answerable before and by no account and symbol now was swept.
    for (const id of [...answerable])
      if (!ACCOUNTS.some((a) => SYMBOLS.some((s) => venue.getOrder(a, s, { orderId: id }).ok))) {
        answerable.delete(id);
        expired++;
      }
    out.push(json(state));
    const problems = venue.checkInvariants();
    if (problems.length) throw new Error(`after ${json(c)}: ${problems.join('; ')}`);
  }
  return { out, expired };
}

describe('SpotVenue retention sweep (property)', () => {
  it('forgets_the_same_orders_and_trades_as_the_reference_venue_with_the_clock_moving_both_ways', () => {
    fc.assert(
      fc.property(fc.array(cmd, { minLength: 20, maxLength: 150, size: 'max' }), (cmds) => {
        const ours = run((o) => new SpotVenue(o), cmds);
        const ref = run((o) => new ReferenceSpotVenue(o) as unknown as Venue, cmds);
        for (let i = 0; i < cmds.length; i++) expect(ours.out[i], `after ${json(cmds[i])}`).to.equal(ref.out[i]);
        expect(ours.expired).to.equal(ref.expired);
        // coverage: orders that were answerable and were swept; a close after the clock stepped back
        if (ours.expired > 0) seen.expired++;
        const back = cmds.findIndex((c) => c.c === 'time' && c.ms < 0);
        if (ours.expired > 0 && back >= 0 && cmds.slice(back).some((c) => c.c === 'place')) seen.clockBack++;
      }),
      { numRuns: 150, seed: 20261128 },
    );
    expect(seen.expired).to.be.greaterThan(20);
    expect(seen.clockBack).to.be.greaterThan(50);
  });
});
