/**
 * Matching and booking: runs an admitted order against the book, books each trade (fees, margin,
 * positions, realised PnL), rests or cancels what remains, and ends orders (cancel, complete, the
 * reduce-only trim of one-way mode). After a match the liquidation check runs for the accounts it
 * touched (LiquidationCheck, wired in by the facade: the engine cancels orders through this module).
 */
import { Decimal } from '../../core/decimal.js';
import { accountId as toAccountId, orderId as toOrderId, tradeId as toTradeId, type PositionId } from '../../core/ids.js';
import {
  ContractOrderErrorCode,
  ContractOrderState,
  ContractOrderType,
  ContractStpMode,
  DealOpenFlag,
  DealSide,
  OpenType,
  OrderCategory,
  PositionMode,
  PositionType,
  sideIsBuy,
} from '../../domain/contract-enums.js';
import { type BookOrder, type SelfTradeCheck } from '../book/order-book.js';
import { CANCEL_ERROR_MSG, CODE_OF_ORDER_ERROR, CancelErrorCode } from './contract-codes.js';
import { ContractPosition, addTickLots, tickLots } from './contract-position.js';
import type { CancelResultEntry, Rejected } from './contract-requests.js';
import type { OrderFields } from './order-validation.js';
import {
  AccountState,
  addOrderGrains,
  recordFinal,
  frozenOf,
  usedMarginCell,
  type FillRecord,
  type MarketState,
  type OrderState,
} from './contract-state.js';
import type { CancelReason, ContractTradeView } from './contract-views.js';
import { feeGrains, feeUnits, marginAndFeeGrains, marginAndFeeUnits, type GrainTerms } from './margin-units.js';
import { MoneyCell } from './money-cell.js';
import { OrderCancelledEvent, OrderFilledEvent } from './lazy-events.js';
import { posKey, extKey } from './venue-keys.js';
import { accountChanged } from './account-changes.js';
import { type ContractVenueState, type LiquidationCheck } from './contract-venue-state.js';
import { marginTerms, rateTerms, type VenueMoney } from './venue-money.js';
import type { ContractViewBuilder } from './contract-view-builder.js';
import type { PositionLedger } from './position-ledger.js';

/**
 * Order types that rest on the book (the rest fill-or-cancel at once); the only limit orders a client
 * may amend. Comparisons rather than a Set: asked three times per placement, the Set's hash lookups
 * were about 225 of a maker+taker cycle's ~75,000 instructions (callgrind).
 */
export const isResting = (type: ContractOrderType): boolean =>
  type === ContractOrderType.LIMIT || type === ContractOrderType.POST_ONLY || type === ContractOrderType.MARKET_TO_LIMIT;

/**
 * One `[positionId]` per position, shared by the fill records that touched only it (most fills).
 * Why: an account keeps thousands of fill records, each surviving the young generation, and a fresh
 * one-element array per record was two more objects for the collector to copy (issue 12: retained
 * history is the cycle's largest cost). Kept here rather than on the position, whose fields the emulator
 * snapshot writes; not frozen, because a snapshot restore writes into the arrays it finds in place
 * (readonly by type: no reader changes it).
 */
const SINGLE_IDS = new WeakMap<ContractPosition, readonly PositionId[]>();

function idsOf(p: ContractPosition): readonly PositionId[] {
  let ids = SINGLE_IDS.get(p);
  if (ids === undefined) SINGLE_IDS.set(p, (ids = [p.positionId]));
  return ids;
}

export class OrderMatching {
  constructor(
    private readonly s: ContractVenueState,
    private readonly money: VenueMoney,
    private readonly views: ContractViewBuilder,
    private readonly ledger: PositionLedger,
    private readonly risk: LiquidationCheck,
  ) {}

