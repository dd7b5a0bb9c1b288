/**
 * The liquidation engine. On every fair-price move (and after matches, leverage changes and funding)
 * it checks isolated positions and cross accounts against maintenance; a breached position is taken
 * over by the insurance fund (no order through the book): isolated at the bankruptcy price, cross all
 * positions at the fair price with the remaining equity settled against the fund. Float screens in
 * front of the exact Decimal tests skip the positions that are surely safe; on a fair-price move the
 * liquidation index (liquidation-index.ts) finds the isolated positions the screen would not pass
 * without visiting the others.
 */
import { Decimal } from '../../core/decimal.js';
import { orderId as toOrderId, type OrderId } from '../../core/ids.js';
import {
  ContractOrderErrorCode,
  ContractOrderState,
  ContractOrderType,
  ContractSide,
  ContractStpMode,
  OpenType,
  OrderCategory,
  PositionMode,
  PositionType,
} from '../../domain/contract-enums.js';
import { ContractPosition, tickLots } from './contract-position.js';
import { AccountState, ZERO, recordFinal, type MarketState, type OrderState } from './contract-state.js';
import type { LiquidationView } from './contract-views.js';
import { isBreached, liquidationPrice, bankruptcyPrice, maintenanceMargin } from './margin-math.js';
import { LiquidationScreen } from './liquidation-screen.js';
import { requireUnits } from './money-cell.js';
import { priceKey } from './price-ladder.js';
import { CrossScreen } from './cross-screen.js';
import {
  autoAddAmount,
  bankruptcyCloseTicks,
  crossSettlement,
  isCrossBreached,
  markCloseTicks,
  splitByWeight,
} from './liquidation-rules.js';
import { posKey, oppositeType } from './venue-keys.js';
import { accountChanged } from './account-changes.js';
import { isLiquidatable } from './never-liquidated.js';
import { type ContractVenueState } from './contract-venue-state.js';
import type { VenueMoney } from './venue-money.js';
import type { ContractViewBuilder } from './contract-view-builder.js';
import type { PositionLedger } from './position-ledger.js';
import { type OrderMatching } from './order-matching.js';

interface LiquidationDraft {
  readonly position: ContractPosition;
  readonly fairPrice: Decimal;
  readonly liquidationPrice: Decimal | undefined;
  readonly bankruptcyPrice: Decimal | undefined;
  readonly closeTicks: number;
  readonly realised: Decimal;
  readonly lots: number;
  readonly orderId: OrderId;
  mm: Decimal;
  fee: Decimal;
  cover: Decimal;
}

export class LiquidationEngine {
  constructor(
    private readonly s: ContractVenueState,
    private readonly money: VenueMoney,
    private readonly views: ContractViewBuilder,
    private readonly ledger: PositionLedger,
    private readonly matching: OrderMatching,
  ) {}

  private readonly screen = new LiquidationScreen();

  private readonly crossScreen = new CrossScreen();

  /** Per market, the keys of its long and short positions (built once, not per price update). */
  private readonly positionKeys = new Map<MarketState, readonly string[]>();

  /**
   * Checks isolated positions of `m` and the cross accounts holding it (or only `only`), account by
   * account in holder order, long before short, then the account's cross positions.
   *
   * Without `only` (a fair-price move), the liquidation index pre-selects the isolated positions the
   * float screen would send to the exact test — the same set, found in O(k) — and the holders are
   * walked only when one was selected or a cross position in the settle coin can be due; the exact
   * test still decides, in the same order, so the outcome is that of screening every holder.
   */
  checkLiquidations(m: MarketState, only?: readonly AccountState[]): void {
    const fair = this.s.markPrice(m);
    if (fair === undefined) return;
    // Without a fair price the mark is the last trade, on the tick: its double comes from the grid, not from a Decimal.
    const fairNumber = m.fairPrice === undefined && m.lastTicks !== undefined ? m.spec.tickGrid.numberOf(m.lastTicks) : priceKey(fair);
    let picked: ReadonlySet<ContractPosition> | undefined;
    if (only === undefined) {
      picked = this.s.liquidationIndex.candidates(m.spec.symbol, fairNumber);
      if (picked.size === 0 && (!this.s.liquidationIndex.hasCross(m.spec.settleCoin) || this.crossHoldersSurelySafe(m, fairNumber))) return;
    }
    const accounts = only ? only.filter((a) => m.holders.has(a)) : [...m.holders];
    const keys = this.positionKeysOf(m);
    for (const acct of accounts) {
      if (!isLiquidatable(acct)) continue;
      for (const key of keys) {
        const pos = acct.positions.get(key);
        if (pos === undefined || pos.openType !== OpenType.ISOLATED || pos.holdLots === 0) continue;
        const mmr = this.s.tierOf(m.spec, pos.holdLots).mmr;
        const safe = picked === undefined ? this.screen.surelySafe(pos, fairNumber, mmr) : !picked.has(pos);
        if (safe || !isBreached(pos.figures(), fair, mmr)) continue;
        if (pos.autoAddIm && this.autoAddMargin(acct, pos, fair) && !isBreached(pos.figures(), fair, mmr)) continue;
        this.liquidateIsolated(acct, m, pos, fair, mmr);
      }
      if (hasCross(acct, m.spec.settleCoin) && !this.crossSurelySafe(acct, m, fairNumber)) this.checkCross(acct, m.spec.settleCoin);
    }
  }

