/**
 * Trigger (plan) orders: planorder/place, place/v2, change_stop_order, cancel, cancel_all and
 * list/orders.
 *
 * A plan order waits, without reserving margin, until the price of its trend (1 latest, 2 fair,
 * 3 index) satisfies triggerType against triggerPrice (1: ≥, 2: ≤), then places its order (orderType
 * 1–5, at `price` unless market) through the normal order path, with the TP/SL it carries (v2 /
 * change_stop_order). Placed → executed (3) with orderId; refused → failed (5) with the order
 * errorCode. It is valid for `executeCycle` hours from its creation: past that it is invalid (4) and
 * never fires — the expiry is a function of time, applied on the first price update or command after
 * it and shown by every view at once (state 4, updateTime = the expiry time).
 *
 * The order parameters are checked at placement as order/create checks them (without the price band,
 * which applies when the order is placed); what depends on the account at trigger time (balance,
 * position to close, leverage of an existing position) is checked then.
 */
import type { Decimal } from '../../../src/core/decimal.js';
import { accountId as venueAccount } from '../../../src/core/ids.js';
import {
  ContractOrderType,
  ContractState,
  PlanOrderState,
  PositionType,
  TriggerType,
  type ContractSide,
  type OpenType,
  type PositionMode,
  type PriceTrend,
} from '../../../src/domain/contract-enums.js';
import { CANCEL_ERROR_MSG, CancelErrorCode, ContractVenueCode } from '../../../src/venue/contract/contract-codes.js';
import type { PriceUpdate } from '../../../src/venue/contract/contract-events.js';
import type { CancelResultEntry, VenueResult } from '../../../src/venue/contract/contract-requests.js';
import type { Page } from '../../../src/venue/contract/contract-views.js';
import { parseTicks, safeDecimal, validateOrderRequest } from '../reference-order-validation.js';
import { checkDirection, parsePair, refuse, type TpSlPair } from './tpsl-rules.js';
import { isTrend, priceKindOf, reached } from './trigger-prices.js';
import type {
  ChangePlanStopOrderRequest,
  PlacePlanOrderRequest,
  PlanOrderRef,
  PlanOrdersQuery,
} from '../../../src/venue/contract/triggers/trigger-requests.js';
import { inTimeRange, pageOf, RecordStore, type TriggerRecord, type TriggerRegistry } from './trigger-store.js';
import type { PlanOrderView } from '../../../src/venue/contract/triggers/trigger-views.js';

const HOUR_MS = 3_600_000;

export interface PlanRecord extends TriggerRecord {
  readonly kind: 'plan';
  readonly leverage: number | undefined;
  readonly side: ContractSide;
  readonly volLots: number;
  /** Execution price; 0 when a market plan order gave none. */
  readonly price: Decimal;
  readonly openType: OpenType;
  readonly triggerPrice: Decimal;
  readonly triggerType: TriggerType;
  readonly trend: PriceTrend;
  readonly orderType: ContractOrderType;
  state: PlanOrderState;
  readonly executeCycle: number;
  readonly expireTime: number;
  orderId: string | undefined;
  errorCode: number;
  readonly positionMode: PositionMode | undefined;
  readonly reduceOnly: boolean;
  readonly priceProtect: 0 | 1;
  /** What the TP/SL legs are checked against: the execution price, or the trigger price for market. */
  readonly reference: Decimal;
  readonly positionType: PositionType;
  readonly opening: boolean;
  lossTrend: PriceTrend | undefined;
  profitTrend: PriceTrend | undefined;
  stopLossPrice: Decimal | undefined;
  takeProfitPrice: Decimal | undefined;
  readonly createTime: number;
  updateTime: number;
}

export class PlanOrders {
  private readonly store: RecordStore<PlanRecord>;

  constructor(private readonly reg: TriggerRegistry) {
    this.store = new RecordStore(reg.host.historyLimit, (r) => r.state !== PlanOrderState.UNTRIGGERED);
  }

