/**
 * Order commands: admission of a new order (parameter checks refused without a record, order-level
 * checks recorded as invalid, margin and liquidation-price previews), amendments and chases, cancels,
 * and the position commands that place market orders (reverse, close all). Matching is below.
 */
import { accountId as toAccountId } from '../../core/ids.js';
import {
  ContractOrderErrorCode,
  ContractOrderType,
  ContractSide,
  ContractState,
  OpenType,
  OrderCategory,
  PositionMode,
  PositionState,
  PositionType,
} from '../../domain/contract-enums.js';
import { ContractVenueCode } from './contract-codes.js';
import type {
  CancelResultEntry,
  ChangeLimitOrderRequest,
  ClosePositionResult,
  ExternalRef,
  PlaceOrderRequest,
  PlaceOrderTicksRequest,
  PlacedOrderTicks,
  Rejected,
  ReverseRequest,
  VenueResult,
} from './contract-requests.js';
import { ZERO, frozenOf, placedTicksOf, type AccountState, type MarketState, type OrderState } from './contract-state.js';
import type { ContractPosition } from './contract-position.js';
import type { ContractOrderView } from './contract-views.js';
import { initialMargin, liquidationPrice } from './margin-math.js';
import {
  parseLots,
  parseTicks,
  priceBand,
  validateOrderRequest,
  validateOrderTicks,
  type OrderFields,
  type PriceBand,
  type ValidatedOrder,
} from './order-validation.js';
import { posKey, sideKey, extKey, oppositeType } from './venue-keys.js';
import { netOf, refuse, INSURANCE_ACCOUNT_ID, type ContractVenueState } from './contract-venue-state.js';
import { rateTerms, type VenueMoney } from './venue-money.js';
import type { ContractViewBuilder } from './contract-view-builder.js';
import { isResting, type OrderMatching } from './order-matching.js';
import { OrderAcceptedEvent } from './lazy-events.js';
import { accountChanged } from './account-changes.js';

/** a + b, without a bigint operation when one is zero (an order that only rests or only takes: most). */
const sumUnits = (a: bigint, b: bigint): bigint => (a === 0n ? b : b === 0n ? a : a + b);

/** A refusal rather than an order (an order record has no `ok`). */
const isRejected = <T extends object>(r: T | Rejected): r is Rejected => (r as Rejected).ok === false;

/** The preview of an order that does not take (read only: one object for all of them). */
const NOTHING_TAKEN: { readonly lots: number; readonly quote: number } = { lots: 0, quote: 0 };

export class OrderPlacement {
  constructor(
    private readonly s: ContractVenueState,
    private readonly money: VenueMoney,
    private readonly views: ContractViewBuilder,
    private readonly matching: OrderMatching,
  ) {}

  /** POST order/create; a take-profit / stop-loss it carries becomes a stop order that follows its fills. */
  placeOrder(accountIdIn: string, req: PlaceOrderRequest): VenueResult<ContractOrderView> {
    let result: VenueResult<ContractOrderView>;
    // this.s.run without the closure (two per maker+taker cycle).
    this.s.enter();
    try {
      const tpsl = this.s.triggers.stops.prepareAttached(accountIdIn, req);
      if (tpsl !== undefined && !tpsl.ok) result = this.matching.reject(accountIdIn, tpsl.code, tpsl.message);
      else {
        result = this.place(accountIdIn, req, OrderCategory.LIMIT);
        if (tpsl !== undefined && result.ok) this.s.triggers.stops.attach(toAccountId(accountIdIn), result.value, tpsl.value);
      }
    } finally {
      this.s.exit();
    }
    this.s.deliver();
    return result;
  }

  /**
   * A placement in ticks and lots (PlaceOrderTicksRequest): the checks and matching of placeOrder on the
   * integers, without parsing decimals or building the order's view.
   */
  placeOrderTicks(accountIdIn: string, req: PlaceOrderTicksRequest): VenueResult<PlacedOrderTicks> {
    let result: VenueResult<PlacedOrderTicks>;
    this.s.enter();
    try {
      const m = this.marketFor(accountIdIn, req.symbol);
      if (isRejected(m)) result = m;
      else {
        const acct = this.s.account(accountIdIn);
        const o = this.admit(acct, m, req, validateOrderTicks(req, m.spec, acct.positionMode, this.bandOf(m)), OrderCategory.LIMIT);
        result = isRejected(o) ? o : { ok: true, value: placedTicksOf(o) };
      }
    } finally {
      this.s.exit();
    }
    this.s.deliver();
    return result;
  }

