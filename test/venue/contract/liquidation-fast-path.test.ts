/**
 * The liquidation check of a fair-price move skips the walk over the holders when no isolated
 * position is near its edge and every cross holder passes the cross screen (liquidation-engine.ts,
 * `crossHoldersSurelySafe`), and its price is a double made from the Decimal's digit words
 * (core/decimal.ts). Whatever it skips, the venue must liquidate exactly the positions the exact
 * Decimal condition, written out here from the margin rules (not from margin-math), says are breached:
 *
 *   isolated: im + s·(Q·F − Q·E) ≤ mmr·Q·F
 *   cross (one position, no order): cash + s·(Q·F − Q·E) ≤ mmr·Q·F, cash = free + frozen + im
 *
 * with s = +1 long / −1 short, Q = lots · 0.0001 BTC, E the entry, F the fair price and mmr the tier's
 * rate (≤ 10,000 lots 0.004, ≤ 20,000 0.01, else 0.02). Over random accounts (isolated and cross, both
 * sides, leverages up to the tier's maximum, spare cash on cross wallets; each with a cross counterparty
 * that must never be liquidated), fair-price paths that
 * wander and land on the liquidation edges to the tick, deposits that move a cross wallet and new
 * positions opened on the way, the set of accounts liquidated at every step must be the predicted one.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { Decimal } from '../../../src/core/decimal.js';
import { OpenType } from '../../../src/domain/contract-enums.js';
import type { PositionLiquidated } from '../../../src/venue/contract/contract-events.js';
import { makeKit, placed, S, SYMBOL, type Kit } from './contract-test-kit.js';

const d = (v: string | number): Decimal => new Decimal(v);
const CONTRACT = d('0.0001');
const TICK = d('0.1');

interface Live {
  readonly id: string;
  readonly long: boolean;
  readonly cross: boolean;
  readonly q: Decimal;
  readonly entry: Decimal;
  readonly mmr: Decimal;
}

const mmrOf = (lots: number): Decimal => d(lots <= 10_000 ? '0.004' : lots <= 20_000 ? '0.01' : '0.02');
const maxLeverage = (lots: number): number => (lots <= 10_000 ? 125 : lots <= 20_000 ? 50 : 20);

const accountArb = fc.record({
  long: fc.boolean(),
  cross: fc.boolean(),
  lots: fc.integer({ min: 1, max: 30_000 }),
  leverageFraction: fc.double({ min: 0, max: 1, noNaN: true }),
  spareCents: fc.integer({ min: 0, max: 2_000_000 }),
});

const stepArb = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('move' as const), bp: fc.integer({ min: -300, max: 300 }) }) },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('edge' as const), pick: fc.nat(), offset: fc.integer({ min: -2, max: 2 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('deposit' as const), pick: fc.nat(), cents: fc.integer({ min: 1, max: 500_000 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('open' as const), account: accountArb }) },
);

/** The exact margin balance minus maintenance at fair price `f` (≤ 0: breached). */
function slack(kit: Kit, p: Live, f: Decimal): Decimal {
  const pnl = p.q
    .mul(f)
    .sub(p.q.mul(p.entry))
    .mul(p.long ? 1 : -1);
  const view = kit.venue.openPositions(p.id)[0]!;
  const base = p.cross ? kit.venue.asset(p.id, 'USDT')!.cashBalance : view.im;
  return base.add(pnl).sub(p.mmr.mul(p.q).mul(f));
}

/** The price at which the slack is zero (linear in F), rounded to the tick. */
function edgeTicks(kit: Kit, p: Live): number {
  const view = kit.venue.openPositions(p.id)[0]!;
  const base = p.cross ? kit.venue.asset(p.id, 'USDT')!.cashBalance : view.im;
  const s = p.long ? 1 : -1;
  // base + s·Q·(F − E) = mmr·Q·F  ⇒  F = (s·Q·E − base) / (Q·(s − mmr))
  const f = p.q
    .mul(p.entry)
    .mul(s)
    .sub(base)
    .div(p.q.mul(d(s).sub(p.mmr)));
  return f.div(TICK).round().toNumber();
}

describe('liquidation fast path against the exact condition', () => {
  it('liquidates_exactly_the_positions_the_exact_decimal_condition_breaches_at_every_step', () => {
    fc.assert(
      fc.property(
        fc.array(accountArb, { minLength: 1, maxLength: 6 }),
        fc.array(stepArb, { minLength: 1, maxLength: 40 }),
        (accounts, steps) => {
          const kit = makeKit();
          const { venue } = kit;
          let fairTicks = 500_000;
          venue.setFairPrice(SYMBOL, TICK.mul(fairTicks));
          const live: Live[] = [];
          let n = 0;
          const open = (a: (typeof accounts)[number]): void => {
            const id = `acct${n++}`;
            const entry = TICK.mul(fairTicks);
            const notional = entry.mul(a.lots).mul(CONTRACT);
            const leverage = 1 + Math.floor(a.leverageFraction * (maxLeverage(a.lots) - 1));
            // Margin, the taker fee and a cent of slack; cross wallets keep some spare cash too.
            venue.deposit(
              id,
              'USDT',
              notional.div(leverage).add(notional.mul('0.001')).add(d(a.spareCents).div(100)).add('0.01').toFixed(8),
            );
            const openType = a.cross ? OpenType.CROSS : OpenType.ISOLATED;
            // Each account has its own counterparty: a cross account far from any breach (one more cross holder to screen).
            const mm = `mm${id}`;
            venue.deposit(mm, 'USDT', '1000000000');
            placed(venue, mm, {
              side: a.long ? S.OPEN_SHORT : S.OPEN_LONG,
              vol: a.lots,
              price: entry.toString(),
              openType: OpenType.CROSS,
            });
            placed(venue, id, { side: a.long ? S.OPEN_LONG : S.OPEN_SHORT, vol: a.lots, price: entry.toString(), leverage, openType });
            expect(venue.openPositions(id).length, `${id} opened`).to.equal(1);
            live.push({ id, long: a.long, cross: a.cross, q: CONTRACT.mul(a.lots), entry, mmr: mmrOf(a.lots) });
          };
          for (const a of accounts) open(a);
          for (const step of steps) {
            if (step.kind === 'open') {
              open(step.account);
              continue;
            }
            if (step.kind === 'deposit') {
              const cross = live.filter((p) => p.cross);
              if (cross.length > 0) venue.deposit(cross[step.pick % cross.length]!.id, 'USDT', d(step.cents).div(100).toFixed(2));
              continue;
            }
            if (step.kind === 'move') fairTicks = Math.max(1, Math.round((fairTicks * (10_000 + step.bp)) / 10_000));
            else if (live.length > 0) fairTicks = Math.max(1, edgeTicks(kit, live[step.pick % live.length]!) + step.offset);
            const fair = TICK.mul(fairTicks);
            const predicted = live.filter((p) => slack(kit, p, fair).lte(0)).map((p) => p.id);
            const before = kit.events.length;
            venue.setFairPrice(SYMBOL, fair);
            const liquidated = kit.events
              .slice(before)
              .filter((e): e is PositionLiquidated => e.type === 'PositionLiquidated')
              .map((e) => String(e.liquidation.accountId));
            expect(liquidated, `liquidated at ${fair.toString()}`).to.deep.equal(predicted);
            for (const id of liquidated)
              live.splice(
                live.findIndex((p) => p.id === id),
                1,
              );
          }
          expect(kit.problems).to.deep.equal([]);
        },
      ),
      { numRuns: 150 },
    );
  });
});