  /** POST planorder/place and place/v2. */
  place(accountId: string, req: PlacePlanOrderRequest): VenueResult<PlanOrderView> {
    const venue = this.reg.host.venue;
    const spec = this.reg.spec(req.symbol);
    if (spec === undefined) return refuse(ContractVenueCode.CONTRACT_NOT_EXIST, 'contract does not exist');
    if (spec.instrument.state !== ContractState.ENABLED)
      return refuse(ContractVenueCode.CONTRACT_NOT_ACTIVATED, 'contract not allowed to place orders');
    if (![1, 2, 3, 4, 5].includes(req.orderType)) return refuse(ContractVenueCode.PARAMETER, 'orderType must be 1–5');
    const checked = validateOrderRequest(
      {
        symbol: req.symbol,
        price: req.price,
        vol: req.vol,
        leverage: req.leverage,
        side: req.side,
        type: req.orderType,
        openType: req.openType,
        positionMode: req.positionMode,
        reduceOnly: req.reduceOnly,
      },
      spec,
      venue.positionMode(accountId),
      undefined,
    );
    if (!checked.ok) return checked;
    const triggerPrice = safeDecimal(req.triggerPrice);
    if (triggerPrice === undefined || !triggerPrice.gt(0))
      return refuse(ContractVenueCode.PARAMETER, 'triggerPrice must be a decimal number > 0');
    if (parseTicks(spec, triggerPrice) === undefined)
      return refuse(ContractVenueCode.PRICE_OR_QUANTITY_ACCURACY, `triggerPrice must be a multiple of priceUnit ${spec.tick.toString()}`);
    if (req.triggerType !== TriggerType.GTE && req.triggerType !== TriggerType.LTE)
      return refuse(ContractVenueCode.PARAMETER, 'triggerType must be 1 (>=) or 2 (<=)');
    if (!isTrend(req.trend)) return refuse(ContractVenueCode.PRICE_TYPE_ERROR, 'trend must be 1, 2 or 3 (latest, fair, index price)');
    if (!Number.isInteger(req.executeCycle) || req.executeCycle <= 0)
      return refuse(ContractVenueCode.PARAMETER, 'executeCycle must be a whole number of hours > 0');
    const priceProtect = req.priceProtect ?? 0;
    if (priceProtect !== 0 && priceProtect !== 1) return refuse(ContractVenueCode.PARAMETER, 'priceProtect must be 0 or 1');
    const v = checked.value;
    const reference = v.priceTicks > 0 ? v.displayPrice : triggerPrice;
    const pair = this.tpsl(spec.instrument.symbol, req, !v.closing, v.positionType, reference);
    if (!pair.ok) return pair;
    const now = this.reg.host.clock.now();
    const { seq, id } = this.reg.next();
    const rec: PlanRecord = {
      kind: 'plan',
      seq,
      id,
      account: venueAccount(accountId),
      symbol: spec.symbol,
      spec,
      leverage: req.leverage,
      side: v.side,
      volLots: v.lots,
      price: v.displayPrice,
      openType: v.openType,
      triggerPrice,
      triggerType: req.triggerType,
      trend: req.trend,
      orderType: req.orderType,
      state: PlanOrderState.UNTRIGGERED,
      executeCycle: req.executeCycle,
      expireTime: now + req.executeCycle * HOUR_MS,
      orderId: undefined,
      errorCode: 0,
      positionMode: req.positionMode,
      reduceOnly: v.reduceOnly,
      priceProtect,
      reference,
      positionType: v.positionType,
      opening: !v.closing,
      lossTrend: pair.value?.stopLoss.price !== undefined ? pair.value.stopLoss.trend : undefined,
      profitTrend: pair.value?.takeProfit.price !== undefined ? pair.value.takeProfit.trend : undefined,
      stopLossPrice: pair.value?.stopLoss.price,
      takeProfitPrice: pair.value?.takeProfit.price,
      createTime: now,
      updateTime: now,
    };
    this.store.add(rec);
    this.reg.activate(rec);
    this.emit(rec);
    return { ok: true, value: this.view(rec, now) };
  }

