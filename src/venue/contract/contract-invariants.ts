/**
 * The engine's invariants, checked from outside the rules that maintain them (tests run this after
 * every event). Each problem is one line of text; an empty list means consistent.
 *
 *  1. Books: structurally sound, never crossed; every resting order is an open order of its account
 *     with the same price and remaining lots, and every open order rests on its book.
 *  2. Funds are conserved, per settle coin, at two price vectors (the mark and 0):
 *       Σ_accounts (free + frozen + Σ im + Σ unrealised(X)) + feeIncome = Σ net deposits + insurance seed
 *     (the insurance fund is one of the accounts). Exact Decimal equality.
 *  3. No negative free or frozen balance (the insurance fund excepted); frozen = Σ order margin of
 *     the open orders, and each order's margin equals what its remaining lots require.
 *  4. Positions: hold = Σ opening fills − Σ closing fills (from the fill journal); frozenVol = Σ
 *     unfilled lots of the close orders reserving it, ≤ holdVol; im ≥ 0; Σ long lots = Σ short lots.
 *  5. Orders: dealVol ≤ vol, a completed order is fully dealt, Σ fill lots = dealVol.
 *  6. No isolated position, and no cross account, is left in breach of maintenance at the mark.
 */
import { Decimal } from '../../core/decimal.js';
import { ContractOrderState, OpenType, PositionType } from '../../domain/contract-enums.js';
import { unitsToDecimal } from '../ledger/ledger-units.js';
import { frozenOf, type AccountState, type MarketState, type OrderState } from './contract-state.js';
import { crossMargin, isCrossBreached } from './liquidation-rules.js';
import { isBreached, unrealisedPnl } from './margin-math.js';
import { isLiquidatable } from './never-liquidated.js';

export interface InvariantProbe {
  readonly markets: readonly MarketState[];
  readonly accounts: readonly AccountState[];
  readonly insurance: AccountState;
  readonly insuranceSeed: ReadonlyMap<string, Decimal>;
  readonly feeIncome: ReadonlyMap<string, Decimal>;
  readonly positionFills: ReadonlyMap<string, { opened: number; closed: number }>;
  readonly orders: { get(id: string): OrderState | undefined };
  readonly historyLimit: number;
  /** Fills kept for the account (historyLimit unless the venue keeps fewer for it). */
  readonly accountHistoryLimit: (a: AccountState) => number;
  markPrice(m: MarketState): Decimal | undefined;
  /** The margin the order should hold, in ledger units. */
  orderMargin(o: OrderState): bigint;
}

const ZERO = new Decimal(0);