  /** POST order/change_limit_order: new price and total vol; margin and position re-checked. */
  changeLimitOrder(accountIdIn: string, req: ChangeLimitOrderRequest): VenueResult<ContractOrderView> {
    let result: VenueResult<ContractOrderView> | undefined;
    this.s.run(() => {
      result = this.amend(accountIdIn, req, false);
    });
    return result!;
  }

  /** POST order/chase_limit_order: moves the price to the best price of the order's own side. */
  chaseLimitOrder(accountIdIn: string, orderIdIn: string): VenueResult<ContractOrderView> {
    let result: VenueResult<ContractOrderView> | undefined;
    this.s.run(() => {
      const acct = this.s.accounts.get(accountIdIn);
      const o = acct ? this.s.orders.get(String(orderIdIn)) : undefined;
      if (acct === undefined || o === undefined || o.account !== acct) {
        result = refuse(ContractVenueCode.ORDER_NOT_EXIST, 'order not exist');
        return;
      }
      if (!this.s.isOpen(o) || !o.market.book.has(o.id)) {
        result = refuse(ContractVenueCode.ORDER_NOT_CANCELLABLE, 'order state does not allow changes');
        return;
      }
      const best = o.isBuy ? o.market.book.bestBid() : o.market.book.bestAsk();
      if (best === undefined || best === o.priceTicks) {
        result = { ok: true, value: this.views.orderView(o) };
        return;
      }
      result = this.amend(
        accountIdIn,
        { orderId: o.id, price: o.market.spec.ticksToPrice(best), vol: o.market.spec.lotsToVol(o.lots) },
        true,
      );
    });
    return result!;
  }

  cancelOrders(accountIdIn: string, orderIds: readonly (string | number)[]): CancelResultEntry[] {
    const out: CancelResultEntry[] = [];
    this.s.run(() => {
      const acct = this.s.accounts.get(accountIdIn);
      for (const raw of orderIds) {
        const id = String(raw);
        const o = this.s.orders.get(id);
        out.push(this.matching.cancelOne(acct, o, id, 'user'));
      }
    });
    return out;
  }

  cancelWithExternal(accountIdIn: string, refs: readonly ExternalRef[]): CancelResultEntry[] {
    const out: CancelResultEntry[] = [];
    this.s.run(() => {
      const acct = this.s.accounts.get(accountIdIn);
      for (const ref of refs) {
        const o = acct ? this.s.findByExternal(acct, ref.symbol, ref.externalOid) : undefined;
        out.push(this.matching.cancelOne(acct, o, o?.id ?? ref.externalOid, 'user'));
      }
    });
    return out;
  }

  /** POST order/cancel_all: one contract, or every contract when symbol is empty / omitted. */
  cancelAll(accountIdIn: string, symbol?: string): number {
    let n = 0;
    this.s.run(() => {
      const acct = this.s.accounts.get(accountIdIn);
      if (acct === undefined) return;
      for (const o of [...acct.openOrders.values()]) {
        if (symbol && o.market.spec.symbol !== symbol) continue;
        this.matching.cancelInternal(o, 'cancel_all');
        n++;
      }
    });
    return n;
  }

