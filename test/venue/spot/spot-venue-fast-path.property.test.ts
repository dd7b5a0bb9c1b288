import { expect } from 'chai';
import fc from 'fast-check';
import { VirtualClock } from '../../../src/core/clock.js';
import { D } from '../../../src/core/decimal.js';
import { spotSymbol } from '../../../src/core/ids.js';
import type { SpotStpMode } from '../../../src/domain/spot-enums.js';
import type { SpotInstrument } from '../../../src/domain/instrument.js';
import type { SpotVenueEvent } from '../../../src/venue/spot/spot-events.js';
import type { SpotOrderRecord } from '../../../src/venue/spot/spot-order.js';
import { SpotVenue, type SpotFeePayer, type SpotPlaceResult, type SpotVenueOptions } from '../../../src/venue/spot/spot-venue.js';
import { ReferenceSpotVenue } from '../../reference/spot-venue-reference.js';
import { btcUsdt } from './spot-fixtures.js';

/**
 * Differential test of the venue's number fast path: the same random command sequence runs on a venue
 * with the fast path (ledger grains, counts in orders) and on one that keeps every amount in bigint
 * units (`fastLedger: false`). Every answer, every event, every balance, fee total, order record and
 * own trade must be identical, after every command. The instruments make the fast path leave the
 * common case: a pair whose amounts pass 2^53 tick-lots with ordinary prices (tiny tick and step,
 * giant quantities), fee rates whose fee needs rounding, per-account rates set mid-run (new grains),
 * and (in half the runs) a fee payer that takes some fees in another asset. The reference venue also
 * matches every taker with OrderBook.match where the fast one sweeps.
 */
const ACCOUNTS = ['a0', 'a1', 'a2', 'a3'];
const SYMBOLS = ['BTCUSDT', 'DUSTUSDT'];

/** step 10^-18 and tick 10^-10: one tick-lot is 10^-28 USDT (below the ledger unit, so scale-checked),
 *  so use tick 10^-8 × step 10^-10 = 10^-18 = 1 unit: every amount is in single units and fees round. */
function dustUsdt(): SpotInstrument {
  return btcUsdt({
    symbol: spotSymbol('DUSTUSDT'),
    baseAsset: 'DUST',
    tick: D('0.00000001'),
    step: D('0.0000000001'),
    minQuantity: D('0'),
    minQuoteAmount: D('0'),
    minQuoteAmountMarket: D('0'),
    maxQuoteAmount: D('0'),
    maxQuoteAmountMarket: D('0'),
    makerCommission: D('0.0013'),
    takerCommission: D('0.00017'),
  });
}

type Cmd =
  | {
      c: 'place';
      account: number;
      symbol: number;
      side: 'BUY' | 'SELL';
      kind: string;
      price: number;
      lots: number;
      quote: bigint;
      stp: SpotStpMode;
      cid: number;
    }
  | { c: 'cancel'; account: number; symbol: number; pick: number; byClientId: boolean }
  | { c: 'cancelAll'; account: number; symbol: number }
  | { c: 'deposit'; account: number; asset: string; amount: string }
  | { c: 'withdraw'; account: number; asset: string; amount: string }
  | { c: 'fees'; account: number; maker: string; taker: string; bySymbol: boolean }
  | { c: 'advance'; ms: number };

const account = fc.integer({ min: 0, max: ACCOUNTS.length - 1 });
const symbol = fc.integer({ min: 0, max: SYMBOLS.length - 1 });
const asset = fc.constantFrom('BTC', 'USDT', 'DUST', 'MX');
const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({
      c: fc.constant('place' as const),
      account,
      symbol,
      side: fc.constantFrom('BUY' as const, 'SELL' as const),
      kind: fc.constantFrom('LIMIT', 'LIMIT', 'LIMIT', 'LIMIT_MAKER', 'IMMEDIATE_OR_CANCEL', 'FILL_OR_KILL', 'MARKET_QTY', 'MARKET_QUOTE'),
      price: fc.integer({ min: 9980, max: 10020 }),
      // up to 2^45 lots: with DUST's ticks that is past 2^53 tick-lots
      lots: fc.oneof(
        { weight: 3, arbitrary: fc.integer({ min: 1, max: 20_000 }) },
        { weight: 1, arbitrary: fc.integer({ min: 1, max: 2 ** 45 }) },
      ),
      quote: fc.bigInt({ min: 1n, max: 10n ** 22n }),
      stp: fc.constantFrom<SpotStpMode>('', '', 'cancel_maker', 'cancel_taker', 'cancel_both'),
      cid: fc.integer({ min: -3, max: 3 }),
    }),
  },
  { weight: 4, arbitrary: fc.record({ c: fc.constant('cancel' as const), account, symbol, pick: fc.nat(), byClientId: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ c: fc.constant('cancelAll' as const), account, symbol }) },
  {
    weight: 1,
    arbitrary: fc.record({
      c: fc.constant('deposit' as const),
      account,
      asset,
      amount: fc.constantFrom('0.000000000000000001', '1', '12345.678901234567890123', '100000000'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      c: fc.constant('withdraw' as const),
      account,
      asset,
      amount: fc.constantFrom('0.000000000000000001', '3', '5000.5'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      c: fc.constant('fees' as const),
      account,
      maker: fc.constantFrom('0', '0.001', '0.0000000000000000123', '0.0007'),
      taker: fc.constantFrom('0', '0.002', '0.00000000000000777', '0.0013'),
      bySymbol: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ c: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 60_000 }) }) },
);