  /**
   * Matches an admitted order as taker (limitTicks null = does not take; `stp` is given when it takes),
   * then rests or cancels the remainder by type. Margin has been checked by the caller.
   */
  execute(o: OrderState, limitTicks: number | undefined | null, stp: SelfTradeCheck<OrderState> | undefined): void {
    const m = o.market;
    let stopped = false;
    // The accounts this match touched, in first-touch order (a list: a match meets few accounts).
    const touched: AccountState[] = [o.account];
    if (limitTicks !== null && stp !== undefined) {
      const res = m.book.match(o.bookSide, { limitTicks, lots: o.lots - o.dealLots }, stp);
      if (res.fills.length > 0 || res.stpCancelled.length > 0) m.version++;
      for (const mk of res.stpCancelled) this.cancelInternal(mk.data, 'stp_maker', true);
      for (const f of res.fills) {
        const maker = f.maker.data.account;
        if (!touched.includes(maker)) touched.push(maker);
        this.trade(o, f.maker, f.priceTicks, f.lots);
      }
      stopped = res.takerStopped;
      for (const a of touched) if (a.positionMode === PositionMode.ONE_WAY) this.trimReduceOnly(a, m);
    }
    if (this.s.isOpen(o)) {
      const remaining = o.lots - o.dealLots;
      if (remaining === 0) this.complete(o);
      else if (stopped) this.cancelInternal(o, 'stp_taker');
      else if (isResting(o.type)) this.rest(o);
      else
        this.cancelInternal(
          o,
          o.type === ContractOrderType.MARKET ? 'market_remainder' : o.type === ContractOrderType.FOK ? 'fok_unfilled' : 'ioc_remainder',
        );
    }
    // Without a fair price the mark is the last trade, which just moved for every holder.
    this.risk.checkLiquidations(m, m.fairPrice === undefined ? undefined : touched);
  }

  private rest(o: OrderState): void {
    const remaining = o.lots - o.dealLots;
    if (!o.closing) {
      const spec = o.market.spec;
      const w = o.account.wallet(spec.settleCoin);
      const g = rateTerms(spec, this.money.rates(o.account, spec), this.s.stepUnits).grains;
      const needGrains = this.money.orderMarginGrains(o, remaining, g);
      if (needGrains === needGrains) {
        // In grains: the wallet's cells add it in doubles (no bigint).
        w.freeCell.subGrains(needGrains, g.grain);
        w.frozenCell.addGrains(needGrains, g.grain);
        o.frozenGrains = needGrains;
        o.frozenGrain = g.grain;
      } else {
        const need = this.money.orderMargin(o, remaining);
        w.freeCell.subUnits(need);
        w.frozenCell.addUnits(need);
        o.frozenUnits = need;
      }
      if (w.freeCell.isNegative()) this.money.coverShortfall(o.account, w, undefined, undefined);
    }
    o.market.book.add(o.id, o.bookSide, o.priceTicks, remaining, o.account.id, o);
    o.market.version++;
  }

  /** One trade between the taker and a maker the book has already matched. */
  private trade(taker: OrderState, makerBook: BookOrder<OrderState>, priceTicks: number, lots: number): void {
    const maker = makerBook.data;
    const m = taker.market;
    const now = this.s.clock.now();
    const tradeId = toTradeId(++this.s.tradeSeq);
    // Each side's lots that opened; the rest of the fill closed (applyFill).
    const makerOpened = this.applyFill(maker, priceTicks, lots, true, tradeId);
    const takerOpened = this.applyFill(taker, priceTicks, lots, false, tradeId);
    if (m.lastTicks !== priceTicks) {
      m.lastTicks = priceTicks;
      m.lastPrice = m.spec.ticksToPrice(priceTicks);
    }
    const openFlag =
      makerOpened === lots && takerOpened === lots
        ? DealOpenFlag.BOTH_OPEN
        : makerOpened === 0 && takerOpened === 0
          ? DealOpenFlag.NEITHER_OPENS
          : DealOpenFlag.OTHER;
    if (this.s.wants('TradeExecuted')) {
      // Only the event shows it: asked only when someone listens (at the same moment as before).
      const self = this.s.sameGroup(taker.account.id, maker.account.id);
      const trade: ContractTradeView = {
        tradeId,
        symbol: m.spec.symbol,
        price: m.spec.ticksToPrice(priceTicks),
        priceTicks,
        vol: m.spec.lotsToVol(lots),
        lots,
        time: now,
        takerSide: taker.isBuy ? DealSide.BUY : DealSide.SELL,
        openFlag,
        selfTrade: self,
        takerAccountId: taker.account.id,
        makerAccountId: maker.account.id,
        takerOrderId: taker.id,
        makerOrderId: maker.id,
      };
      this.s.emitEvent({ type: 'TradeExecuted', time: now, trade });
    }
    if (this.s.watchers.size > 0)
      this.s.queue.push({ kind: 'price', update: { symbol: m.spec.symbol, kind: 'last', price: m.lastPrice!, time: now } });
    if (maker.dealLots === maker.lots && this.s.isOpen(maker)) this.complete(maker);
  }

