/**
 * Random command streams over the trigger orders of a contract venue: orders with TP/SL, stop, plan and
 * trailing orders, liquidity from a market maker, fair / index / last price moves, time. Shared by the
 * trigger property tests and the differential test against the reference model.
 */
import fc from 'fast-check';
import { Decimal } from '../../../../src/core/decimal.js';
import { ContractOrderType, ContractSide, OpenType } from '../../../../src/domain/contract-enums.js';
import type { Venue } from '../venue-ops.js';
import { SYMBOL } from '../contract-test-kit.js';

export const ACCOUNTS = ['h1', 'h2', 'o1', 'mm'] as const; // h = hedged, o = one-way, mm = liquidity (hedged)
const TRENDS = [1, 2, 3] as const;

export type Op =
  | { k: 'order'; a: number; side: number; market: boolean; off: number; vol: number; sl: number; tp: number; trend: number }
  | { k: 'liquidity'; off: number; vol: number; buy: boolean }
  | { k: 'price'; kind: number; pct: number }
  | {
      k: 'stop';
      a: number;
      i: number;
      vol: number;
      volType: number;
      sl: number;
      tp: number;
      trend: number;
      limit: boolean;
      rev: boolean;
      separate: boolean;
    }
  | { k: 'plan'; a: number; side: number; off: number; vol: number; gte: boolean; trend: number; market: boolean; sl: number }
  | { k: 'track'; a: number; side: number; vol: number; back: number; amount: boolean; act: number; trend: number }
  | { k: 'changeStop'; a: number; i: number; sl: number; tp: number }
  | { k: 'cancelTrigger'; a: number; i: number; which: number }
  | { k: 'cancel'; a: number; i: number }
  | { k: 'closeAll'; a: number }
  | { k: 'time'; hours: number };