  /**
   * POST planorder/change_stop_order (§4.5): a price > 0 sets its leg and then its trend must be 1–3
   * (3001 otherwise; omitted means 1); a price null or 0 cancels its leg.
   */
  changeStopOrder(accountId: string, req: ChangePlanStopOrderRequest): VenueResult<PlanOrderView> {
    const now = this.reg.host.clock.now();
    const rec = this.store.get(accountId, req.orderId);
    if (rec === undefined || rec.symbol !== req.symbol) return refuse(ContractVenueCode.ORDER_NOT_EXIST, 'plan order not exist');
    this.expireIfDue(rec, now);
    if (rec.state !== PlanOrderState.UNTRIGGERED)
      return refuse(ContractVenueCode.ORDER_NOT_CANCELLABLE, 'the plan order is no longer untriggered');
    const pair = this.tpsl(rec.symbol, req, rec.opening, rec.positionType, rec.reference);
    if (!pair.ok) return pair;
    rec.stopLossPrice = pair.value?.stopLoss.price;
    rec.lossTrend = rec.stopLossPrice !== undefined ? pair.value!.stopLoss.trend : undefined;
    rec.takeProfitPrice = pair.value?.takeProfit.price;
    rec.profitTrend = rec.takeProfitPrice !== undefined ? pair.value!.takeProfit.trend : undefined;
    this.touch(rec, now);
    return { ok: true, value: this.view(rec, now) };
  }

  /** POST planorder/cancel: per element 0, 2040 (unknown or another contract), 2041 (not untriggered). */
  cancel(accountId: string, refs: readonly PlanOrderRef[]): CancelResultEntry[] {
    const now = this.reg.host.clock.now();
    return refs.map((ref) => {
      const rec = this.store.get(accountId, ref.orderId);
      if (rec === undefined || (ref.symbol !== undefined && ref.symbol !== '' && rec.symbol !== ref.symbol))
        return cancelEntry(String(ref.orderId), CancelErrorCode.NOT_EXIST);
      this.expireIfDue(rec, now);
      if (rec.state !== PlanOrderState.UNTRIGGERED) return cancelEntry(rec.id, CancelErrorCode.NOT_CANCELLABLE);
      this.finish(rec, PlanOrderState.CANCELLED, now);
      return cancelEntry(rec.id, CancelErrorCode.OK);
    });
  }

  /** POST planorder/cancel_all: untriggered plan orders of a contract, or of every contract. */
  cancelAll(accountId: string, symbol?: string): number {
    const now = this.reg.host.clock.now();
    let n = 0;
    for (const rec of [...this.store.list(accountId)]) {
      if (symbol && rec.symbol !== symbol) continue;
      this.expireIfDue(rec, now);
      if (rec.state !== PlanOrderState.UNTRIGGERED) continue;
      this.finish(rec, PlanOrderState.CANCELLED, now);
      n++;
    }
    return n;
  }

  /** GET planorder/list/orders, newest first (states as of now: an expired one shows 4). */
  list(accountId: string, q: PlanOrdersQuery = {}): Page<PlanOrderView> {
    const now = this.reg.host.clock.now();
    const all = this.store.list(accountId);
    const out: PlanRecord[] = [];
    for (let i = all.length - 1; i >= 0; i--) {
      const r = all[i]!;
      if (q.symbol && r.symbol !== q.symbol) continue;
      if (q.states && q.states.length > 0 && !q.states.includes(stateAt(r, now))) continue;
      if (!inTimeRange(r.createTime, q.startTime, q.endTime)) continue;
      out.push(r);
    }
    return pageOf(out, q, (r) => this.view(r, now));
  }

  get(accountId: string, id: string | number): PlanOrderView | undefined {
    const r = this.store.get(accountId, id);
    return r ? this.view(r, this.reg.host.clock.now()) : undefined;
  }

  count(accountId: string, symbol?: string): number {
    const now = this.reg.host.clock.now();
    let n = 0;
    for (const r of this.store.list(accountId)) if (stateAt(r, now) === PlanOrderState.UNTRIGGERED && (!symbol || r.symbol === symbol)) n++;
    return n;
  }

  evaluate(rec: PlanRecord, u: PriceUpdate): void {
    if (this.expireIfDue(rec, u.time)) return;
    if (u.kind !== priceKindOf(rec.trend) || !reached(u.price, rec.triggerPrice, rec.triggerType)) return;
    this.reg.deactivate(rec);
    const spec = rec.spec;
    const r = this.reg.host.venue.placeOrder(rec.account, {
      symbol: rec.symbol,
      price: rec.price.gt(0) ? rec.price.toFixed() : undefined,
      vol: spec.lotsToVol(rec.volLots).toFixed(),
      leverage: rec.leverage,
      side: rec.side,
      type: rec.orderType,
      openType: rec.openType,
      positionMode: rec.positionMode,
      reduceOnly: rec.reduceOnly ? true : undefined,
      stopLossPrice: rec.stopLossPrice?.toFixed(),
      takeProfitPrice: rec.takeProfitPrice?.toFixed(),
      lossTrend: rec.lossTrend,
      profitTrend: rec.profitTrend,
      priceProtect: rec.priceProtect,
    });
    rec.orderId = r.ok ? r.value.orderId : r.order?.orderId;
    rec.errorCode = r.ok ? 0 : r.errorCode;
    this.finish(rec, r.ok ? PlanOrderState.EXECUTED : PlanOrderState.FAILED, u.time);
  }