  /**
   * Books one fill of `order`: releases its reservation share, closes and/or opens position lots,
   * charges the fee. Returns how many lots opened (the others closed: openLots + closeLots = lots).
   */
  private applyFill(o: OrderState, priceTicks: number, lots: number, isMaker: boolean, tradeId: ReturnType<typeof toTradeId>): number {
    const acct = o.account;
    const m = o.market;
    const spec = m.spec;
    const now = this.s.clock.now();
    const w = acct.wallet(spec.settleCoin);
    const rates = this.money.rates(acct, spec);
    accountChanged(acct);
    // Money in ledger units: tick·lots × unitValueUnits, fees tick·lots × units per tick·lot (exact; margin-units.ts).
    const uv = spec.unitValueUnits;
    const terms = rateTerms(spec, rates, this.s.stepUnits);
    const remainingBefore = o.lots - o.dealLots;

    const g = terms.grains;
    const grain = g.grain;
    // A truth test: the field is absent on an order restored from a snapshot written before it.
    if (o.frozenGrains) {
      const afterGrains =
        remainingBefore - lots <= 0 ? 0 : o.frozenGrain === grain ? this.money.orderMarginGrains(o, remainingBefore - lots, g) : NaN;
      if (afterGrains === afterGrains) {
        const release = o.frozenGrains - afterGrains;
        w.frozenCell.subGrains(release, o.frozenGrain);
        w.freeCell.addGrains(release, o.frozenGrain);
        o.frozenGrains = afterGrains;
      } else {
        // The rest's margin is not a count of this grain: the reservation in units, released below.
        o.frozenUnits = frozenOf(o);
        o.frozenGrains = 0;
      }
    }
    if (o.frozenUnits > 0n) {
      const after = remainingBefore - lots > 0 ? this.money.orderMargin(o, remainingBefore - lots) : 0n;
      // The last fill releases the whole reservation: no subtraction (each bigint operation allocates).
      const release = after === 0n ? o.frozenUnits : o.frozenUnits - after;
      w.frozenCell.subUnits(release);
      w.freeCell.addUnits(release);
      o.frozenUnits = after;
    }

    let closeLots = 0;
    let openLots = 0;
    let closePos: ContractPosition | undefined;
    if (o.closing) {
      const pos = o.reservedPosition!;
      pos.frozenLots -= lots;
      closeLots = Math.min(lots, pos.holdLots);
      if (closeLots > 0) closePos = pos;
      // Only a one-way fill in the same match can have taken the reserved lots (see trimReduceOnly).
      openLots = lots - closeLots;
    } else if (o.positionMode === PositionMode.HEDGED) {
      openLots = lots;
    } else {
      const opp = acct.positions.get(posKey(spec.symbol, o.isBuy ? PositionType.SHORT : PositionType.LONG));
      closeLots = opp ? Math.min(lots, opp.holdLots) : 0;
      if (closeLots > 0) closePos = opp;
      openLots = lots - closeLots;
    }

    // Every amount in grains of the rates (doubles, added to the cells' double parts) when it is a safe
    // count, else in ledger units as bigints (margin-units.ts); the cells hold either, exactly.
    const per = isMaker ? rates.makerPer : rates.takerPer;
    const perNumber = isMaker ? terms.makerPerNumber : terms.takerPerNumber;
    const perGrains = isMaker ? g.makerPer : g.takerPer;
    const feeG = feeGrains(priceTicks, lots, g, perGrains);
    const fee = feeG === feeG ? 0n : feeUnits(priceTicks, lots, per, perNumber);
    const touchedPositions: ContractPosition[] = [];
    let profit = 0n;
    let profitG = 0;
    let imUnits = 0n;
    let imG = 0;
    let openPos: ContractPosition | undefined;

    if (closePos !== undefined && closeLots > 0) {
      const pool = closePos.releaseMargin(closeLots, this.s.scale);
      const r = closePos.closeAt(closeLots, priceTicks);
      const rG = typeof r === 'number' && grain !== 0 ? r * g.value : NaN;
      if (Number.isSafeInteger(rG)) {
        profitG = rG;
        pool.addGrains(rG, grain);
      } else {
        profit = BigInt(r) * uv;
        pool.addUnits(profit);
      }
      if (pool.isNegative() && closePos.openType === OpenType.ISOLATED) {
        // An isolated position's loss stops at its margin; the fund takes the rest.
        this.s.insuranceWallet(spec.settleCoin).freeCell.addCell(pool);
        this.s.shortfalls++;
      } else w.freeCell.addCell(pool);
      if (profitG !== 0) closePos.closePnlCell.addGrains(profitG, grain);
      else closePos.closePnlCell.addUnits(profit);
      this.addFee(closePos.totalFeeCell, openLots === 0, feeG, fee, priceTicks, closeLots, g, perGrains, per, perNumber);
      closePos.updateTime = now;
      this.ledger.journal(closePos, 0, closeLots);
      touchedPositions.push(closePos);
    }
    if (openLots > 0) {
      const direction = o.isBuy ? PositionType.LONG : PositionType.SHORT;
      openPos = this.ledger.positionFor(acct, m, direction, o.openType, o.leverage);
      imG = marginAndFeeGrains(priceTicks, openLots, openPos.leverage, g, 0, 'floor');
      if (imG === imG) {
        w.freeCell.subGrains(imG, grain);
        openPos.addImGrains(imG, grain);
        openPos.oimCell.addGrains(imG, grain);
        openPos.marginBookedCell.addGrains(imG, grain);
        usedMarginCell(o).addGrains(imG, grain);
      } else {
        imG = 0;
        imUnits = marginAndFeeUnits(priceTicks, openLots, openPos.leverage, marginTerms(spec, this.s.stepUnits), 'floor');
        w.freeCell.subUnits(imUnits);
        openPos.addImUnits(imUnits);
        openPos.oimCell.addUnits(imUnits);
        openPos.marginBookedCell.addUnits(imUnits);
        usedMarginCell(o).addUnits(imUnits);
      }
      openPos.open(openLots, priceTicks);
      this.addFee(openPos.totalFeeCell, closeLots === 0, feeG, fee, priceTicks, openLots, g, perGrains, per, perNumber);
      openPos.updateTime = now;
      this.ledger.journal(openPos, openLots, 0);
      touchedPositions.push(openPos);
    }
    if (feeG === feeG) {
      w.freeCell.subGrains(feeG, grain);
      this.s.addFeeIncomeGrains(spec.settleCoin, feeG, grain);
    } else {
      w.freeCell.subUnits(fee);
      this.s.addFeeIncome(spec.settleCoin, fee);
    }
    // Fees and profit on the order: counts of the grain when they are (the units otherwise, as before).
    const feeOnOrderG = feeG === feeG ? feeG : 0;
    if (feeOnOrderG !== 0 || profitG !== 0) addOrderGrains(o, isMaker ? 0 : feeOnOrderG, isMaker ? feeOnOrderG : 0, profitG, grain);
    // `0n + fee` would be a new bigint kept with the order: the first fill's total is the fill's own fee.
    if (fee !== 0n) {
      if (isMaker) o.makerFeeUnits = o.makerFeeUnits === 0n ? fee : o.makerFeeUnits + fee;
      else o.takerFeeUnits = o.takerFeeUnits === 0n ? fee : o.takerFeeUnits + fee;
    }
    if (profit !== 0n) o.profitUnits += profit;
    if (w.freeCell.isNegative()) {
      const bookedIm = imG !== 0 ? BigInt(imG) * BigInt(grain) : imUnits;
      this.money.coverShortfall(acct, w, openPos, bookedIm, o);
    }

    o.dealLots += lots;
    const cost = priceTicks * lots;
    o.dealCost = addTickLots(o.dealCost, Number.isSafeInteger(cost) ? cost : tickLots(BigInt(priceTicks) * BigInt(lots)));
    o.updateTime = now;
    o.positionId = (openPos ?? closePos)?.positionId ?? o.positionId;
    const fillRec: FillRecord = {
      tradeId,
      orderId: o.id,
      symbol: spec.symbol,
      side: o.side,
      priceTicks,
      lots,
      taker: !isMaker,
      feeUnits: fee,
      profitUnits: profit,
      feeGrains: feeOnOrderG,
      profitGrains: profitG,
      grain,
      closeLots,
      openLots,
      positionIds: touchedPositions.length === 1 ? idsOf(touchedPositions[0]!) : touchedPositions.map((p) => p.positionId),
      time: now,
    };
    acct.fills.push(fillRec, this.s.accountHistoryLimit(acct));
    this.s.triggers.onFill(acct.id, o.id, openLots, openPos?.positionId);
    for (const p of touchedPositions) if (p.holdLots === 0) this.ledger.closePosition(acct, p);
    if (this.s.wants('OrderFilled')) {
      // Views built when read (most listeners read only the fill, some neither), showing this moment.
      this.s.emitEvent(new OrderFilledEvent(now, this.views.orderCopy(o), acct, fillRec, this.views));
    }
    for (const p of touchedPositions) this.views.emitPosition(acct, p);
    return openLots;
  }

