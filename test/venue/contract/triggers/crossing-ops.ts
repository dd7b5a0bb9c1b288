/**
 * Price moves aimed at the keys of the venue's price indexes (issue 12: triggers by trigger price,
 * isolated positions by liquidation price): a price set EXACTLY to a live trigger's price (stop-loss,
 * take-profit, plan trigger, trailing activation, benchmark or trigger) or to an open position's
 * liquidation price, or one tick either side of it, on the kind of price the op names; and walks of
 * small fair-price steps through many keys in a row. With the trigger streams of trigger-ops.ts, they
 * drive the differential test against the reference model, whose trigger book evaluates every live
 * trigger and whose liquidation check screens every holder — so an index that misses a crossing, or
 * fires at a boundary it should not, shows as a different event or view.
 */
import fc from 'fast-check';
import { Decimal } from '../../../../src/core/decimal.js';
import { ContractOrderType, ContractSide, OpenType } from '../../../../src/domain/contract-enums.js';
import type { Venue } from '../venue-ops.js';
import { SYMBOL } from '../contract-test-kit.js';
import * as triggerOps from './trigger-ops.js';

const TICK = new Decimal('0.1');

export type Op =
  | triggerOps.Op
  /** which: 0 stop legs, 1 plan triggers, 2 trailing prices, 3 liquidation prices; kind: 0 fair, 1 index, 2 last. */
  | { k: 'hit'; a: number; which: number; i: number; kind: number; nudge: number }
  | { k: 'walk'; from: number; steps: number; up: boolean };

export const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: triggerOps.opArb },
  {
    weight: 4,
    arbitrary: fc.record({
      k: fc.constant('hit' as const),
      a: fc.integer({ min: 0, max: 2 }),
      which: fc.integer({ min: 0, max: 3 }),
      i: fc.nat(7),
      kind: fc.constantFrom(0, 0, 1, 2),
      nudge: fc.constantFrom(-1, 0, 0, 0, 1),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('walk' as const),
      from: fc.integer({ min: -40, max: 40 }),
      steps: fc.integer({ min: 2, max: 25 }),
      up: fc.boolean(),
    }),
  },
);

/** The prices of `which` the account's live triggers or positions sit at. */
function keysOf(venue: Venue, account: string, which: number): Decimal[] {
  const out: (Decimal | undefined)[] = [];
  if (which === 0) for (const s of venue.openStopOrders(account)) out.push(s.stopLossPrice, s.takeProfitPrice);
  else if (which === 1) for (const p of venue.planOrders(account, { states: [1], pageSize: 1000 }).resultList) out.push(p.triggerPrice);
  else if (which === 2)
    for (const t of venue.trackOrders(account, { states: [0, 1], pageSize: 1000 }).resultList)
      out.push(t.activePrice, t.markPrice, t.triggerPrice);
  else for (const p of venue.openPositions(account)) out.push(p.liquidatePrice);
  return out.filter((p): p is Decimal => p !== undefined && p.gt(0));
}

/** Sets the fair (0), index (1) or last (2, a one-lot trade between mm and h2) price of the contract. */
function setPrice(venue: Venue, kind: number, p: Decimal, s: { mark: Decimal }): void {
  if (kind === 0) {
    s.mark = p;
    venue.setFairPrice(SYMBOL, p);
  } else if (kind === 1) {
    venue.setIndexPrice(SYMBOL, p);
  } else {
    const order = { symbol: SYMBOL, vol: 1, leverage: 10, price: p };
    venue.placeOrder('mm', { ...order, side: ContractSide.OPEN_SHORT, type: ContractOrderType.LIMIT, openType: OpenType.CROSS });
    venue.placeOrder('h2', { ...order, side: ContractSide.OPEN_LONG, type: ContractOrderType.IOC, openType: OpenType.ISOLATED });
  }
}

export function apply(venue: Venue, op: Op, s: { mark: Decimal }, advance: (ms: number) => void): void {
  if (op.k === 'hit') {
    const keys = keysOf(venue, triggerOps.ACCOUNTS[op.a]!, op.which);
    if (keys.length === 0) return;
    // Liquidation prices are not on the tick: the fair price may be any positive decimal, the others trade on it.
    let p = keys[op.i % keys.length]!.add(TICK.mul(op.nudge));
    if (op.kind === 2 || op.which !== 3) p = p.toDecimalPlaces(1, Decimal.ROUND_HALF_UP);
    if (p.gt(0)) setPrice(venue, op.which === 3 ? 0 : op.kind, p, s);
    return;
  }
  if (op.k === 'walk') {
    // 0.1 ‰ steps: slow enough to cross stops, plans and trailing benchmarks one or two at a time.
    const start = new Decimal(50000).mul(new Decimal(1000 + op.from).div(1000));
    for (let i = 1; i <= op.steps; i++) {
      const p = start.mul(new Decimal(10000 + (op.up ? i : -i)).div(10000)).toDecimalPlaces(1);
      setPrice(venue, 0, p, s);
    }
    return;
  }
  triggerOps.apply(venue, op, s, advance);
}