  /**
   * Whether every cross holder of `m` passes the cross screen at `fair`. With no isolated position
   * picked, that is all the walk below would find: it would visit each holder, skip its isolated
   * positions and ask the same screen (a pure function of the venue's state, which the walk has not
   * changed), so it can be skipped. This is the common fair-price update of a kline backtest, whose
   * crowd accounts all hold cross positions: one pass over the holders, no copy of them, no position
   * lookups.
   */
  private crossHoldersSurelySafe(m: MarketState, fair: number): boolean {
    const coin = m.spec.settleCoin;
    for (const acct of m.holders) if (isLiquidatable(acct) && hasCross(acct, coin) && !this.crossSurelySafe(acct, m, fair)) return false;
    return true;
  }

  /** The float screen in front of the exact cross test (cross-screen.ts); false sends it to the exact test. */
  private crossSurelySafe(acct: AccountState, m: MarketState, fair: number): boolean {
    const w = acct.wallets.get(m.spec.settleCoin);
    if (w === undefined) return false;
    return this.crossScreen.surelySafe(w, m.spec.symbol, fair, acct.positions, this.markOfPosition, this.mmrOfPosition);
  }

  // Made once: the cross screen runs for every cross holder at every fair-price update.
  private readonly markOfPosition = (p: ContractPosition): Decimal | undefined => this.s.markPrice(this.s.markets.get(p.spec.symbol)!);

  private readonly mmrOfPosition = (p: ContractPosition): Decimal => this.s.tierOf(p.spec, p.holdLots).mmr;

  private positionKeysOf(m: MarketState): readonly string[] {
    let keys = this.positionKeys.get(m);
    if (keys === undefined)
      this.positionKeys.set(m, (keys = [posKey(m.spec.symbol, PositionType.LONG), posKey(m.spec.symbol, PositionType.SHORT)]));
    return keys;
  }

  private autoAddMargin(acct: AccountState, pos: ContractPosition, fair: Decimal): boolean {
    const w = acct.wallet(pos.spec.settleCoin);
    const add = autoAddAmount(pos, fair, this.money.availableOpen(acct, w.currency), this.s.scale);
    if (!add.gt(0)) return false;
    w.free = w.free.sub(add);
    pos.im = pos.im.add(add);
    pos.updateTime = this.s.clock.now();
    accountChanged(acct);
    const view = this.views.positionView(acct, pos);
    this.s.emit(() => ({ type: 'MarginAutoAdded', time: pos.updateTime, position: view, amount: add }));
    return true;
  }