export function checkContractInvariants(p: InvariantProbe): string[] {
  const problems: string[] = [];
  const bySymbol = new Map<string, MarketState>();
  for (const m of p.markets) bySymbol.set(m.spec.symbol, m);

  // 1. books
  for (const m of p.markets) {
    for (const s of m.book.checkInvariants()) problems.push(`${m.spec.symbol} book: ${s}`);
    for (const bo of m.book.orders()) {
      const o = bo.data;
      if (o.state !== ContractOrderState.UNCOMPLETED) problems.push(`${m.spec.symbol}: order ${o.id} rests in state ${o.state}`);
      if (!o.account.openOrders.has(o.id)) problems.push(`${m.spec.symbol}: resting order ${o.id} is not an open order of ${o.account.id}`);
      if (bo.lots !== o.lots - o.dealLots) problems.push(`order ${o.id}: book lots ${bo.lots} != remaining ${o.lots - o.dealLots}`);
      if (bo.priceTicks !== o.priceTicks) problems.push(`order ${o.id}: book price ${bo.priceTicks} != ${o.priceTicks}`);
    }
  }

  // 2–6 per account
  const lhsMark = new Map<string, Decimal>();
  const lhsZero = new Map<string, Decimal>();
  const rhs = new Map<string, Decimal>();
  const add = (map: Map<string, Decimal>, c: string, v: Decimal): void => {
    map.set(c, (map.get(c) ?? ZERO).add(v));
  };
  const longLots = new Map<string, number>();
  const shortLots = new Map<string, number>();

  for (const a of p.accounts) {
    for (const [c, v] of a.netDeposits) add(rhs, c, v);
    const frozenByCoin = new Map<string, Decimal>();
    const reservedByPosition = new Map<string, number>();
    for (const o of a.openOrders.values()) {
      const coin = o.market.spec.settleCoin;
      const frozen = frozenOf(o);
      frozenByCoin.set(coin, (frozenByCoin.get(coin) ?? ZERO).add(unitsToDecimal(frozen)));
      if (o.state !== ContractOrderState.UNCOMPLETED) problems.push(`${a.id}: open order ${o.id} in state ${o.state}`);
      if (!o.market.book.has(o.id)) problems.push(`${a.id}: open order ${o.id} is not on the book`);
      const expected = p.orderMargin(o);
      if (frozen !== expected)
        problems.push(
          `${a.id}: order ${o.id} frozen ${unitsToDecimal(frozen).toString()} != required ${unitsToDecimal(expected).toString()}`,
        );
      if (o.closing) {
        const pos = o.reservedPosition;
        if (pos === undefined) problems.push(`${a.id}: close order ${o.id} reserves no position`);
        else reservedByPosition.set(pos.positionId, (reservedByPosition.get(pos.positionId) ?? 0) + o.lots - o.dealLots);
      }
    }
    for (const w of a.wallets.values()) {
      add(lhsMark, w.currency, w.free.add(w.frozen));
      add(lhsZero, w.currency, w.free.add(w.frozen));
      if (!a.exempt && w.free.lt(0)) problems.push(`${a.id}: negative free ${w.currency} ${w.free.toString()}`);
      if (w.frozen.lt(0)) problems.push(`${a.id}: negative frozen ${w.currency} ${w.frozen.toString()}`);
      const f = frozenByCoin.get(w.currency) ?? ZERO;
      if (!w.frozen.eq(f)) problems.push(`${a.id}: frozen ${w.currency} ${w.frozen.toString()} != Σ order margin ${f.toString()}`);
    }
    const crossCoins = new Set<string>();
    for (const [key, pos] of a.positions) {
      const spec = pos.spec;
      const m = bySymbol.get(spec.symbol)!;
      const coin = spec.settleCoin;
      const mark = p.markPrice(m);
      const fig = pos.figures();
      add(lhsMark, coin, pos.im.add(mark ? unrealisedPnl(fig, mark) : ZERO));
      add(lhsZero, coin, pos.im.add(unrealisedPnl(fig, ZERO)));
      if (key !== `${spec.symbol}:${pos.positionType}`) problems.push(`${a.id}: position ${pos.positionId} under key ${key}`);
      if (pos.holdLots <= 0) problems.push(`${a.id}: open position ${pos.positionId} holds ${pos.holdLots}`);
      if (pos.state !== 1) problems.push(`${a.id}: open position ${pos.positionId} in state ${pos.state}`);
      if (pos.im.lt(0)) problems.push(`${a.id}: position ${pos.positionId} im ${pos.im.toString()} < 0`);
      if (a.exempt && !pos.im.isZero()) problems.push(`insurance position ${pos.positionId} carries margin`);
      if (pos.holdCost < 0n) problems.push(`${a.id}: position ${pos.positionId} negative cost`);
      const j = p.positionFills.get(pos.positionId);
      if (j === undefined) problems.push(`${a.id}: position ${pos.positionId} has no fill journal`);
      else if (j.opened - j.closed !== pos.holdLots)
        problems.push(`${a.id}: position ${pos.positionId} holds ${pos.holdLots} but fills say ${j.opened - j.closed}`);
      const reserved = reservedByPosition.get(pos.positionId) ?? 0;
      if (pos.frozenLots !== reserved)
        problems.push(`${a.id}: position ${pos.positionId} frozenVol ${pos.frozenLots} != Σ close orders ${reserved}`);
      if (pos.frozenLots > pos.holdLots)
        problems.push(`${a.id}: position ${pos.positionId} frozenVol ${pos.frozenLots} > holdVol ${pos.holdLots}`);
      const map = pos.positionType === PositionType.LONG ? longLots : shortLots;
      map.set(spec.symbol, (map.get(spec.symbol) ?? 0) + pos.holdLots);
      if (isLiquidatable(a) && mark) {
        const mmr = spec.tierOfLots(pos.holdLots).mmr;
        if (pos.openType === OpenType.ISOLATED && isBreached(fig, mark, mmr))
          problems.push(`${a.id}: isolated position ${pos.positionId} left in breach at ${mark.toString()}`);
      }
      if (pos.openType === OpenType.CROSS && isLiquidatable(a)) crossCoins.add(coin);
    }
    for (const [posId, n] of reservedByPosition) {
      if (![...a.positions.values()].some((x) => x.positionId === posId))
        problems.push(`${a.id}: close orders reserve ${n} lots of closed position ${posId}`);
    }
    for (const coin of crossCoins) {
      const w = a.wallets.get(coin)!;
      const cross = crossMargin(
        [...a.positions.values()].filter((x) => x.openType === OpenType.CROSS && x.spec.settleCoin === coin),
        w.free,
        w.frozen,
        (x) => p.markPrice(bySymbol.get(x.spec.symbol)!) ?? x.holdAvgPrice(),
        (x) => x.spec.tierOfLots(x.holdLots).mmr,
      );
      if (isCrossBreached(cross))
        problems.push(
          `${a.id}: cross ${coin} equity ${cross.equity.toString()} ≤ maintenance ${cross.maintenance.toString()} left unliquidated`,
        );
    }

    // 5. orders and their fills
    const fillLots = new Map<string, number>();
    for (const f of a.fills) fillLots.set(f.orderId, (fillLots.get(f.orderId) ?? 0) + f.lots);
    const complete = a.fills.length < p.accountHistoryLimit(a);
    const check = (o: OrderState): void => {
      if (o.dealLots > o.lots || o.dealLots < 0) problems.push(`order ${o.id}: dealt ${o.dealLots} of ${o.lots}`);
      if (o.state === ContractOrderState.COMPLETED && o.dealLots !== o.lots)
        problems.push(`order ${o.id}: completed with ${o.dealLots} of ${o.lots}`);
      if (complete && o.category === 1 && (fillLots.get(o.id) ?? 0) !== o.dealLots)
        problems.push(`order ${o.id}: fills ${fillLots.get(o.id) ?? 0} != dealt ${o.dealLots}`);
    };
    for (const o of a.openOrders.values()) check(o);
    for (const o of a.history) {
      check(o);
      if (o.state === ContractOrderState.UNCOMPLETED || o.state === ContractOrderState.PENDING)
        problems.push(`order ${o.id}: in history while open`);
    }
  }
  for (const [c, v] of p.feeIncome) {
    add(lhsMark, c, v);
    add(lhsZero, c, v);
  }
  for (const [c, v] of p.insuranceSeed) add(rhs, c, v);
  const coins = new Set([...lhsMark.keys(), ...rhs.keys()]);
  for (const c of coins) {
    const r = rhs.get(c) ?? ZERO;
    const l1 = lhsMark.get(c) ?? ZERO;
    const l0 = lhsZero.get(c) ?? ZERO;
    if (!l1.eq(r)) problems.push(`${c}: funds not conserved at the mark: holdings ${l1.toString()} != deposits ${r.toString()}`);
    if (!l0.eq(r)) problems.push(`${c}: funds not conserved at price 0: holdings ${l0.toString()} != deposits ${r.toString()}`);
  }
  for (const m of p.markets) {
    const l = longLots.get(m.spec.symbol) ?? 0;
    const s = shortLots.get(m.spec.symbol) ?? 0;
    if (l !== s) problems.push(`${m.spec.symbol}: long lots ${l} != short lots ${s}`);
  }
  return problems;
}