  /**
   * POST position/reverse: closes `vol` of the position at market and opens the same vol the other
   * way (hedged: two market orders; one-way: one market order of twice the vol).
   */
  reversePosition(accountIdIn: string, req: ReverseRequest): VenueResult<readonly ContractOrderView[]> {
    let result: VenueResult<readonly ContractOrderView[]> | undefined;
    this.s.run(() => {
      const found = this.s.findPosition(accountIdIn, req.positionId);
      if (found === undefined || found.position.spec.symbol !== req.symbol) {
        result = refuse(ContractVenueCode.POSITION_NOT_EXIST, 'position does not exist or is closed');
        return;
      }
      const { account: acct, position: pos } = found;
      const lots = parseLots(pos.spec, req.vol);
      if (lots === undefined || lots <= 0) {
        result = refuse(ContractVenueCode.PARAMETER, 'vol must be a positive multiple of volUnit');
        return;
      }
      if (lots > pos.availableLots) {
        result = refuse(ContractVenueCode.QUANTITY_INSUFFICIENT, 'available position too small', ContractOrderErrorCode.POSITION_TOO_SMALL);
        return;
      }
      const symbol = pos.spec.symbol;
      const vol = pos.spec.lotsToVol(lots);
      const base = { symbol, type: ContractOrderType.MARKET, openType: pos.openType, leverage: pos.leverage } as const;
      if (acct.positionMode === PositionMode.ONE_WAY) {
        const r = this.place(
          acct.id,
          { ...base, vol: pos.spec.lotsToVol(2 * lots), side: pos.isLong ? ContractSide.OPEN_SHORT : ContractSide.OPEN_LONG },
          OrderCategory.LIMIT,
        );
        result = r.ok ? { ok: true, value: [r.value] } : r;
        return;
      }
      const close = this.place(
        acct.id,
        { ...base, vol, side: pos.isLong ? ContractSide.CLOSE_LONG : ContractSide.CLOSE_SHORT },
        OrderCategory.LIMIT,
      );
      if (!close.ok) {
        result = close;
        return;
      }
      const open = this.place(
        acct.id,
        { ...base, vol, side: pos.isLong ? ContractSide.OPEN_SHORT : ContractSide.OPEN_LONG },
        OrderCategory.LIMIT,
      );
      result = open.ok ? { ok: true, value: [close.value, open.value] } : open;
    });
    return result!;
  }

  /** POST position/close_all: cancels each position's close orders and closes it at market. */
  closeAll(accountIdIn: string): ClosePositionResult[] {
    const out: ClosePositionResult[] = [];
    this.s.run(() => {
      const acct = this.s.accounts.get(accountIdIn);
      if (acct === undefined || acct.exempt) return;
      for (const pos of [...acct.positions.values()]) {
        if (pos.state !== PositionState.HOLDING || pos.holdLots === 0) continue;
        for (const o of [...acct.openOrders.values()]) if (o.reservedPosition === pos) this.matching.cancelInternal(o, 'close_all');
        const side = pos.isLong ? ContractSide.CLOSE_LONG : ContractSide.CLOSE_SHORT;
        const r = this.place(
          acct.id,
          { symbol: pos.spec.symbol, vol: pos.spec.lotsToVol(pos.holdLots), side, type: ContractOrderType.MARKET, openType: pos.openType },
          OrderCategory.LIMIT,
        );
        out.push({ positionId: pos.positionId, result: r });
      }
    });
    return out;
  }

  private place(accountIdIn: string, req: PlaceOrderRequest, category: OrderCategory): VenueResult<ContractOrderView> {
    const m = this.marketFor(accountIdIn, req.symbol);
    if (isRejected(m)) return m;
    const acct = this.s.account(accountIdIn);
    const o = this.admit(acct, m, req, validateOrderRequest(req, m.spec, acct.positionMode, this.bandOf(m)), category);
    return isRejected(o) ? o : { ok: true, value: this.views.placedOrderView(o) };
  }

  /** The contract of a placement, or its refusal before any check of the request (no such contract, not tradable, the reserved account). */
  private marketFor(accountIdIn: string, symbol: string): MarketState | Rejected {
    const m = this.s.markets.get(symbol);
    if (m === undefined) return this.matching.reject(accountIdIn, ContractVenueCode.CONTRACT_NOT_EXIST, 'contract does not exist');
    const inst = m.spec.instrument;
    if (inst.state !== ContractState.ENABLED || (this.s.enforceApiAllowed && !inst.apiAllowed)) {
      return this.matching.reject(accountIdIn, ContractVenueCode.CONTRACT_NOT_ACTIVATED, 'contract not allowed to place orders');
    }
    if (accountIdIn === INSURANCE_ACCOUNT_ID) return this.matching.reject(accountIdIn, ContractVenueCode.PARAMETER, 'reserved account');
    return m;
  }