  /**
   * Adds the fee of `lots` of a fill to a position's total: the whole fill's (feeG grains, or `fee`
   * units) when `whole`, else this part's own, in grains when a safe count.
   */
  private addFee(
    cell: MoneyCell,
    whole: boolean,
    feeG: number,
    fee: bigint,
    priceTicks: number,
    lots: number,
    g: GrainTerms,
    perGrains: number,
    per: bigint,
    perNumber: number | undefined,
  ): void {
    const partG = whole ? feeG : feeGrains(priceTicks, lots, g, perGrains);
    if (partG === partG) cell.addGrains(partG, g.grain);
    else cell.addUnits(whole ? fee : feeUnits(priceTicks, lots, per, perNumber));
  }

  cancelOne(acct: AccountState | undefined, o: OrderState | undefined, id: string, reason: CancelReason): CancelResultEntry {
    if (acct === undefined || o === undefined || o.account !== acct)
      return { orderId: id, errorCode: CancelErrorCode.NOT_EXIST, errorMsg: CANCEL_ERROR_MSG[CancelErrorCode.NOT_EXIST] };
    if (!this.s.isOpen(o))
      return { orderId: o.id, errorCode: CancelErrorCode.NOT_CANCELLABLE, errorMsg: CANCEL_ERROR_MSG[CancelErrorCode.NOT_CANCELLABLE] };
    this.cancelInternal(o, reason);
    return { orderId: o.id, errorCode: CancelErrorCode.OK, errorMsg: CANCEL_ERROR_MSG[CancelErrorCode.OK] };
  }