  private liquidateIsolated(acct: AccountState, m: MarketState, pos: ContractPosition, fair: Decimal, mmr: Decimal): void {
    const spec = m.spec;
    const now = this.s.clock.now();
    this.cancelOrdersOfPosition(acct, m, pos);
    const fig = pos.figures();
    const liq = liquidationPrice(fig, mmr);
    const bk = bankruptcyPrice(fig);
    const ticks = bankruptcyCloseTicks(pos);
    const lots = pos.holdLots;
    const released = pos.releaseMargin(lots, this.s.scale);
    const units = pos.close(lots, ticks);
    const realised = spec.money(units);
    pos.closePnl = pos.closePnl.add(realised);
    pos.updateTime = now;
    this.ledger.journal(pos, 0, lots);
    const pool = released.value.add(realised);
    const ins = this.s.insuranceWallet(spec.settleCoin);
    ins.free = ins.free.add(pool);
    const order = this.liquidationOrder(acct, m, pos, ticks, lots, realised, now);
    this.takeOver(m, pos.positionType, lots, ticks);
    this.ledger.closePosition(acct, pos);
    const draft: LiquidationDraft = {
      position: pos,
      fairPrice: fair,
      liquidationPrice: liq,
      bankruptcyPrice: bk,
      closeTicks: ticks,
      realised,
      lots,
      orderId: order.id,
      mm: ZERO,
      fee: Decimal.max(ZERO, pool),
      cover: Decimal.max(ZERO, pool.neg()),
    };
    this.emitLiquidation(acct, draft, now);
  }

  private checkCross(acct: AccountState, currency: string): void {
    if (isCrossBreached(this.money.crossOf(acct, currency))) this.liquidateCross(acct, currency);
  }

  private liquidateCross(acct: AccountState, currency: string): void {
    const now = this.s.clock.now();
    for (const o of [...acct.openOrders.values()])
      if (o.market.spec.settleCoin === currency) this.matching.cancelInternal(o, 'liquidation');
    const w = acct.wallet(currency);
    const drafts: LiquidationDraft[] = [];
    let mmTotal = ZERO;
    for (const pos of [...acct.positions.values()]) {
      if (pos.openType !== OpenType.CROSS || pos.spec.settleCoin !== currency) continue;
      const m = this.s.markets.get(pos.spec.symbol)!;
      const spec = m.spec;
      const mark = this.s.markPrice(m) ?? pos.holdAvgPrice();
      const mm = maintenanceMargin(pos.qty, mark, this.s.tierOf(spec, pos.holdLots).mmr);
      mmTotal = mmTotal.add(mm);
      const ticks = markCloseTicks(spec, mark);
      const lots = pos.holdLots;
      const released = pos.releaseMargin(lots, this.s.scale);
      const units = pos.close(lots, ticks);
      const realised = spec.money(units);
      pos.closePnl = pos.closePnl.add(realised);
      pos.updateTime = now;
      this.ledger.journal(pos, 0, lots);
      w.free = w.free.add(released.value).add(realised);
      const order = this.liquidationOrder(acct, m, pos, ticks, lots, realised, now);
      this.takeOver(m, pos.positionType, lots, ticks);
      this.ledger.closePosition(acct, pos);
      drafts.push({
        position: pos,
        fairPrice: mark,
        liquidationPrice: undefined,
        bankruptcyPrice: undefined,
        closeTicks: ticks,
        realised,
        lots,
        orderId: order.id,
        mm,
        fee: ZERO,
        cover: ZERO,
      });
    }
    const ins = this.s.insuranceWallet(currency);
    const { fee, cover } = crossSettlement(w.free, mmTotal);
    w.free = w.free.sub(fee).add(cover);
    ins.free = ins.free.add(fee).sub(cover);
    // The account-level fee / cover is reported per position, split by maintenance margin.
    const weights = drafts.map((d) => d.mm);
    const fees = splitByWeight(fee, weights, this.s.scale);
    const covers = splitByWeight(cover, weights, this.s.scale);
    drafts.forEach((d, i) => {
      d.fee = fees[i]!;
      d.cover = covers[i]!;
      this.emitLiquidation(acct, d, now);
    });
  }

  private cancelOrdersOfPosition(acct: AccountState, m: MarketState, pos: ContractPosition): void {
    const oneWay = acct.positionMode === PositionMode.ONE_WAY;
    for (const o of [...acct.openOrders.values()]) {
      if (o.market !== m) continue;
      const sameSide =
        oneWay || o.reservedPosition === pos || (!o.closing && (o.isBuy ? PositionType.LONG : PositionType.SHORT) === pos.positionType);
      if (sameSide) this.matching.cancelInternal(o, 'liquidation');
    }
  }

