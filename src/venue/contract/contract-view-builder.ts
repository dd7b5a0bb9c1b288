/**
 * The contract venue's views: the order, position, asset, fill and leverage records a client reads
 * (snapshots of this moment, so events carry them too) and the position-changed event. Below matching
 * and liquidation, which emit these views; above the state and money rules they read.
 */
import { Decimal } from '../../core/decimal.js';
import type { AccountId } from '../../core/ids.js';
import { ContractOrderState, OpenType, PositionOpenType, PositionType } from '../../domain/contract-enums.js';
import { ContractPosition, bigOf } from './contract-position.js';
import {
  AccountState,
  ZERO,
  frozenOf,
  usedMarginOf,
  type FillRecord,
  type MarketState,
  type OrderState,
  type Wallet,
} from './contract-state.js';
import type {
  ContractAssetView,
  ContractFillView,
  ContractOrderView,
  ContractPositionView,
  HeldPositionView,
  LeverageView,
} from './contract-views.js';
import { liquidationPrice, marginRatio, unrealisedPnl } from './margin-math.js';
import { MoneyCell, decimalOfParts, decimalOfUnits } from './money-cell.js';
import { posKey, sideKey } from './venue-keys.js';
import { type ContractVenueState } from './contract-venue-state.js';
import { PositionChangedEvent, type EventViews } from './lazy-events.js';
import { LazyOrderView } from './lazy-order-view.js';
import { accountChanged } from './account-changes.js';
import { CrossParts, type VenueMoney } from './venue-money.js';

const ONE = new Decimal(1);

/**
 * A copy of an order as it is now (its amounts are plain values but for the used-margin cell, copied too
 * when the order has one).
 * Field by field rather than `{ ...o, usedMargin }`: the spread ran through the runtime's object-clone
 * path on every resting placement (about 600 instructions of a maker+taker cycle in callgrind), a
 * literal is allocated inline; the type checker holds it to OrderState's fields.
 */
function copyOfOrder(o: OrderState): OrderState {
  const used = o.usedMargin;
  // Nothing booked yet (a resting order's answer, an acceptance event): no cell, as on the order.
  let usedMargin: MoneyCell | undefined;
  if (used !== undefined) (usedMargin = new MoneyCell()).copyFrom(used);
  return {
    id: o.id,
    seq: o.seq,
    account: o.account,
    market: o.market,
    side: o.side,
    type: o.type,
    category: o.category,
    openType: o.openType,
    leverage: o.leverage,
    positionMode: o.positionMode,
    reduceOnly: o.reduceOnly,
    stpMode: o.stpMode,
    externalOid: o.externalOid,
    isBuy: o.isBuy,
    bookSide: o.bookSide,
    closing: o.closing,
    displayPrice: o.displayPrice,
    priceTicks: o.priceTicks,
    lots: o.lots,
    dealLots: o.dealLots,
    dealCost: o.dealCost,
    frozenUnits: o.frozenUnits,
    frozenGrains: o.frozenGrains,
    frozenGrain: o.frozenGrain,
    reservedPosition: o.reservedPosition,
    usedMargin,
    takerFeeUnits: o.takerFeeUnits,
    makerFeeUnits: o.makerFeeUnits,
    profitUnits: o.profitUnits,
    takerFeeGrains: o.takerFeeGrains,
    makerFeeGrains: o.makerFeeGrains,
    profitGrains: o.profitGrains,
    moneyGrain: o.moneyGrain,
    state: o.state,
    errorCode: o.errorCode,
    positionId: o.positionId,
    createTime: o.createTime,
    updateTime: o.updateTime,
    cancelReason: o.cancelReason,
  };
}

export class ContractViewBuilder implements EventViews<PositionMoment> {
  constructor(
    private readonly s: ContractVenueState,
    private readonly money: VenueMoney,
  ) {}

  orderView(o: OrderState): ContractOrderView {
    const spec = o.market.spec;
    return {
      accountId: o.account.id,
      orderId: o.id,
      symbol: spec.symbol,
      positionId: o.positionId,
      price: o.displayPrice,
      vol: spec.lotsToVol(o.lots),
      leverage: o.leverage,
      side: o.side,
      category: o.category,
      orderType: o.type,
      dealAvgPrice: spec.averagePrice(bigOf(o.dealCost), o.dealLots),
      dealVol: spec.lotsToVol(o.dealLots),
      orderMargin: decimalOfUnits(frozenOf(o)),
      usedMargin: usedMarginOf(o),
      takerFee: decimalOfParts(o.takerFeeUnits, o.takerFeeGrains, o.moneyGrain),
      makerFee: decimalOfParts(o.makerFeeUnits, o.makerFeeGrains, o.moneyGrain),
      profit: decimalOfParts(o.profitUnits, o.profitGrains, o.moneyGrain),
      feeCurrency: spec.settleCoin,
      openType: o.openType,
      state: o.state,
      externalOid: o.externalOid,
      errorCode: o.errorCode,
      createTime: o.createTime,
      updateTime: o.updateTime,
      positionMode: o.positionMode,
      reduceOnly: o.reduceOnly,
      stpMode: o.stpMode,
      cancelReason: o.cancelReason,
    };
  }

