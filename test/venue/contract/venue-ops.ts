/**
 * Random command streams over a contract venue (four accounts, two hedged and two one-way): every order
 * type, amends, cancels, leverage, margin and position-mode changes, funding and fair-price moves. Shared
 * by the venue's property tests and the differential test against the reference model.
 */
import fc from 'fast-check';
import { Decimal } from '../../../src/core/decimal.js';
import {
  ContractOrderType,
  ContractSide,
  OpenType,
  PositionMode,
  PositionType,
  type ContractStpMode,
} from '../../../src/domain/contract-enums.js';
import { SYMBOL } from './contract-test-kit.js';
import type { ContractVenue } from '../../../src/venue/contract/contract-venue.js';

/** The venue's public commands and queries (the reference model of the differential test has the same). */
/**
 * Every public method but heldPositions (not in the reference: the differential test checks it against
 * openPositions) and accountChanges (a change count for readers that keep answers, not an answer itself;
 * contract-sim-venue.test.ts holds it to the venue's views).
 */
export type Venue = Pick<ContractVenue, Exclude<keyof ContractVenue, 'heldPositions' | 'accountChanges'>>;

export const ACCOUNTS = ['h1', 'h2', 'o1', 'o2'] as const; // h = hedged, o = one-way
/** Mostly 10x so orders of one side agree; the others exercise the leverage rules. */
const LEVERAGES = [10, 10, 10, 10, 1, 5, 20, 50, 100] as const;

export type Op =
  | {
      k: 'place';
      a: number;
      side: number;
      type: number;
      off: number;
      vol: number;
      lev: number;
      cross: boolean;
      reduce: boolean;
      stp: number;
    }
  | { k: 'cancel'; a: number; i: number }
  | { k: 'cancelAll'; a: number }
  | { k: 'amend'; a: number; i: number; off: number; vol: number }
  | { k: 'chase'; a: number; i: number }
  | { k: 'fair'; pct: number }
  | { k: 'fund'; rate: number; hours: number }
  | { k: 'margin'; a: number; i: number; add: boolean; amount: number }
  | { k: 'leverage'; a: number; i: number; lev: number }
  | { k: 'autoAdd'; a: number; i: number }
  | { k: 'closeAll'; a: number }
  | { k: 'reverse'; a: number; i: number }
  | { k: 'cash'; a: number; amount: number; out: boolean }
  | { k: 'mode'; a: number };