  /** The insurance fund takes `lots` of a `type` position at `ticks` (netting against what it holds). */
  private takeOver(m: MarketState, type: PositionType, lots: number, ticks: number): void {
    const ins = this.s.insurance;
    const w = ins.wallet(m.spec.settleCoin);
    const opp = ins.positions.get(posKey(m.spec.symbol, oppositeType(type)));
    let left = lots;
    const touched: ContractPosition[] = [];
    if (opp) {
      const n = Math.min(left, opp.holdLots);
      const units = opp.close(n, ticks);
      const realised = m.spec.money(units);
      w.free = w.free.add(realised);
      opp.closePnl = opp.closePnl.add(realised);
      opp.updateTime = this.s.clock.now();
      this.ledger.journal(opp, 0, n);
      touched.push(opp);
      left -= n;
    }
    if (left > 0) {
      const p = this.ledger.positionFor(ins, m, type, OpenType.CROSS, 1);
      p.open(left, ticks);
      p.updateTime = this.s.clock.now();
      this.ledger.journal(p, left, 0);
      touched.push(p);
    }
    for (const p of touched) {
      if (p.holdLots === 0) this.ledger.closePosition(ins, p);
      this.views.emitPosition(ins, p);
    }
  }

  private liquidationOrder(
    acct: AccountState,
    m: MarketState,
    pos: ContractPosition,
    ticks: number,
    lots: number,
    realised: Decimal,
    now: number,
  ): OrderState {
    const seq = ++this.s.orderSeq;
    const side = pos.isLong ? ContractSide.CLOSE_LONG : ContractSide.CLOSE_SHORT;
    const o: OrderState = {
      id: toOrderId(this.s.idBase + seq),
      seq,
      account: acct,
      market: m,
      side,
      type: ContractOrderType.MARKET,
      category: OrderCategory.LIQUIDATION_CUSTODY,
      openType: pos.openType,
      leverage: pos.leverage,
      positionMode: acct.positionMode,
      reduceOnly: true,
      stpMode: ContractStpMode.NONE,
      externalOid: undefined,
      isBuy: !pos.isLong,
      bookSide: pos.isLong ? 'SELL' : 'BUY',
      closing: true,
      displayPrice: m.spec.ticksToPrice(ticks),
      priceTicks: ticks,
      lots,
      dealLots: lots,
      dealCost: tickLots(BigInt(ticks) * BigInt(lots)),
      frozenUnits: 0n,
      frozenGrains: 0,
      frozenGrain: 0,
      reservedPosition: undefined,
      usedMargin: undefined,
      takerFeeUnits: 0n,
      makerFeeUnits: 0n,
      profitUnits: requireUnits(realised, 'realised'),
      takerFeeGrains: 0,
      makerFeeGrains: 0,
      profitGrains: 0,
      moneyGrain: 0,
      state: ContractOrderState.COMPLETED,
      errorCode: ContractOrderErrorCode.NORMAL,
      positionId: pos.positionId,
      createTime: now,
      updateTime: now,
      cancelReason: undefined,
    };
    this.s.orders.set(o.id, o);
    recordFinal(this.s.orders, o, this.s.accountHistoryLimit(o.account));
    return o;
  }

  private emitLiquidation(acct: AccountState, d: LiquidationDraft, now: number): void {
    const pos = d.position;
    const spec = pos.spec;
    const liquidation: LiquidationView = {
      accountId: acct.id,
      symbol: spec.symbol,
      positionId: pos.positionId,
      positionType: pos.positionType,
      openType: pos.openType,
      vol: spec.lotsToVol(d.lots),
      fairPrice: d.fairPrice,
      liquidationPrice: d.liquidationPrice,
      bankruptcyPrice: d.bankruptcyPrice,
      closePrice: spec.ticksToPrice(d.closeTicks),
      realised: d.realised,
      liquidationFee: d.fee,
      insuranceCover: d.cover,
      orderId: d.orderId,
      time: now,
    };
    this.views.emitPosition(acct, pos);
    this.s.emit(() => ({ type: 'PositionLiquidated', time: now, liquidation }));
  }
}

/** Whether the account holds a cross position settled in `currency` (no cross position, no cross check). */
function hasCross(acct: AccountState, currency: string): boolean {
  for (const p of acct.positions.values()) if (p.openType === OpenType.CROSS && p.spec.settleCoin === currency) return true;
  return false;
}