/** Account a2 pays its fees in MX (a fixed 0.5 MX per fee) while it has the MX. */
const mxPayer: SpotFeePayer = {
  alternative: (accountId, _symbol, feeAsset) =>
    accountId === 'a2' && feeAsset !== 'MX' ? { asset: 'MX', units: 5n * 10n ** 17n } : undefined,
};

const json = (v: unknown): string =>
  JSON.stringify(v, (_k, x) =>
    typeof x === 'bigint'
      ? `${x}n`
      : typeof x === 'object' && x !== null && 'toFixed' in x && typeof x.toFixed === 'function'
        ? `D${x.toFixed()}`
        : x,
  );

function record(o: SpotOrderRecord) {
  return [
    o.orderId,
    o.status,
    o.origLots,
    o.executedLots,
    o.origQuoteUnits,
    o.cumQuoteUnits,
    o.lockedUnits,
    o.isWorking,
    o.cancelReason,
    o.updateTime,
  ];
}

/** What a run uses of a venue: the venue and its frozen reference model (test/reference) both have it. */
type SpotLike = Pick<
  SpotVenue,
  'ledger' | 'stpGroups' | 'subscribe' | 'deposit' | 'withdraw' | 'placeOrderUnits' | 'openOrders' | 'cancelOrder' | 'cancelAllOrders'
> &
  Pick<SpotVenue, 'setAccountFees' | 'myTrades' | 'checkInvariants' | 'lastPrice'>;
const current = (o: SpotVenueOptions): SpotLike => new SpotVenue(o);

function state(v: SpotLike): string {
  const out: unknown[] = [];
  for (const a of ACCOUNTS) {
    for (const asset of ['BTC', 'USDT', 'DUST', 'MX'])
      out.push(a, asset, v.ledger.free(a, asset), v.ledger.locked(a, asset), v.ledger.feesPaid(a, asset));
    for (const s of SYMBOLS) {
      out.push(v.openOrders(a, s).map(record));
      out.push(
        v
          .myTrades(a, s, { limit: 100 })
          .map((t) => [
            t.tradeId,
            t.orderId,
            t.priceTicks,
            t.lots,
            t.quoteUnits,
            t.commissionUnits,
            t.commissionAsset,
            t.isBuyer,
            t.isMaker,
            t.isSelfTrade,
            t.time,
          ]),
      );
    }
  }
  for (const asset of ['BTC', 'USDT', 'DUST', 'MX']) out.push(v.ledger.feesCollected(asset));
  for (const s of SYMBOLS) out.push(v.lastPrice(s));
  return json(out);
}

/** What the runs covered (checked at the end, so the test cannot pass by never leaving the common case). */
const seen = { fills: 0, dustFills: 0, hugeRested: 0, mxFees: 0, overrideFills: 0 };