  /** The price band limit orders are checked against, when the venue enforces one. */
  private bandOf(m: MarketState): PriceBand | undefined {
    return this.s.enforcePriceBand ? priceBand(m.spec, m.fairPrice) : undefined;
  }

  /**
   * A placement after its parameter checks (in decimals or in ticks: validateOrderRequest,
   * validateOrderTicks): the order-level checks, then the accepted order matched. Answers the order
   * (accepted: resting, filled or cancelled by its type) or the refusal.
   */
  private admit(
    acct: AccountState,
    m: MarketState,
    req: OrderFields,
    checked: VenueResult<ValidatedOrder>,
    category: OrderCategory,
  ): OrderState | Rejected {
    const now = this.s.clock.now();
    const spec = m.spec;
    const inst = spec.instrument;
    const mode = acct.positionMode;
    // ── parameter checks: refused without an order record
    if (!checked.ok) return this.matching.reject(acct.id, checked.code, checked.message);
    const { type, lots, isBuy, closing, positionType, stpMode, reduceOnly, priceTicks, displayPrice } = checked.value;
    if (req.externalOid !== undefined && req.externalOid !== '' && acct.openByExternal.has(extKey(spec.symbol, req.externalOid))) {
      return this.matching.reject(acct.id, ContractVenueCode.PARAMETER, 'externalOid already used by an open order');
    }
    const oneWay = mode === PositionMode.ONE_WAY;
    // Only orders that can rest count against the limit (IOC, FOK and market orders never stay open).
    if (category === OrderCategory.LIMIT && isResting(type) && this.s.openCount(acct, spec.symbol) >= spec.maxNumOrders(oneWay)) {
      return this.matching.reject(
        acct.id,
        ContractVenueCode.PARAMETER,
        `at most ${spec.maxNumOrders(oneWay)} open orders per contract in this position mode`,
      );
    }
    const key = sideKey(mode, spec.symbol, positionType);

    let leverage: number;
    let openType: OpenType = req.openType;
    const target = acct.positions.get(posKey(spec.symbol, positionType));
    // One-way: the other side's position of an opening order, looked up once for the net position here
    // and the isolated liquidation check below (netPosition and that check looked up both sides again).
    let opposite: ContractPosition | undefined;
    // The side's settings of an opening order, read once for the checks and the update on acceptance.
    let setting: ReturnType<typeof acct.settings.get>;
    if (closing) {
      leverage = target?.leverage ?? req.leverage ?? 0;
      if (target) openType = target.openType;
    } else {
      if (oneWay) opposite = acct.positions.get(posKey(spec.symbol, oppositeType(positionType)));
      const existing = oneWay ? (positionType === PositionType.LONG ? netOf(target, opposite) : netOf(opposite, target)) : target;
      setting = acct.settings.get(key);
      const busy = existing !== undefined || this.s.hasOpeningOrders(acct, spec.symbol, key);
      const lev = req.leverage ?? existing?.leverage ?? setting?.leverage;
      if (lev === undefined) return this.matching.reject(acct.id, ContractVenueCode.PARAMETER, 'leverage is required when opening');
      if (!Number.isInteger(lev) || lev < inst.minLeverage || lev > inst.maxLeverage) {
        return this.matching.reject(
          acct.id,
          ContractVenueCode.LEVERAGE_ERROR,
          `leverage must be an integer within [${inst.minLeverage}, ${inst.maxLeverage}]`,
        );
      }
      if (busy) {
        const sideLev = existing?.leverage ?? setting?.leverage;
        const sideOpen = existing?.openType ?? setting?.openType;
        if (sideLev !== undefined && lev !== sideLev)
          return this.matching.reject(
            acct.id,
            ContractVenueCode.LEVERAGE_INCONSISTENT,
            `leverage ${lev} differs from the position side's leverage ${sideLev}`,
          );
        if (sideOpen !== undefined && req.openType !== sideOpen)
          return this.matching.reject(acct.id, ContractVenueCode.WRONG_OPEN_TYPE, 'open type differs from the position side');
      }
      leverage = lev;
    }

    // ── order-level checks: refused with an invalid (state 5) record
    const draft = this.matching.newOrder(
      acct,
      m,
      req,
      category,
      type,
      closing,
      leverage,
      openType,
      priceTicks,
      displayPrice,
      lots,
      stpMode,
      reduceOnly,
      now,
    );
    if (closing) {
      if (target === undefined) return this.matching.invalid(draft, ContractOrderErrorCode.POSITION_NOT_EXIST, 'position does not exist');
      if (
        req.positionId !== undefined &&
        req.positionId !== '' &&
        String(req.positionId) !== '0' &&
        String(req.positionId) !== target.positionId
      ) {
        return this.matching.invalid(draft, ContractOrderErrorCode.POSITION_NOT_EXIST, 'positionId does not match the position');
      }
      if (lots > target.availableLots)
        return this.matching.invalid(draft, ContractOrderErrorCode.POSITION_TOO_SMALL, 'available position too small');
      if (target.openType === OpenType.ISOLATED && priceTicks > 0) {
        const liq = liquidationPrice(target.figures(), this.s.tierOf(spec, target.holdLots).mmr);
        if (liq !== undefined && (target.isLong ? displayPrice.lt(liq) : displayPrice.gt(liq))) {
          return this.matching.invalid(draft, ContractOrderErrorCode.PRICE_BEYOND_LIQUIDATION, 'close price beyond the liquidation price');
        }
      }
    } else {
      const sizeLots = (target?.holdLots ?? 0) + this.s.pendingOpenLots(acct, spec.symbol, positionType) + lots;
      const tier = spec.tierForLots(sizeLots);
      if (tier === undefined || leverage > tier.maxLeverage)
        return this.matching.invalid(draft, ContractOrderErrorCode.RISK_LIMIT_EXCEEDED, 'risk limit exceeded for this leverage and size');
    }

    // Limit price for matching.
    const book = m.book;
    let limitTicks: number | undefined = priceTicks > 0 ? priceTicks : undefined;
    if (type === ContractOrderType.MARKET) {
      const band = priceBand(m.spec, m.fairPrice);
      limitTicks = band ? (isBuy ? band.maxBuy : band.minSell) : undefined;
    } else if (type === ContractOrderType.MARKET_TO_LIMIT) {
      const opp = isBuy ? book.bestAsk() : book.bestBid();
      const ref = opp ?? this.s.referenceTicks(m);
      if (ref === undefined)
        return this.matching.invalid(draft, ContractOrderErrorCode.PARAMETER, 'no current price to convert the market order to');
      limitTicks = ref;
      draft.priceTicks = ref;
      draft.displayPrice = spec.ticksToPrice(ref);
    }
    if (type === ContractOrderType.POST_ONLY && book.wouldCross(draft.bookSide, priceTicks)) {
      return this.matching.invalid(draft, ContractOrderErrorCode.PARAMETER, 'post only order would take liquidity');
    }
    const takes =
      type !== ContractOrderType.POST_ONLY &&
      (limitTicks === undefined ? (isBuy ? book.bestAsk() : book.bestBid()) !== undefined : book.wouldCross(draft.bookSide, limitTicks));
    // The self-trade check is a closure over the account: made only for an order that takes (an order
    // that only rests never reaches the book's matching, and half the placements of a maker+taker cycle rest).
    const stp = takes ? this.s.stpCheck(acct, stpMode) : undefined;
    const preview = stp !== undefined ? book.previewMatch(draft.bookSide, { limitTicks, lots }, stp) : NOTHING_TAKEN;
    const fokUnfilled = type === ContractOrderType.FOK && preview.lots < lots;

    if (!closing && !fokUnfilled) {
      const rates = this.money.rates(acct, spec);
      const restLots = isResting(type) ? lots - preview.lots : 0;
      // In grains of the rates when both parts are safe counts (no bigint), else in ledger units.
      const needGrains =
        this.money.takerReserveGrains(spec, preview.quote, leverage, rates) +
        this.money.restingReserveGrains(spec, draft.priceTicks, restLots, leverage, rates);
      const exceeds = Number.isSafeInteger(needGrains)
        ? this.money.exceedsAvailableGrains(acct, spec.settleCoin, needGrains, rateTerms(spec, rates, this.s.stepUnits).grains.grain)
        : this.money.exceedsAvailable(
            acct,
            spec.settleCoin,
            sumUnits(
              this.money.takerReserve(spec, preview.quote, leverage, rates),
              this.money.restingReserve(spec, draft.priceTicks, restLots, leverage, rates),
            ),
          );
      if (exceeds) return this.matching.invalid(draft, ContractOrderErrorCode.INSUFFICIENT_BALANCE, 'insufficient balance');
      const fair = m.fairPrice;
      if (openType === OpenType.ISOLATED && fair !== undefined && opposite === undefined) {
        const units = BigInt(preview.quote) + BigInt(draft.priceTicks) * BigInt(restLots);
        const addLots = preview.lots + restLots;
        if (addLots > 0) {
          const holdLots = (target?.holdLots ?? 0) + addLots;
          const costValue = spec.money((target?.holdCost ?? 0n) + units);
          const im = (target?.im ?? ZERO).add(initialMargin(spec.money(units), leverage, this.s.scale, 'floor'));
          const liq = liquidationPrice({ positionType, qty: spec.lotQty.mul(holdLots), costValue, im }, this.s.tierOf(spec, holdLots).mmr);
          if (liq !== undefined && (positionType === PositionType.LONG ? liq.gte(fair) : liq.lte(fair))) {
            return this.matching.invalid(
              draft,
              ContractOrderErrorCode.LIQUIDATION_BEYOND_FAIR,
              'the position would be liquidated at the current fair price',
            );
          }
        }
      }
    }

    // ── accepted
    this.matching.admit(draft);
    if (!closing) {
      // Orders keep the side's settings: a new object only when they change.
      if (setting === undefined || setting.leverage !== leverage || setting.openType !== openType)
        acct.settings.set(key, { leverage, openType });
    }
    if (closing) this.matching.reserveClose(draft, target!);
    if (this.s.wants('OrderAccepted')) {
      this.s.emitEvent(new OrderAcceptedEvent(now, this.views.orderCopy(draft), this.views));
    }
    if (fokUnfilled) this.matching.cancelInternal(draft, 'fok_unfilled');
    else this.matching.execute(draft, stp !== undefined ? limitTicks : null, stp);
    return draft;
  }