const acc = fc.integer({ min: 0, max: ACCOUNTS.length - 1 });
export const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({
      k: fc.constant('place' as const),
      a: acc,
      side: fc.constantFrom(1, 1, 3, 3, 2, 4),
      type: fc.integer({ min: 1, max: 6 }),
      off: fc.integer({ min: -30, max: 30 }),
      vol: fc.integer({ min: 1, max: 3000 }),
      lev: fc.integer({ min: 0, max: LEVERAGES.length - 1 }),
      cross: fc.boolean(),
      reduce: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
      stp: fc.integer({ min: 0, max: 3 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('cancel' as const), a: acc, i: fc.nat(20) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('cancelAll' as const), a: acc }) },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant('amend' as const),
      a: acc,
      i: fc.nat(20),
      off: fc.integer({ min: -30, max: 30 }),
      vol: fc.integer({ min: 1, max: 3000 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('chase' as const), a: acc, i: fc.nat(20) }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('fair' as const), pct: fc.integer({ min: -150, max: 150 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('fund' as const),
      rate: fc.integer({ min: -18, max: 18 }),
      hours: fc.integer({ min: 0, max: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('margin' as const),
      a: acc,
      i: fc.nat(3),
      add: fc.boolean(),
      amount: fc.integer({ min: 1, max: 2000 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('leverage' as const),
      a: acc,
      i: fc.nat(3),
      lev: fc.integer({ min: 0, max: LEVERAGES.length - 1 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('autoAdd' as const), a: acc, i: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('closeAll' as const), a: acc }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('reverse' as const), a: acc, i: fc.nat(3) }) },
  {
    weight: 1,
    arbitrary: fc.record({ k: fc.constant('cash' as const), a: acc, amount: fc.integer({ min: 1, max: 5000 }), out: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('mode' as const), a: acc }) },
);

function pick<T>(list: readonly T[], i: number): T | undefined {
  return list.length === 0 ? undefined : list[i % list.length];
}

export function apply(venue: Venue, op: Op, state: { fair: Decimal; hour: number }, clock: { advanceTo(t: number): void }): void {
  const name = 'a' in op ? ACCOUNTS[op.a]! : '';
  switch (op.k) {
    case 'place': {
      const price = state.fair.add(new Decimal(op.off).mul(5)).toDecimalPlaces(1);
      venue.placeOrder(name, {
        symbol: SYMBOL,
        side: op.side as ContractSide,
        type: op.type as ContractOrderType,
        price: op.type >= 5 ? undefined : price,
        vol: op.vol,
        leverage: LEVERAGES[op.lev],
        openType: op.cross ? OpenType.CROSS : OpenType.ISOLATED,
        reduceOnly: name.startsWith('o') ? op.reduce : undefined,
        stpMode: op.stp as ContractStpMode,
      });
      return;
    }
    case 'cancel': {
      const o = pick(venue.openOrders(name, { pageSize: 100 }).resultList, op.i);
      venue.cancelOrders(name, [o?.orderId ?? '0']);
      return;
    }
    case 'cancelAll':
      venue.cancelAll(name, op.a % 2 === 0 ? SYMBOL : '');
      return;
    case 'amend': {
      const o = pick(venue.openOrders(name, { pageSize: 100 }).resultList, op.i);
      if (o)
        venue.changeLimitOrder(name, {
          orderId: o.orderId,
          price: state.fair.add(op.off * 5).toDecimalPlaces(1),
          vol: o.dealVol.add(op.vol),
        });
      return;
    }
    case 'chase': {
      const o = pick(venue.openOrders(name, { pageSize: 100 }).resultList, op.i);
      if (o) venue.chaseLimitOrder(name, o.orderId);
      return;
    }
    case 'fair':
      // ±15 % around 50000 in 0.1 % steps, on the tick
      state.fair = new Decimal(50000).mul(new Decimal(1000 + op.pct).div(1000)).toDecimalPlaces(1);
      venue.setFairPrice(SYMBOL, state.fair);
      return;
    case 'fund':
      venue.setFundingRate(SYMBOL, new Decimal(op.rate).div(10000));
      state.hour += op.hours;
      clock.advanceTo(Math.max(1_000, state.hour * 3_600_000 + 1));
      return;
    case 'margin': {
      const p = pick(venue.openPositions(name), op.i);
      if (p) venue.changeMargin(name, { positionId: p.positionId, amount: op.amount, type: op.add ? 'ADD' : 'SUB' });
      return;
    }
    case 'leverage': {
      const p = pick(venue.openPositions(name), op.i);
      if (p) venue.changeLeverage(name, { positionId: p.positionId, leverage: LEVERAGES[op.lev]! });
      else
        venue.changeLeverage(name, {
          symbol: SYMBOL,
          openType: OpenType.ISOLATED,
          positionType: op.i % 2 === 0 ? PositionType.LONG : PositionType.SHORT,
          leverage: LEVERAGES[op.lev]!,
        });
      return;
    }
    case 'autoAdd': {
      const p = pick(venue.openPositions(name), op.i);
      if (p) venue.changeAutoAddIm(name, p.positionId, !p.autoAddIm);
      return;
    }
    case 'closeAll':
      venue.closeAll(name);
      return;
    case 'reverse': {
      const p = pick(venue.openPositions(name), op.i);
      if (p)
        venue.reversePosition(name, {
          symbol: SYMBOL,
          positionId: p.positionId,
          vol: p.holdVol.sub(p.frozenVol).gt(0) ? p.holdVol.sub(p.frozenVol) : 1,
        });
      return;
    }
    case 'cash':
      if (op.out) venue.withdraw(name, 'USDT', op.amount);
      else venue.deposit(name, 'USDT', op.amount);
      return;
    case 'mode': {
      const cur = venue.positionMode(name);
      venue.changePositionMode(name, cur === PositionMode.HEDGED ? PositionMode.ONE_WAY : PositionMode.HEDGED);
      return;
    }
  }
}