  /** Cancels an open order: off the book, margin and reserved position lots released. */
  cancelInternal(o: OrderState, reason: CancelReason, alreadyOffBook = false): void {
    if (!this.s.isOpen(o)) return;
    accountChanged(o.account);
    if (!alreadyOffBook && o.market.book.cancel(o.id) !== undefined) o.market.version++;
    this.money.unfreeze(o);
    if (o.closing && o.reservedPosition) o.reservedPosition.frozenLots -= o.lots - o.dealLots;
    o.state = ContractOrderState.CANCELLED;
    o.cancelReason = reason;
    o.updateTime = this.s.clock.now();
    this.finalize(o);
    const now = o.updateTime;
    if (this.s.wants('OrderCancelled')) {
      this.s.emitEvent(new OrderCancelledEvent(now, this.views.orderCopy(o), reason, this.views));
    }
  }

  private complete(o: OrderState): void {
    accountChanged(o.account);
    this.money.unfreeze(o);
    o.state = ContractOrderState.COMPLETED;
    o.updateTime = this.s.clock.now();
    this.finalize(o);
  }

  private finalize(o: OrderState): void {
    const acct = o.account;
    acct.openOrders.delete(o.id);
    if (o.externalOid) {
      const k = extKey(o.market.spec.symbol, o.externalOid);
      if (acct.openByExternal.get(k) === o) acct.openByExternal.delete(k);
    }
    recordFinal(this.s.orders, o, this.s.accountHistoryLimit(o.account));
    this.s.triggers.onOrderFinal(acct.id, o.id);
  }