  /**
   * A copy of the order as it is now, for an event to build its view from when read (its amounts are
   * plain values but for the used-margin cell, copied too): an event is read after its command, and the
   * order may have filled or been cancelled since.
   */
  orderCopy(o: OrderState): OrderState {
    return copyOfOrder(o);
  }

  /**
   * The view a placement answers with: the same fields as orderView, built when first read (most
   * callers read an id and a state, or nothing), showing this moment (lazy-order-view.ts).
   */
  placedOrderView(o: OrderState): ContractOrderView {
    const final =
      o.state === ContractOrderState.COMPLETED || o.state === ContractOrderState.CANCELLED || o.state === ContractOrderState.INVALID;
    return new LazyOrderView(final ? o : copyOfOrder(o), this.buildOrderView);
  }

  private readonly buildOrderView = (o: OrderState): ContractOrderView => this.orderView(o);

  heldView(acct: AccountState, p: ContractPosition): HeldPositionView {
    return {
      symbol: p.spec.symbol,
      positionType: p.positionType,
      openType: p.openType,
      holdVol: p.spec.lotsToVol(p.holdLots),
      holdAvgPriceFullyScale: p.holdAvgPrice(),
      liquidatePrice: this.displayLiquidationPrice(acct, p),
      im: p.im,
      holdFee: p.holdFee,
      realised: p.realised(),
      totalFee: p.totalFee,
      leverage: p.leverage,
      updateTime: p.updateTime,
    };
  }

  /** The liquidation price a view shows: isolated, open, not the fund's; rounded to the tick against the account. */
  private displayLiquidationPrice(acct: { readonly exempt: boolean }, p: ContractPosition): Decimal | undefined {
    if (p.holdLots <= 0 || p.openType !== OpenType.ISOLATED || acct.exempt) return undefined;
    const exact = liquidationPrice(p.figures(), this.s.tierOf(p.spec, p.holdLots).mmr);
    return exact === undefined ? undefined : p.spec.ticksToPrice(p.spec.priceToTicks(exact, p.isLong ? 'up' : 'down'));
  }

  positionView(acct: AccountState, p: ContractPosition): ContractPositionView {
    return this.positionViewAt(this.momentOf(acct, p));
  }

  /**
   * What a position's view reads beyond the position itself, at this moment: the mark, whether the
   * account is exempt, and for a cross position the account's equity and maintenance (in units when
   * exact, else the ratio itself). With a copy of the position, the view can be built later and still
   * show this moment.
   */
  private momentOf(acct: AccountState, p: ContractPosition): PositionMoment {
    const mark = this.s.markPrice(this.s.markets.get(p.spec.symbol)!);
    let cross: PositionMoment['cross'];
    if (p.holdLots > 0 && mark && !acct.exempt && p.openType !== OpenType.ISOLATED) {
      cross = this.money.crossParts(acct, p.spec.settleCoin) ?? this.money.crossUnits(acct, p.spec.settleCoin);
      if (cross === undefined) {
        const c = this.money.crossOf(acct, p.spec.settleCoin);
        cross = c.equity.lte(0) ? ONE : c.maintenance.div(c.equity);
      }
    }
    return { accountId: acct.id, exempt: acct.exempt, position: p, mark, cross };
  }

  /** The view of a position at a moment (momentOf): what a position-changed event shows when read. */
  positionViewAt(at: PositionMoment): ContractPositionView {
    const p = at.position;
    const spec = p.spec;
    const mark = at.mark;
    const open = p.holdLots > 0;
    const tier = this.s.tierOf(spec, p.holdLots);
    const fig = p.figures();
    const upnl = open && mark ? unrealisedPnl(fig, mark) : ZERO;
    const liq = this.displayLiquidationPrice(at, p);
    let ratio = ZERO;
    if (open && mark && !at.exempt) {
      if (p.openType === OpenType.ISOLATED) ratio = marginRatio(fig, mark, tier.mmr);
      else ratio = crossRatioOf(at.cross!);
    }
    const hold = p.holdAvgPrice();
    const openAvg = p.openAvgPrice();
    const realised = p.realised();
    const booked = p.marginBooked;
    return {
      accountId: at.accountId,
      positionId: p.positionId,
      symbol: spec.symbol,
      positionType: p.positionType,
      openType: p.openType,
      state: p.state,
      holdVol: spec.lotsToVol(p.holdLots),
      frozenVol: spec.lotsToVol(p.frozenLots),
      closeVol: spec.lotsToVol(p.closedLots),
      holdAvgPrice: spec.displayPrice(hold),
      holdAvgPriceFullyScale: hold,
      openAvgPrice: spec.displayPrice(openAvg),
      openAvgPriceFullyScale: openAvg,
      closeAvgPrice: spec.displayPrice(p.closeAvgPrice()),
      liquidatePrice: liq,
      oim: p.oim,
      im: p.im,
      holdFee: p.holdFee,
      realised,
      closeProfitLoss: p.closePnl,
      fee: p.totalFee,
      totalFee: p.totalFee,
      profitRatio: booked.gt(0) ? realised.div(booked).toDecimalPlaces(4, Decimal.ROUND_HALF_UP) : ZERO,
      leverage: p.leverage,
      marginRatio: ratio.toDecimalPlaces(4, Decimal.ROUND_HALF_UP),
      autoAddIm: p.autoAddIm,
      unrealised: upnl,
      riskLevel: tier.level,
      createTime: p.createTime,
      updateTime: p.updateTime,
    };
  }