function run(
  fast: boolean,
  payer: boolean,
  cmds: readonly Cmd[],
  make: (o: SpotVenueOptions) => SpotLike = current,
): { answers: string[]; events: string[]; states: string[] } {
  const clock = new VirtualClock(1_700_000_000_000);
  const venue = make({
    clock,
    instruments: [btcUsdt({ percentPriceBySide: { bidMultiplierUp: D('0.0015'), askMultiplierDown: D('0.0015') } }), dustUsdt()],
    fastLedger: fast,
    ...(payer ? { feePayer: mxPayer } : {}),
  });
  venue.stpGroups.join('a0', 'G');
  venue.stpGroups.join('a1', 'G');
  const events: string[] = [];
  let overrides = false;
  venue.subscribe((e: SpotVenueEvent) => {
    events.push(json(e));
    if (!fast || e.type !== 'trade') return;
    seen.fills++;
    if (e.symbol === 'DUSTUSDT') seen.dustFills++;
    if (e.takerCommissionAsset === 'MX' || e.makerCommissionAsset === 'MX') seen.mxFees++;
    if (overrides) seen.overrideFills++;
  });
  for (const a of ACCOUNTS) {
    venue.deposit(a, 'USDT', '100000000000');
    venue.deposit(a, 'BTC', '1000');
    venue.deposit(a, 'DUST', '100000000');
    venue.deposit(a, 'MX', '2');
  }
  const answers: string[] = [];
  const states: string[] = [];
  for (const c of cmds) {
    const acct = c.c === 'advance' ? '' : ACCOUNTS[c.account]!;
    let r: unknown;
    if (c.c === 'place') {
      const base = {
        accountId: acct,
        symbol: SYMBOLS[c.symbol]!,
        side: c.side,
        stpMode: c.stp,
        clientOrderId: c.cid > 0 ? `cid-${c.cid}` : undefined,
      };
      let p: SpotPlaceResult;
      if (c.kind === 'MARKET_QTY') p = venue.placeOrderUnits({ ...base, type: 'MARKET', lots: c.lots });
      else if (c.kind === 'MARKET_QUOTE')
        p = venue.placeOrderUnits({ ...base, type: 'MARKET', quoteUnits: c.quote * (c.symbol === 0 ? 10n ** 16n : 1n) });
      else p = venue.placeOrderUnits({ ...base, type: c.kind as 'LIMIT', priceTicks: c.price, lots: c.lots });
      r = p.ok ? record(p.order) : p;
      if (fast && p.ok && p.order.isWorking && p.order.priceTicks * p.order.origLots > Number.MAX_SAFE_INTEGER) seen.hugeRested++;
    } else if (c.c === 'cancel') {
      const open = venue.openOrders(acct, SYMBOLS[c.symbol]);
      const o = open.length ? open[c.pick % open.length]! : undefined;
      const p = venue.cancelOrder(
        acct,
        SYMBOLS[c.symbol]!,
        o ? (c.byClientId && o.clientOrderId ? { clientOrderId: o.clientOrderId } : { orderId: o.orderId }) : { orderId: 'missing' },
      );
      r = p.ok ? record(p.order) : p;
    } else if (c.c === 'cancelAll') {
      const p = venue.cancelAllOrders(acct, SYMBOLS[c.symbol]!);
      r = p.ok ? p.orders.map(record) : p;
    } else if (c.c === 'deposit') {
      r = venue.deposit(acct, c.asset, c.amount);
    } else if (c.c === 'withdraw') {
      r = venue.withdraw(acct, c.asset, c.amount);
    } else if (c.c === 'fees') {
      venue.setAccountFees(acct, { maker: c.maker, taker: c.taker }, c.bySymbol ? 'DUSTUSDT' : undefined);
      overrides = true;
    } else {
      clock.advanceBy(c.ms);
    }
    answers.push(json(r));
    states.push(state(venue));
    const problems = venue.checkInvariants();
    if (problems.length) throw new Error(`${fast ? 'fast' : 'bigint'} path after ${json(c)}: ${problems.join('; ')}`);
  }
  return { answers, events, states };
}

describe('SpotVenue fast path (property)', () => {
  it('answers_moves_and_reports_exactly_what_the_bigint_path_does', () => {
    fc.assert(
      fc.property(fc.array(cmd, { minLength: 10, maxLength: 120, size: 'max' }), fc.boolean(), (cmds, payer) => {
        const fast = run(true, payer, cmds);
        const slow = run(false, payer, cmds);
        for (let i = 0; i < cmds.length; i++) {
          expect(fast.answers[i], `answer to ${json(cmds[i])}`).to.equal(slow.answers[i]);
          expect(fast.states[i], `state after ${json(cmds[i])}`).to.equal(slow.states[i]);
        }
        expect(fast.events).to.deep.equal(slow.events);
      }),
      { numRuns: 160, seed: 20260602 },
    );
    // the runs reached every path the fast one must leave to: rounded fees, counts past 2^53, other-asset fees
    expect(seen.fills).to.be.greaterThan(300);
    expect(seen.dustFills).to.be.greaterThan(50);
    expect(seen.hugeRested).to.be.greaterThan(10);
    expect(seen.mxFees).to.be.greaterThan(10);
    expect(seen.overrideFills).to.be.greaterThan(50);
  });

  it('answers_moves_and_reports_exactly_what_the_frozen_reference_venue_does', () => {
    // The reference model is the venue before its place() / settle() split (issue 12), on both number paths.
    const reference = (o: SpotVenueOptions): SpotLike => new ReferenceSpotVenue(o) as unknown as SpotLike;
    fc.assert(
      fc.property(fc.array(cmd, { minLength: 10, maxLength: 120, size: 'max' }), fc.boolean(), fc.boolean(), (cmds, payer, fast) => {
        const ours = run(fast, payer, cmds);
        const ref = run(fast, payer, cmds, reference);
        for (let i = 0; i < cmds.length; i++) {
          expect(ours.answers[i], `answer to ${json(cmds[i])}`).to.equal(ref.answers[i]);
          expect(ours.states[i], `state after ${json(cmds[i])}`).to.equal(ref.states[i]);
        }
        expect(ours.events).to.deep.equal(ref.events);
      }),
      { numRuns: 120, seed: 20261127 },
    );
  });
});