  records(): IterableIterator<PlanRecord> {
    return this.store.all();
  }

  isLive(rec: PlanRecord): boolean {
    return rec.state === PlanOrderState.UNTRIGGERED;
  }

  view(r: PlanRecord, now: number): PlanOrderView {
    const state = stateAt(r, now);
    return {
      accountId: r.account,
      id: r.id,
      symbol: r.symbol,
      leverage: r.leverage,
      side: r.side,
      vol: r.spec.lotsToVol(r.volLots),
      price: r.price,
      openType: r.openType,
      triggerPrice: r.triggerPrice,
      triggerType: r.triggerType,
      trend: r.trend,
      orderType: r.orderType,
      state,
      executeCycle: r.executeCycle,
      expireTime: r.expireTime,
      orderId: r.orderId,
      errorCode: r.errorCode,
      positionMode: r.positionMode,
      reduceOnly: r.reduceOnly,
      priceProtect: r.priceProtect,
      lossTrend: r.lossTrend,
      profitTrend: r.profitTrend,
      stopLossPrice: r.stopLossPrice,
      takeProfitPrice: r.takeProfitPrice,
      createTime: r.createTime,
      updateTime: state !== r.state ? r.expireTime : r.updateTime,
    };
  }

  /** The TP/SL the order placed on trigger will carry (undefined: none). */
  private tpsl(
    symbol: string,
    p: {
      stopLossPrice?: PlacePlanOrderRequest['stopLossPrice'];
      takeProfitPrice?: PlacePlanOrderRequest['takeProfitPrice'];
      lossTrend?: number | undefined;
      profitTrend?: number | undefined;
    },
    opening: boolean,
    positionType: PositionType,
    reference: Decimal,
  ): VenueResult<TpSlPair | undefined> {
    const pair = parsePair(this.reg.spec(symbol)!, p);
    if (!pair.ok) return pair;
    if (pair.value.stopLoss.price === undefined && pair.value.takeProfit.price === undefined) return { ok: true, value: undefined };
    if (!opening)
      return refuse(
        ContractVenueCode.PARAMETER,
        'take-profit / stop-loss can ride on opening plan orders only (side 1 or 3, not reduce-only)',
      );
    const bad = checkDirection(positionType, pair.value, () => reference);
    return bad ?? { ok: true, value: pair.value };
  }

  /** Applies the expiry once its time has come; true when the plan order is (now) invalid. */
  private expireIfDue(rec: PlanRecord, now: number): boolean {
    if (rec.state !== PlanOrderState.UNTRIGGERED || now < rec.expireTime) return rec.state === PlanOrderState.INVALID;
    this.finish(rec, PlanOrderState.INVALID, rec.expireTime);
    return true;
  }

  private finish(rec: PlanRecord, state: PlanOrderState, time: number): void {
    rec.state = state;
    this.reg.deactivate(rec);
    this.store.finished(rec);
    this.touch(rec, time);
  }

  private touch(rec: PlanRecord, time: number): void {
    rec.updateTime = time;
    this.emit(rec);
  }

  private emit(rec: PlanRecord): void {
    this.reg.host.emit(() => ({ type: 'PlanOrderChanged', time: rec.updateTime, planOrder: this.view(rec, rec.updateTime) }));
  }
}

const stateAt = (r: PlanRecord, now: number): PlanOrderState =>
  r.state === PlanOrderState.UNTRIGGERED && now >= r.expireTime ? PlanOrderState.INVALID : r.state;

function cancelEntry(orderId: string, code: CancelErrorCode): CancelResultEntry {
  return { orderId, errorCode: code, errorMsg: CANCEL_ERROR_MSG[code] };
}