const acc = fc.integer({ min: 0, max: 2 });
const off = fc.integer({ min: -40, max: 40 });
export const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      k: fc.constant('order' as const),
      a: acc,
      side: fc.constantFrom(1, 1, 3, 3, 2, 4),
      market: fc.boolean(),
      off,
      vol: fc.integer({ min: 1, max: 40 }),
      sl: fc.integer({ min: 0, max: 40 }),
      tp: fc.integer({ min: 0, max: 40 }),
      trend: fc.integer({ min: 0, max: 2 }),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({ k: fc.constant('liquidity' as const), off, vol: fc.integer({ min: 1, max: 60 }), buy: fc.boolean() }),
  },
  {
    weight: 8,
    arbitrary: fc.record({
      k: fc.constant('price' as const),
      kind: fc.integer({ min: 0, max: 2 }),
      pct: fc.integer({ min: -60, max: 60 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      k: fc.constant('stop' as const),
      a: acc,
      i: fc.nat(3),
      vol: fc.integer({ min: 1, max: 40 }),
      volType: fc.integer({ min: 1, max: 2 }),
      sl: fc.integer({ min: 0, max: 40 }),
      tp: fc.integer({ min: 0, max: 40 }),
      trend: fc.integer({ min: 0, max: 2 }),
      limit: fc.boolean(),
      rev: fc.boolean(),
      separate: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      k: fc.constant('plan' as const),
      a: acc,
      side: fc.constantFrom(1, 3, 2, 4),
      off,
      vol: fc.integer({ min: 1, max: 30 }),
      gte: fc.boolean(),
      trend: fc.integer({ min: 0, max: 2 }),
      market: fc.boolean(),
      sl: fc.integer({ min: 0, max: 30 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      k: fc.constant('track' as const),
      a: acc,
      side: fc.constantFrom(1, 3, 2, 4),
      vol: fc.integer({ min: 1, max: 30 }),
      back: fc.integer({ min: 1, max: 30 }),
      amount: fc.boolean(),
      act: fc.integer({ min: -20, max: 20 }),
      trend: fc.integer({ min: 0, max: 2 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant('changeStop' as const),
      a: acc,
      i: fc.nat(5),
      sl: fc.integer({ min: 0, max: 40 }),
      tp: fc.integer({ min: 0, max: 40 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ k: fc.constant('cancelTrigger' as const), a: acc, i: fc.nat(5), which: fc.integer({ min: 0, max: 2 }) }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('cancel' as const), a: acc, i: fc.nat(10) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('closeAll' as const), a: acc }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('time' as const), hours: fc.integer({ min: 1, max: 30 }) }) },
);

const pick = <T>(list: readonly T[], i: number): T | undefined => (list.length === 0 ? undefined : list[i % list.length]);
/** 50000 moved by `steps` × 0.1 %, on the tick. */
const around = (base: Decimal, steps: number): Decimal => base.mul(new Decimal(1000 + steps).div(1000)).toDecimalPlaces(1);

export function apply(venue: Venue, op: Op, s: { mark: Decimal }, advance: (ms: number) => void): void {
  const name = 'a' in op ? ACCOUNTS[op.a]! : 'mm';
  switch (op.k) {
    case 'order': {
      const price = around(s.mark, op.off);
      const long = op.side === 1 || op.side === 2;
      // TP/SL offsets on the profitable / losing side of the price (0 = none).
      venue.placeOrder(name, {
        symbol: SYMBOL,
        side: op.side as ContractSide,
        type: op.market ? ContractOrderType.MARKET : ContractOrderType.LIMIT,
        price: op.market ? undefined : price,
        vol: op.vol,
        leverage: 10,
        openType: OpenType.ISOLATED,
        stopLossPrice: op.sl === 0 ? undefined : around(price, long ? -op.sl : op.sl),
        takeProfitPrice: op.tp === 0 ? undefined : around(price, long ? op.tp : -op.tp),
        lossTrend: TRENDS[op.trend],
        profitTrend: TRENDS[(op.trend + 1) % 3],
      });
      return;
    }
    case 'liquidity':
      venue.placeOrder('mm', {
        symbol: SYMBOL,
        side: op.buy ? ContractSide.OPEN_LONG : ContractSide.OPEN_SHORT,
        type: ContractOrderType.LIMIT,
        price: around(s.mark, op.buy ? -Math.abs(op.off) : Math.abs(op.off)),
        vol: op.vol,
        leverage: 10,
        openType: OpenType.CROSS,
      });
      return;
    case 'price': {
      const p = around(new Decimal(50000), op.pct);
      if (op.kind === 0) {
        s.mark = p;
        venue.setFairPrice(SYMBOL, p);
      } else if (op.kind === 1) {
        venue.setIndexPrice(SYMBOL, p);
      } else {
        // A trade at p between mm and itself is refused by STP; trade against h2 instead.
        venue.placeOrder('mm', {
          symbol: SYMBOL,
          side: ContractSide.OPEN_SHORT,
          type: ContractOrderType.LIMIT,
          price: p,
          vol: 1,
          leverage: 10,
          openType: OpenType.CROSS,
        });
        venue.placeOrder('h2', {
          symbol: SYMBOL,
          side: ContractSide.OPEN_LONG,
          type: ContractOrderType.IOC,
          price: p,
          vol: 1,
          leverage: 10,
          openType: OpenType.ISOLATED,
        });
      }
      return;
    }
    case 'stop': {
      const p = pick(venue.openPositions(name), op.i);
      if (!p) return;
      const long = p.positionType === 1;
      venue.placeStopOrder(name, {
        positionId: p.positionId,
        vol: op.vol,
        volType: op.volType,
        stopLossPrice: op.sl === 0 ? undefined : around(s.mark, long ? -op.sl : op.sl),
        takeProfitPrice: op.tp === 0 ? undefined : around(s.mark, long ? op.tp : -op.tp),
        lossTrend: TRENDS[op.trend],
        profitTrend: TRENDS[op.trend],
        stopLossType: op.limit ? 1 : 0,
        stopLossOrderPrice: around(s.mark, long ? -op.sl - 2 : op.sl + 2),
        takeProfitReverse: op.rev ? 1 : 2,
        stopLossReverse: op.rev ? 1 : 2,
        profitLossVolType: op.separate ? 'SEPARATE' : 'SAME',
        takeProfitVol: Math.max(1, op.vol - 1),
        stopLossVol: op.vol,
      });
      return;
    }
    case 'plan': {
      const long = op.side === 1 || op.side === 2;
      venue.placePlanOrder(name, {
        symbol: SYMBOL,
        side: op.side as ContractSide,
        vol: op.vol,
        leverage: 10,
        openType: OpenType.ISOLATED,
        price: op.market ? undefined : around(s.mark, op.off),
        orderType: op.market ? ContractOrderType.MARKET : ContractOrderType.LIMIT,
        triggerPrice: around(s.mark, op.off),
        triggerType: op.gte ? 1 : 2,
        trend: TRENDS[op.trend]!,
        executeCycle: 24,
        stopLossPrice: op.sl === 0 || (op.side !== 1 && op.side !== 3) ? undefined : around(s.mark, op.off + (long ? -op.sl : op.sl)),
      });
      return;
    }
    case 'track':
      venue.placeTrackOrder(name, {
        symbol: SYMBOL,
        side: op.side as ContractSide,
        vol: op.vol,
        leverage: 10,
        openType: OpenType.ISOLATED,
        trend: TRENDS[op.trend]!,
        backType: op.amount ? 2 : 1,
        backValue: op.amount ? op.back * 10 : op.back / 1000,
        positionMode: venue.positionMode(name),
        activePrice: op.act === 0 ? undefined : around(s.mark, op.act),
      });
      return;
    case 'changeStop': {
      const st = pick(venue.openStopOrders(name), op.i);
      if (st)
        venue.changeStopPlanPrice(name, {
          stopPlanOrderId: st.id,
          stopLossPrice: op.sl === 0 ? 0 : around(s.mark, st.positionType === 1 ? -op.sl : op.sl),
          takeProfitPrice: op.tp === 0 ? undefined : around(s.mark, st.positionType === 1 ? op.tp : -op.tp),
        });
      return;
    }
    case 'cancelTrigger':
      if (op.which === 0) venue.cancelStopOrders(name, [pick(venue.openStopOrders(name), op.i)?.id ?? '1']);
      else if (op.which === 1)
        venue.cancelPlanOrders(name, [
          { symbol: SYMBOL, orderId: pick(venue.planOrders(name, { states: [1] }).resultList, op.i)?.id ?? '1' },
        ]);
      else venue.cancelTrackOrders(name, { trackOrderId: pick(venue.trackOrders(name, { states: [0, 1] }).resultList, op.i)?.id ?? '1' });
      return;
    case 'cancel': {
      const o = pick(venue.openOrders(name, { pageSize: 100 }).resultList, op.i);
      if (o) venue.cancelOrders(name, [o.orderId]);
      return;
    }
    case 'closeAll':
      venue.closeAll(name);
      return;
    case 'time':
      advance(op.hours * 3_600_000);
      return;
  }
}