  assetView(acct: AccountState, w: Wallet): ContractAssetView {
    let positionMargin = ZERO;
    let unrealized = ZERO;
    for (const p of acct.positions.values()) {
      if (p.spec.settleCoin !== w.currency) continue;
      positionMargin = positionMargin.add(p.im);
      const mark = this.s.markPrice(this.s.markets.get(p.spec.symbol)!);
      if (mark) unrealized = unrealized.add(unrealisedPnl(p.figures(), mark));
    }
    const available = this.money.availableOpen(acct, w.currency);
    const cash = w.free.add(w.frozen).add(positionMargin);
    return {
      currency: w.currency,
      positionMargin,
      frozenBalance: w.frozen,
      availableBalance: available,
      cashBalance: cash,
      equity: cash.add(unrealized),
      unrealized,
      bonus: ZERO,
      availableCash: available,
      availableOpen: available,
    };
  }

  fillView(acct: AccountState, f: FillRecord): ContractFillView {
    const m = this.s.markets.get(f.symbol)!;
    const spec = m.spec;
    return {
      tradeId: f.tradeId,
      accountId: acct.id,
      orderId: f.orderId,
      symbol: spec.symbol,
      side: f.side,
      price: spec.ticksToPrice(f.priceTicks),
      vol: spec.lotsToVol(f.lots),
      taker: f.taker,
      fee: decimalOfParts(f.feeUnits, f.feeGrains, f.grain),
      feeCurrency: spec.settleCoin,
      profit: decimalOfParts(f.profitUnits, f.profitGrains, f.grain),
      closeVol: spec.lotsToVol(f.closeLots),
      openVol: spec.lotsToVol(f.openLots),
      positionIds: f.positionIds,
      time: f.time,
    };
  }

  /** GET position/leverage's rows: one per position side. */
  leverageRows(acct: AccountState | undefined, m: MarketState): LeverageView[] {
    return [PositionType.LONG, PositionType.SHORT].map((pt) => this.leverageRow(acct, m, pt));
  }

  leverageRow(acct: AccountState | undefined, m: MarketState, pt: PositionType): LeverageView {
    const spec = m.spec;
    const inst = spec.instrument;
    const mode = acct?.positionMode ?? this.s.defaultPositionMode;
    const key = sideKey(mode, spec.symbol, pt);
    const pos = acct?.positions.get(posKey(spec.symbol, pt));
    const setting = acct?.settings.get(key);
    const size = acct ? (pos?.holdLots ?? 0) + this.s.pendingOpenLots(acct, spec.symbol, pt) : 0;
    const tier = this.s.tierOf(spec, size);
    const lev = pos?.leverage ?? setting?.leverage ?? Math.max(inst.minLeverage, Math.min(inst.maxLeverage, this.s.defaultLeverage));
    const openType =
      pos?.openType ?? setting?.openType ?? (inst.positionOpenType === PositionOpenType.CROSS ? OpenType.CROSS : OpenType.ISOLATED);
    return {
      level: tier.level,
      maxVol: tier.maxVol,
      mmr: tier.mmr,
      imr: tier.imr,
      positionType: pt,
      openType,
      leverage: lev,
      limitBySys: false,
      currentMmr: tier.mmr,
      maxLeverageView: tier.maxLeverage,
    };
  }

  /**
   * Queues a position-changed event whose view is built when first read (two per fill, they were half
   * of a listened fill's cost), from a copy of the position and the moment's mark and cross figures:
   * events are delivered after the command, so the live position may have moved on by then.
   */
  emitPosition(acct: AccountState, p: ContractPosition): void {
    accountChanged(acct);
    if (!this.s.wants('PositionChanged')) return;
    this.s.emitEvent(new PositionChangedEvent(this.s.clock.now(), this.momentOf(acct, p.copy()), this));
  }
}

/** A position view's inputs at one moment (see ContractViewBuilder.momentOf). */
export interface PositionMoment {
  readonly accountId: AccountId;
  readonly exempt: boolean;
  readonly position: ContractPosition;
  readonly mark: Decimal | undefined;
  /**
   * A cross position's account figures: equity and maintenance in units (in two parts, or as bigints),
   * or the ratio when not exact; else undefined.
   */
  readonly cross: CrossParts | { readonly equity: bigint; readonly maintenance: bigint } | Decimal | undefined;
}

function crossRatioOf(cross: NonNullable<PositionMoment['cross']>): Decimal {
  if (cross instanceof Decimal) return cross;
  const { equity, maintenance } = cross instanceof CrossParts ? cross.units() : cross;
  return equity <= 0n ? ONE : decimalOfUnits(maintenance).div(decimalOfUnits(equity));
}