  /**
   * One-way mode: a fill that reduced a position can leave its reduce-only orders reserving more
   * than is held. Trim the newest first (reduce, or cancel when nothing is left to reduce).
   */
  private trimReduceOnly(acct: AccountState, m: MarketState): void {
    if (!this.hasCloseOrders(acct, m)) return;
    const orders = [...acct.openOrders.values()].filter((o) => o.closing && o.market === m).reverse();
    for (const o of orders) {
      const pos = o.reservedPosition!;
      const excess = pos.frozenLots - pos.holdLots;
      if (excess <= 0 && pos.holdLots > 0) continue;
      const remaining = o.lots - o.dealLots;
      if (pos.holdLots === 0 || excess >= remaining) {
        this.cancelInternal(o, 'reduce_only_trimmed');
      } else {
        accountChanged(acct);
        o.lots -= excess;
        pos.frozenLots -= excess;
        m.book.reduce(o.id, excess);
        m.version++;
        o.updateTime = this.s.clock.now();
        if (this.s.wants('OrderAmended'))
          this.s.emit(() => ({ type: 'OrderAmended', time: o.updateTime, order: this.views.orderView(o), chase: false }));
      }
    }
  }

  /** Whether the account has an open reduce-only / close order on `m` (most fills: none, and nothing to copy). */
  private hasCloseOrders(acct: AccountState, m: MarketState): boolean {
    for (const o of acct.openOrders.values()) if (o.closing && o.market === m) return true;
    return false;
  }

  reserveClose(o: OrderState, pos: ContractPosition): void {
    o.reservedPosition = pos;
    o.positionId = pos.positionId;
    pos.frozenLots += o.lots;
  }

  newOrder(
    acct: AccountState,
    m: MarketState,
    req: OrderFields,
    category: OrderCategory,
    type: ContractOrderType,
    closing: boolean,
    leverage: number,
    openType: OpenType,
    priceTicks: number,
    displayPrice: Decimal,
    lots: number,
    stpMode: ContractStpMode,
    reduceOnly: boolean,
    now: number,
  ): OrderState {
    const seq = ++this.s.orderSeq;
    const isBuy = sideIsBuy(req.side);
    return {
      id: toOrderId(this.s.idBase + seq),
      seq,
      account: acct,
      market: m,
      side: req.side,
      type,
      category,
      openType,
      leverage,
      positionMode: acct.positionMode,
      reduceOnly,
      stpMode,
      externalOid: req.externalOid === '' ? undefined : req.externalOid,
      isBuy,
      bookSide: isBuy ? 'BUY' : 'SELL',
      closing,
      displayPrice,
      priceTicks,
      lots,
      dealLots: 0,
      dealCost: 0,
      frozenUnits: 0n,
      frozenGrains: 0,
      frozenGrain: 0,
      reservedPosition: undefined,
      usedMargin: undefined,
      takerFeeUnits: 0n,
      makerFeeUnits: 0n,
      profitUnits: 0n,
      takerFeeGrains: 0,
      makerFeeGrains: 0,
      profitGrains: 0,
      moneyGrain: 0,
      state: ContractOrderState.PENDING,
      errorCode: ContractOrderErrorCode.NORMAL,
      positionId: undefined,
      createTime: now,
      updateTime: now,
      cancelReason: undefined,
    };
  }

  admit(o: OrderState): void {
    accountChanged(o.account);
    o.state = ContractOrderState.UNCOMPLETED;
    this.s.orders.set(o.id, o);
    o.account.openOrders.set(o.id, o);
    if (o.externalOid) o.account.openByExternal.set(extKey(o.market.spec.symbol, o.externalOid), o);
  }

  /** Records an invalid (state 5) order and answers with the matching code. */
  invalid(o: OrderState, errorCode: ContractOrderErrorCode, message: string): Rejected {
    o.state = ContractOrderState.INVALID;
    o.errorCode = errorCode;
    this.s.orders.set(o.id, o);
    recordFinal(this.s.orders, o, this.s.accountHistoryLimit(o.account));
    const code = CODE_OF_ORDER_ERROR[errorCode];
    const view = this.views.orderView(o);
    this.s.emit(() => ({ type: 'OrderRejected', time: o.createTime, accountId: o.account.id, code, errorCode, message, order: view }));
    return { ok: false, code, errorCode, message, order: view };
  }

  /** Refuses a request before any record exists (an order-rejected event when it was a placement). */
  reject(accountIdIn: string, code: number, message: string): Rejected {
    const now = this.s.clock.now();
    this.s.emit(() => ({
      type: 'OrderRejected',
      time: now,
      accountId: toAccountId(accountIdIn),
      code,
      errorCode: ContractOrderErrorCode.PARAMETER,
      message,
      order: undefined,
    }));
    return { ok: false, code, errorCode: ContractOrderErrorCode.PARAMETER, message };
  }
}