  private amend(accountIdIn: string, req: ChangeLimitOrderRequest, chase: boolean): VenueResult<ContractOrderView> {
    const acct = this.s.accounts.get(accountIdIn);
    const o = acct ? this.s.orders.get(String(req.orderId)) : undefined;
    if (acct === undefined || o === undefined || o.account !== acct) return refuse(ContractVenueCode.ORDER_NOT_EXIST, 'order not exist');
    if (!this.s.isOpen(o) || !o.market.book.has(o.id))
      return refuse(ContractVenueCode.ORDER_NOT_CANCELLABLE, 'order state does not allow changes');
    if (!isResting(o.type)) return refuse(ContractVenueCode.PARAMETER, 'only limit orders can be changed');
    const m = o.market;
    const spec = m.spec;
    const ticks = parseTicks(spec, req.price);
    if (ticks === undefined) return refuse(ContractVenueCode.PRICE_OR_QUANTITY_ACCURACY, 'price must be a positive multiple of priceUnit');
    const lots = parseLots(spec, req.vol);
    if (lots === undefined) return refuse(ContractVenueCode.PRICE_OR_QUANTITY_ACCURACY, 'vol is not a multiple of volUnit');
    if (lots <= o.dealLots || lots > spec.maxLots)
      return refuse(ContractVenueCode.PARAMETER, 'vol must exceed the filled vol and stay within maxVol');
    if (this.s.enforcePriceBand) {
      const band = priceBand(m.spec, m.fairPrice);
      if (band && (o.isBuy ? ticks > band.maxBuy : ticks < band.minSell))
        return refuse(ContractVenueCode.ORDER_PRICE_ERROR, 'price outside the allowed range of the fair price');
    }
    const oldRemaining = o.lots - o.dealLots;
    const newRemaining = lots - o.dealLots;
    const price = spec.ticksToPrice(ticks);
    if (o.closing) {
      const pos = o.reservedPosition!;
      if (newRemaining > pos.availableLots + oldRemaining)
        return refuse(ContractVenueCode.QUANTITY_INSUFFICIENT, 'available position too small', ContractOrderErrorCode.POSITION_TOO_SMALL);
      if (pos.openType === OpenType.ISOLATED) {
        const liq = liquidationPrice(pos.figures(), this.s.tierOf(spec, pos.holdLots).mmr);
        if (liq !== undefined && (pos.isLong ? price.lt(liq) : price.gt(liq))) {
          return refuse(
            ContractVenueCode.ORDER_PRICE_ERROR,
            'close price beyond the liquidation price',
            ContractOrderErrorCode.PRICE_BEYOND_LIQUIDATION,
          );
        }
      }
    } else {
      const direction = o.isBuy ? PositionType.LONG : PositionType.SHORT;
      const held = acct.positions.get(posKey(spec.symbol, direction))?.holdLots ?? 0;
      const size = held + this.s.pendingOpenLots(acct, spec.symbol, direction) - oldRemaining + newRemaining;
      const tier = spec.tierForLots(size);
      if (tier === undefined || o.leverage > tier.maxLeverage)
        return refuse(
          ContractVenueCode.RISK_LIMIT_LEVEL,
          'risk limit exceeded for this leverage and size',
          ContractOrderErrorCode.RISK_LIMIT_EXCEEDED,
        );
    }
    const book = m.book;
    const crosses = book.wouldCross(o.bookSide, ticks);
    if (crosses && o.type === ContractOrderType.POST_ONLY)
      return refuse(ContractVenueCode.PARAMETER, 'post only order would take liquidity');
    const stp = this.s.stpCheck(acct, o.stpMode);
    if (!o.closing) {
      // The preview walks the opposite side only, so the order's own resting copy does not interfere.
      const rates = this.money.rates(acct, spec);
      const preview = crosses ? book.previewMatch(o.bookSide, { limitTicks: ticks, lots: newRemaining }, stp) : { lots: 0, quote: 0 };
      const need =
        this.money.takerReserve(spec, preview.quote, o.leverage, rates) +
        this.money.restingReserve(spec, ticks, newRemaining - preview.lots, o.leverage, rates);
      if (this.money.exceedsAvailable(acct, spec.settleCoin, need, frozenOf(o))) {
        return refuse(ContractVenueCode.BALANCE_INSUFFICIENT, 'insufficient balance', ContractOrderErrorCode.INSUFFICIENT_BALANCE);
      }
    }
    const now = this.s.clock.now();
    accountChanged(acct);
    if (o.closing) o.reservedPosition!.frozenLots += newRemaining - oldRemaining;
    if (crosses) {
      book.cancel(o.id);
      this.money.unfreeze(o);
      o.lots = lots;
      o.priceTicks = ticks;
      o.displayPrice = price;
      o.updateTime = now;
      m.version++;
      if (this.s.wants('OrderAmended')) this.s.emit(() => ({ type: 'OrderAmended', time: now, order: this.views.orderView(o), chase }));
      this.matching.execute(o, ticks, stp);
    } else {
      book.amend(o.id, ticks, newRemaining);
      m.version++;
      this.money.unfreeze(o);
      o.lots = lots;
      o.priceTicks = ticks;
      o.displayPrice = price;
      o.updateTime = now;
      if (!o.closing) {
        const w = acct.wallet(spec.settleCoin);
        const need = this.money.orderMargin(o, newRemaining);
        w.freeCell.subUnits(need);
        w.frozenCell.addUnits(need);
        o.frozenUnits = need;
      }
      if (this.s.wants('OrderAmended')) this.s.emit(() => ({ type: 'OrderAmended', time: now, order: this.views.orderView(o), chase }));
    }
    return { ok: true, value: this.views.orderView(o) };
  }
}
