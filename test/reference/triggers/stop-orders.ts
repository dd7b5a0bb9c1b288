/**
 * Take-profit / stop-loss (stop) orders, contract-api.md §2.7 and §4.5.
 *
 * A stop order closes (part of) a position when the price its leg watches crosses the leg's price:
 * a long's take-profit fires at price ≥ takeProfitPrice, its stop-loss at price ≤ stopLossPrice; a
 * short's the other way round. The two legs are one-cancels-the-other: the first to fire finishes the
 * stop order (when both would fire on one update the stop-loss wins).
 *
 * Where it comes from:
 *  - order/create with stopLossPrice / takeProfitPrice: waits for its limit order (orderId set,
 *    positionId '0', vol 0) and follows its fills — each fill's opened contracts add to vol and bind
 *    the position. If the order ends without filling, the stop order is cancelled (2).
 *  - stoporder/change_price: the same on an existing open limit order, or replaces / cancels it.
 *  - stoporder/place: on an open position; volType 1 closes `vol` (or takeProfitVol / stopLossVol
 *    when SEPARATE), volType 2 closes whatever the position holds at trigger time. A new volType-2
 *    stop replaces the position's previous one (cancelled).
 *
 * On trigger it places a close order through the normal order path (market, or limit at the leg's
 * order price), of min(leg vol, the position's available vol); a position-level stop first cancels
 * the position's close orders so the whole position is available. Accepted → executed (3) with
 * placeOrderId and realityVol; refused or nothing available → failed (5) with the order errorCode.
 * With takeProfitReverse / stopLossReverse 1 it then opens the opposite position of the size that was
 * closed (market, the position's leverage and open type) — at once when the close order is final,
 * otherwise when it becomes final. A stop order whose position closes before it fires is invalid (4).
 */
import type { Decimal } from '../../../src/core/decimal.js';
import type { AccountId } from '../../../src/core/ids.js';
import {
  ContractOrderErrorCode,
  ContractOrderState,
  ContractOrderType,
  ContractSide,
  PositionType,
  PriceTrend,
  ReverseFlag,
  StopExecType,
  StopOrderState,
  StopVolType,
  TriggerSide,
  isOpenSide,
  sidePositionType,
  type OpenType,
  type ProfitLossVolType,
} from '../../../src/domain/contract-enums.js';
import { CANCEL_ERROR_MSG, CancelErrorCode, ContractVenueCode } from '../../../src/venue/contract/contract-codes.js';
import type { PriceUpdate } from '../../../src/venue/contract/contract-events.js';
import type { CancelResultEntry, PlaceOrderRequest, VenueResult } from '../../../src/venue/contract/contract-requests.js';
import type { ContractSpec } from '../../../src/venue/contract/contract-spec.js';
import type { ContractOrderView, ContractPositionView, Page } from '../../../src/venue/contract/contract-views.js';
import { parseLots, parseTicks, safeDecimal } from '../reference-order-validation.js';
import { checkDirection, hasPrice, parseLeg, parsePair, refuse, reverseFlag, type TpSlLeg, type TpSlPair } from './tpsl-rules.js';
import { currentPrice, isTrend, priceKindOf } from './trigger-prices.js';
import type {
  CancelAllStopOrdersRequest,
  ChangeStopPlanPriceRequest,
  ChangeStopPriceRequest,
  PlaceStopOrderRequest,
  StopOrdersQuery,
  TpSlPrice,
} from '../../../src/venue/contract/triggers/trigger-requests.js';
import { inTimeRange, pageOf, RecordStore, type TriggerRecord, type TriggerRegistry } from './trigger-store.js';
import type { StopOrderView } from '../../../src/venue/contract/triggers/trigger-views.js';

export interface StopRecord extends TriggerRecord {
  readonly kind: 'stop';
  /** The limit order it waits for / came with. */
  readonly orderId: string | undefined;
  positionId: string | undefined;
  readonly positionType: PositionType;
  lossTrend: PriceTrend;
  profitTrend: PriceTrend;
  stopLossPrice: Decimal | undefined;
  takeProfitPrice: Decimal | undefined;
  state: StopOrderState;
  triggerSide: TriggerSide;
  volLots: number;
  realityLots: number;
  placeOrderId: string | undefined;
  errorCode: number;
  version: number;
  priceProtect: 0 | 1;
  readonly profitLossVolType: ProfitLossVolType;
  takeProfitLots: number | undefined;
  stopLossLots: number | undefined;
  readonly volType: StopVolType;
  takeProfitReverse: ReverseFlag;
  stopLossReverse: ReverseFlag;
  readonly takeProfitType: StopExecType;
  readonly stopLossType: StopExecType;
  readonly takeProfitOrderPrice: Decimal | undefined;
  readonly stopLossOrderPrice: Decimal | undefined;
  closeTryTimes: number;
  reverseTryTimes: number;
  reverseErrorCode: number;
  reverseOrderId: string | undefined;
  readonly createTime: number;
  updateTime: number;
}

/** A TP/SL that came with order/create (or a triggered plan order), checked before the order is placed. */
export interface AttachedTpSl {
  readonly pair: TpSlPair;
  readonly positionType: PositionType;
  readonly priceProtect: 0 | 1;
  readonly takeProfitReverse: ReverseFlag;
  readonly stopLossReverse: ReverseFlag;
}

interface PendingReverse {
  readonly stop: StopRecord;
  readonly leverage: number;
  readonly openType: OpenType;
}

const FILL_PAGE = 1000;

export class StopOrders {
  private readonly store: RecordStore<StopRecord>;
  /** Untriggered stop orders by the limit order they wait for / came with. */
  private readonly byParent = new Map<string, StopRecord>();
  /**
   * The TP/SL each limit order carries, in any state, for the order's own record (order queries show
   * its prices and price types). Forgotten when the TP/SL is cancelled on purpose (stoporder/cancel,
   * change_price with no prices) or drops out of the history.
   */
  private readonly carriedBy = new Map<string, StopRecord>();
  /** Untriggered stop orders bound to a position, by position id. */
  private readonly byPosition = new Map<string, Set<StopRecord>>();
  /** Executed stop orders waiting for their close order to end before they reverse, by close order id. */
  private readonly pendingReverse = new Map<string, PendingReverse>();

  constructor(private readonly reg: TriggerRegistry) {
    this.store = new RecordStore(reg.host.historyLimit, (r) => r.state !== StopOrderState.UNTRIGGERED);
  }

  // ─────────────────────────────────────────────── TP/SL with a limit order

  /**
   * Checks the TP/SL of an order/create request. Undefined when it carries none, or when the contract
   * is unknown (the placement itself answers that).
   */
  prepareAttached(_accountId: string, req: PlaceOrderRequest): VenueResult<AttachedTpSl> | undefined {
    if (!hasPrice(req.stopLossPrice) && !hasPrice(req.takeProfitPrice)) return undefined;
    const spec = this.reg.spec(req.symbol);
    if (spec === undefined) return undefined;
    if (!isOpenSide(req.side) || req.reduceOnly === true)
      return refuse(
        ContractVenueCode.PARAMETER,
        'take-profit / stop-loss can be attached to opening orders only (side 1 or 3, not reduce-only)',
      );
    const pair = parsePair(spec, req);
    if (!pair.ok) return pair;
    const priceProtect = flag01(req.priceProtect);
    if (priceProtect === undefined) return refuse(ContractVenueCode.PARAMETER, 'priceProtect must be 0 or 1');
    const positionType = sidePositionType(req.side);
    const limit = req.type <= ContractOrderType.FOK ? safeDecimal(req.price) : undefined;
    const bad = checkDirection(positionType, pair.value, (t) =>
      limit !== undefined && limit.gt(0) ? limit : currentPrice(this.reg.host.venue, req.symbol, t),
    );
    if (bad) return bad;
    return {
      ok: true,
      value: { pair: pair.value, positionType, priceProtect, takeProfitReverse: ReverseFlag.NO, stopLossReverse: ReverseFlag.NO },
    };
  }

  /** Creates the stop order of an accepted order; fills that already happened count at once. */
  attach(accountId: AccountId, order: ContractOrderView, a: AttachedTpSl): StopRecord {
    const spec = this.reg.spec(order.symbol)!;
    const now = this.reg.host.clock.now();
    const { seq, id } = this.reg.next();
    const rec: StopRecord = {
      kind: 'stop',
      seq,
      id,
      account: accountId,
      symbol: order.symbol,
      spec,
      orderId: order.orderId,
      positionId: undefined,
      positionType: a.positionType,
      lossTrend: a.pair.stopLoss.trend,
      profitTrend: a.pair.takeProfit.trend,
      stopLossPrice: a.pair.stopLoss.price,
      takeProfitPrice: a.pair.takeProfit.price,
      state: StopOrderState.UNTRIGGERED,
      triggerSide: TriggerSide.NONE,
      volLots: 0,
      realityLots: 0,
      placeOrderId: undefined,
      errorCode: 0,
      version: 1,
      priceProtect: a.priceProtect,
      profitLossVolType: 'SAME',
      takeProfitLots: undefined,
      stopLossLots: undefined,
      volType: StopVolType.PARTIAL,
      takeProfitReverse: a.takeProfitReverse,
      stopLossReverse: a.stopLossReverse,
      takeProfitType: StopExecType.MARKET,
      stopLossType: StopExecType.MARKET,
      takeProfitOrderPrice: undefined,
      stopLossOrderPrice: undefined,
      closeTryTimes: 0,
      reverseTryTimes: 0,
      reverseErrorCode: 0,
      reverseOrderId: undefined,
      createTime: now,
      updateTime: now,
    };
    this.store.add(rec);
    this.byParent.set(order.orderId, rec);
    this.carriedBy.set(order.orderId, rec);
    this.reg.activate(rec);
    this.countPastFills(rec);
    const o = this.reg.host.venue.getOrder(accountId, order.orderId);
    if (rec.volLots === 0 && (o === undefined || !isLive(o))) this.finish(rec, StopOrderState.CANCELLED);
    else this.emit(rec);
    return rec;
  }

  /** POST stoporder/change_price. Answers the stop order, or undefined when it was cancelled / there was none. */
  changeStopPrice(accountId: string, req: ChangeStopPriceRequest): VenueResult<StopOrderView | undefined> {
    const venue = this.reg.host.venue;
    const o = venue.getOrder(accountId, req.orderId);
    if (o === undefined) return refuse(ContractVenueCode.ORDER_NOT_EXIST, 'order not exist');
    const existing = this.byParent.get(o.orderId);
    if (!hasPrice(req.stopLossPrice) && !hasPrice(req.takeProfitPrice)) {
      if (existing) this.finish(existing, StopOrderState.CANCELLED);
      this.carriedBy.delete(o.orderId);
      return { ok: true, value: undefined };
    }
    const spec = this.reg.spec(o.symbol)!;
    const pair = parsePair(spec, {
      stopLossPrice: req.stopLossPrice,
      takeProfitPrice: req.takeProfitPrice,
      lossTrend: req.lossTrend ?? existing?.lossTrend,
      profitTrend: req.profitTrend ?? existing?.profitTrend,
    });
    if (!pair.ok) return pair;
    const tpRev = reverseFlag(req.takeProfitReverse ?? existing?.takeProfitReverse, 'takeProfitReverse');
    if (!tpRev.ok) return tpRev;
    const slRev = reverseFlag(req.stopLossReverse ?? existing?.stopLossReverse, 'stopLossReverse');
    if (!slRev.ok) return slRev;
    if (existing === undefined) {
      if (!isLive(o)) return refuse(ContractVenueCode.ORDER_NOT_CANCELLABLE, 'the order is no longer open');
      if (!isOpenSide(o.side) || o.reduceOnly)
        return refuse(ContractVenueCode.PARAMETER, 'take-profit / stop-loss can be attached to opening orders only');
    }
    const positionType = existing?.positionType ?? sidePositionType(o.side);
    const bad = checkDirection(positionType, pair.value, (t) => this.reference(existing, o, t));
    if (bad) return bad;
    if (existing === undefined) {
      const rec = this.attach(o.accountId, o, {
        pair: pair.value,
        positionType,
        priceProtect: 0,
        takeProfitReverse: tpRev.value,
        stopLossReverse: slRev.value,
      });
      return { ok: true, value: rec.state === StopOrderState.UNTRIGGERED ? this.view(rec) : undefined };
    }
    existing.stopLossPrice = pair.value.stopLoss.price;
    existing.lossTrend = pair.value.stopLoss.trend;
    existing.takeProfitPrice = pair.value.takeProfit.price;
    existing.profitTrend = pair.value.takeProfit.trend;
    existing.takeProfitReverse = tpRev.value;
    existing.stopLossReverse = slRev.value;
    this.touch(existing);
    return { ok: true, value: this.view(existing) };
  }

  // ─────────────────────────────────────────────── TP/SL on a position

  /** POST stoporder/place. */
  place(accountId: string, req: PlaceStopOrderRequest): VenueResult<StopOrderView> {
    const venue = this.reg.host.venue;
    const pos = this.position(accountId, req.positionId);
    if (pos === undefined)
      return refuse(
        ContractVenueCode.POSITION_NOT_EXIST,
        'position does not exist or is closed',
        ContractOrderErrorCode.POSITION_NOT_EXIST,
      );
    if (req.symbol !== undefined && req.symbol !== '' && req.symbol !== pos.symbol)
      return refuse(ContractVenueCode.PARAMETER, `position ${pos.positionId} is not a ${req.symbol} position`);
    const spec = this.reg.spec(pos.symbol)!;
    const pair = parsePair(spec, req);
    if (!pair.ok) return pair;
    const { stopLoss, takeProfit } = pair.value;
    if (stopLoss.price === undefined && takeProfit.price === undefined)
      return refuse(ContractVenueCode.PARAMETER, 'stopLossPrice or takeProfitPrice must be > 0');
    const volType = req.volType ?? StopVolType.PARTIAL;
    if (volType !== StopVolType.PARTIAL && volType !== StopVolType.POSITION)
      return refuse(ContractVenueCode.PARAMETER, 'volType must be 1 (partial) or 2 (position)');
    const plvt = req.profitLossVolType ?? 'SAME';
    if (plvt !== 'SAME' && plvt !== 'SEPARATE') return refuse(ContractVenueCode.PARAMETER, 'profitLossVolType must be SAME or SEPARATE');
    const holdLots = spec.volToLots(pos.holdVol, 'exact');
    let volLots = holdLots;
    let tpLots: number | undefined;
    let slLots: number | undefined;
    if (volType === StopVolType.PARTIAL) {
      const v = lotsWithin(spec, req.vol, holdLots, 'vol');
      if (!v.ok) return v;
      volLots = v.value;
      if (plvt === 'SEPARATE') {
        if (takeProfit.price !== undefined) {
          const t = lotsWithin(spec, req.takeProfitVol, holdLots, 'takeProfitVol');
          if (!t.ok) return t;
          tpLots = t.value;
        }
        if (stopLoss.price !== undefined) {
          const s = lotsWithin(spec, req.stopLossVol, holdLots, 'stopLossVol');
          if (!s.ok) return s;
          slLots = s.value;
        }
      }
    }
    const tpExec = execLeg(spec, req.takeProfitType, req.takeProfitOrderPrice, 'takeProfit', takeProfit.price !== undefined);
    if (!tpExec.ok) return tpExec;
    const slExec = execLeg(spec, req.stopLossType, req.stopLossOrderPrice, 'stopLoss', stopLoss.price !== undefined);
    if (!slExec.ok) return slExec;
    const tpRev = reverseFlag(req.takeProfitReverse, 'takeProfitReverse');
    if (!tpRev.ok) return tpRev;
    const slRev = reverseFlag(req.stopLossReverse, 'stopLossReverse');
    if (!slRev.ok) return slRev;
    const priceProtect = flag01(req.priceProtect);
    if (priceProtect === undefined) return refuse(ContractVenueCode.PARAMETER, 'priceProtect must be 0 or 1');
    const bad = checkDirection(pos.positionType, pair.value, (t) => currentPrice(venue, pos.symbol, t));
    if (bad) return bad;

    if (volType === StopVolType.POSITION) {
      for (const old of [...(this.byPosition.get(pos.positionId) ?? [])])
        if (old.volType === StopVolType.POSITION) this.finish(old, StopOrderState.CANCELLED);
    }
    const now = this.reg.host.clock.now();
    const { seq, id } = this.reg.next();
    const rec: StopRecord = {
      kind: 'stop',
      seq,
      id,
      account: pos.accountId,
      symbol: pos.symbol,
      spec,
      orderId: undefined,
      positionId: undefined,
      positionType: pos.positionType,
      lossTrend: stopLoss.trend,
      profitTrend: takeProfit.trend,
      stopLossPrice: stopLoss.price,
      takeProfitPrice: takeProfit.price,
      state: StopOrderState.UNTRIGGERED,
      triggerSide: TriggerSide.NONE,
      volLots,
      realityLots: 0,
      placeOrderId: undefined,
      errorCode: 0,
      version: 1,
      priceProtect,
      profitLossVolType: plvt,
      takeProfitLots: tpLots,
      stopLossLots: slLots,
      volType,
      takeProfitReverse: tpRev.value,
      stopLossReverse: slRev.value,
      takeProfitType: tpExec.value.type,
      stopLossType: slExec.value.type,
      takeProfitOrderPrice: tpExec.value.price,
      stopLossOrderPrice: slExec.value.price,
      closeTryTimes: 0,
      reverseTryTimes: 0,
      reverseErrorCode: 0,
      reverseOrderId: undefined,
      createTime: now,
      updateTime: now,
    };
    this.store.add(rec);
    this.bind(rec, pos.positionId);
    this.reg.activate(rec);
    this.emit(rec);
    return { ok: true, value: this.view(rec) };
  }

  /** POST stoporder/change_plan_price: a price > 0 sets its leg, 0 removes it, absent keeps it. */
  changePlanPrice(accountId: string, req: ChangeStopPlanPriceRequest): VenueResult<StopOrderView> {
    const rec = this.store.get(accountId, req.stopPlanOrderId);
    if (rec === undefined) return refuse(ContractVenueCode.ORDER_NOT_EXIST, 'stop order not exist');
    if (rec.state !== StopOrderState.UNTRIGGERED)
      return refuse(ContractVenueCode.ORDER_NOT_CANCELLABLE, 'the stop order is no longer untriggered');
    if (!hasPrice(req.stopLossPrice) && !hasPrice(req.takeProfitPrice))
      return refuse(ContractVenueCode.PARAMETER, 'stopLossPrice or takeProfitPrice must be > 0');
    const sl = changedLeg(rec.spec, req.stopLossPrice, req.lossTrend, rec.stopLossPrice, rec.lossTrend, 'stopLossPrice');
    if (!sl.ok) return sl;
    const tp = changedLeg(rec.spec, req.takeProfitPrice, req.profitTrend, rec.takeProfitPrice, rec.profitTrend, 'takeProfitPrice');
    if (!tp.ok) return tp;
    const pair: TpSlPair = { stopLoss: sl.value, takeProfit: tp.value };
    if (rec.profitLossVolType === 'SEPARATE' && rec.volType === StopVolType.PARTIAL) {
      if (pair.takeProfit.price !== undefined && rec.takeProfitLots === undefined)
        return refuse(ContractVenueCode.PARAMETER, 'this SEPARATE stop order has no takeProfitVol: place a new one');
      if (pair.stopLoss.price !== undefined && rec.stopLossLots === undefined)
        return refuse(ContractVenueCode.PARAMETER, 'this SEPARATE stop order has no stopLossVol: place a new one');
    }
    const tpRev = reverseFlag(req.takeProfitReverse ?? rec.takeProfitReverse, 'takeProfitReverse');
    if (!tpRev.ok) return tpRev;
    const slRev = reverseFlag(req.stopLossReverse ?? rec.stopLossReverse, 'stopLossReverse');
    if (!slRev.ok) return slRev;
    const parent = rec.orderId !== undefined ? this.reg.host.venue.getOrder(accountId, rec.orderId) : undefined;
    const bad = checkDirection(rec.positionType, pair, (t) => this.reference(rec, parent, t));
    if (bad) return bad;
    rec.stopLossPrice = pair.stopLoss.price;
    rec.lossTrend = pair.stopLoss.trend;
    rec.takeProfitPrice = pair.takeProfit.price;
    rec.profitTrend = pair.takeProfit.trend;
    rec.takeProfitReverse = tpRev.value;
    rec.stopLossReverse = slRev.value;
    this.touch(rec);
    return { ok: true, value: this.view(rec) };
  }

  // ─────────────────────────────────────────────── cancel and queries

  /** POST stoporder/cancel: per element 0 cancelled, 2040 not found, 2041 no longer untriggered. */
  cancel(accountId: string, ids: readonly (string | number)[]): CancelResultEntry[] {
    return ids.map((raw) => {
      const rec = this.store.get(accountId, raw);
      if (rec === undefined) return cancelEntry(String(raw), CancelErrorCode.NOT_EXIST);
      if (rec.state !== StopOrderState.UNTRIGGERED) return cancelEntry(rec.id, CancelErrorCode.NOT_CANCELLABLE);
      this.finish(rec, StopOrderState.CANCELLED);
      if (rec.orderId !== undefined && this.carriedBy.get(rec.orderId) === rec) this.carriedBy.delete(rec.orderId);
      return cancelEntry(rec.id, CancelErrorCode.OK);
    });
  }

  /** POST stoporder/cancel_all: the untriggered stop orders of a position, a contract, or the account. */
  cancelAll(accountId: string, q: CancelAllStopOrdersRequest = {}): number {
    let n = 0;
    for (const rec of [...this.store.list(accountId)]) {
      if (rec.state !== StopOrderState.UNTRIGGERED) continue;
      if (q.symbol && rec.symbol !== q.symbol) continue;
      if (q.positionId !== undefined && q.positionId !== '' && rec.positionId !== String(q.positionId)) continue;
      this.finish(rec, StopOrderState.CANCELLED);
      if (rec.orderId !== undefined && this.carriedBy.get(rec.orderId) === rec) this.carriedBy.delete(rec.orderId);
      n++;
    }
    return n;
  }

  /** GET stoporder/list/orders, newest first. */
  list(accountId: string, q: StopOrdersQuery = {}): Page<StopOrderView> {
    const out: StopRecord[] = [];
    const all = this.store.list(accountId);
    for (let i = all.length - 1; i >= 0; i--) {
      const r = all[i]!;
      if (q.symbol && r.symbol !== q.symbol) continue;
      if (q.isFinished !== undefined && (r.state === StopOrderState.UNTRIGGERED ? 0 : 1) !== q.isFinished) continue;
      if (q.state !== undefined && r.state !== q.state) continue;
      if (q.positionType !== undefined && r.positionType !== q.positionType) continue;
      if (!inTimeRange(r.createTime, q.startTime, q.endTime)) continue;
      out.push(r);
    }
    return pageOf(out, q, (r) => this.view(r));
  }

  /** GET stoporder/open_orders: untriggered, newest first. */
  open(accountId: string, symbol?: string): StopOrderView[] {
    const all = this.store.list(accountId);
    const out: StopOrderView[] = [];
    for (let i = all.length - 1; i >= 0; i--) {
      const r = all[i]!;
      if (r.state === StopOrderState.UNTRIGGERED && (!symbol || r.symbol === symbol)) out.push(this.view(r));
    }
    return out;
  }

  get(accountId: string, id: string | number): StopOrderView | undefined {
    const r = this.store.get(accountId, id);
    return r ? this.view(r) : undefined;
  }

  /** The TP/SL a limit order of the account carries (see carriedBy), undefined when none. */
  carried(accountId: string, orderId: string): StopOrderView | undefined {
    const r = this.carriedBy.get(orderId);
    return r !== undefined && r.account === accountId ? this.view(r) : undefined;
  }

  count(accountId: string, symbol?: string): number {
    let n = 0;
    for (const r of this.store.list(accountId)) if (r.state === StopOrderState.UNTRIGGERED && (!symbol || r.symbol === symbol)) n++;
    return n;
  }

  // ─────────────────────────────────────────────── hooks from the venue (inside its commands)

  /** A fill of `orderId` opened `openLots` of position `positionId`. */
  onFill(accountId: string, orderId: string, openLots: number, positionId: string | undefined): void {
    const rec = this.byParent.get(orderId);
    if (rec === undefined || rec.account !== accountId || openLots <= 0 || positionId === undefined) return;
    rec.volLots += openLots;
    if (rec.positionId !== positionId) this.bind(rec, positionId);
    this.touch(rec);
  }

  /** `orderId` reached a final state (completed or cancelled). */
  onOrderFinal(accountId: string, orderId: string): void {
    const rec = this.byParent.get(orderId);
    // Without a fill there is no position to protect; with one it stays (and stays reachable by orderId).
    if (rec !== undefined && rec.account === accountId && rec.volLots === 0) this.finish(rec, StopOrderState.CANCELLED);
    const pending = this.pendingReverse.get(orderId);
    if (pending !== undefined) {
      this.pendingReverse.delete(orderId);
      this.reg.host.defer(() => {
        const o = this.reg.host.venue.getOrder(accountId, orderId);
        this.reverse(pending, o === undefined ? 0 : pending.stop.spec.volToLots(o.dealVol, 'exact'));
      });
    }
  }

  onPositionClosed(positionId: string): void {
    const set = this.byPosition.get(positionId);
    if (set === undefined) return;
    for (const rec of [...set]) this.finish(rec, StopOrderState.INVALID);
  }

  // ─────────────────────────────────────────────── evaluation

  evaluate(rec: StopRecord, u: PriceUpdate): void {
    if (rec.positionId === undefined || (rec.volType === StopVolType.PARTIAL && rec.volLots === 0)) return;
    const long = rec.positionType === PositionType.LONG;
    const p = u.price;
    const sl = rec.stopLossPrice;
    const tp = rec.takeProfitPrice;
    if (sl !== undefined && priceKindOf(rec.lossTrend) === u.kind && (long ? p.lte(sl) : p.gte(sl))) this.fire(rec, TriggerSide.STOP_LOSS);
    else if (tp !== undefined && priceKindOf(rec.profitTrend) === u.kind && (long ? p.gte(tp) : p.lte(tp)))
      this.fire(rec, TriggerSide.TAKE_PROFIT);
  }

  private fire(rec: StopRecord, side: TriggerSide): void {
    const venue = this.reg.host.venue;
    let pos = this.position(rec.account, rec.positionId!);
    if (pos === undefined) {
      this.finish(rec, StopOrderState.INVALID);
      return;
    }
    // Out of play before placing: its own close order closes the position it is bound to.
    this.unbind(rec);
    this.reg.deactivate(rec);
    rec.triggerSide = side;
    rec.closeTryTimes++;
    const spec = rec.spec;
    if (rec.volType === StopVolType.POSITION) {
      const closers = venue
        .openOrders(rec.account, { symbol: rec.symbol, pageSize: 1000 })
        .resultList.filter((o) => o.positionId === pos!.positionId && (!isOpenSide(o.side) || o.reduceOnly))
        .map((o) => o.orderId);
      if (closers.length > 0) {
        venue.cancelOrders(rec.account, closers);
        pos = this.position(rec.account, rec.positionId!) ?? pos;
      }
    }
    const held = spec.volToLots(pos.holdVol, 'exact');
    const available = held - spec.volToLots(pos.frozenVol, 'exact');
    if (rec.volType === StopVolType.POSITION) rec.volLots = held;
    const tp = side === TriggerSide.TAKE_PROFIT;
    const legLots =
      rec.volType === StopVolType.POSITION
        ? held
        : rec.profitLossVolType === 'SEPARATE'
          ? ((tp ? rec.takeProfitLots : rec.stopLossLots) ?? rec.volLots)
          : rec.volLots;
    const lots = Math.min(legLots, available);
    if (lots <= 0) {
      rec.errorCode = ContractOrderErrorCode.POSITION_TOO_SMALL;
      this.finish(rec, StopOrderState.FAILED);
      return;
    }
    const limit = (tp ? rec.takeProfitType : rec.stopLossType) === StopExecType.LIMIT;
    const long = rec.positionType === PositionType.LONG;
    const r = venue.placeOrder(rec.account, {
      symbol: rec.symbol,
      side: long ? ContractSide.CLOSE_LONG : ContractSide.CLOSE_SHORT,
      vol: spec.lotsToVol(lots).toFixed(),
      type: limit ? ContractOrderType.LIMIT : ContractOrderType.MARKET,
      price: limit ? (tp ? rec.takeProfitOrderPrice : rec.stopLossOrderPrice)?.toFixed() : undefined,
      openType: pos.openType,
      positionId: pos.positionId,
    });
    if (!r.ok) {
      rec.errorCode = r.errorCode;
      rec.placeOrderId = r.order?.orderId;
      this.finish(rec, StopOrderState.FAILED);
      return;
    }
    rec.placeOrderId = r.value.orderId;
    rec.realityLots = lots;
    this.finish(rec, StopOrderState.EXECUTED);
    if ((tp ? rec.takeProfitReverse : rec.stopLossReverse) !== ReverseFlag.YES) return;
    const pending: PendingReverse = { stop: rec, leverage: pos.leverage, openType: pos.openType };
    if (isLive(r.value)) this.pendingReverse.set(r.value.orderId, pending);
    else this.reverse(pending, spec.volToLots(r.value.dealVol, 'exact'));
  }

  /** Opens the opposite position of the size the close order closed. */
  private reverse(p: PendingReverse, closedLots: number): void {
    const rec = p.stop;
    if (closedLots <= 0) return;
    rec.reverseTryTimes++;
    const r = this.reg.host.venue.placeOrder(rec.account, {
      symbol: rec.symbol,
      side: rec.positionType === PositionType.LONG ? ContractSide.OPEN_SHORT : ContractSide.OPEN_LONG,
      vol: rec.spec.lotsToVol(closedLots).toFixed(),
      type: ContractOrderType.MARKET,
      openType: p.openType,
      leverage: p.leverage,
    });
    rec.reverseOrderId = r.ok ? r.value.orderId : r.order?.orderId;
    rec.reverseErrorCode = r.ok ? 0 : r.code;
    this.touch(rec);
  }

  // ─────────────────────────────────────────────── book-keeping

  /** Every stop record (invariant checks). */
  records(): IterableIterator<StopRecord> {
    return this.store.all();
  }

  isLive(rec: StopRecord): boolean {
    return rec.state === StopOrderState.UNTRIGGERED;
  }

  boundTo(positionId: string): ReadonlySet<StopRecord> | undefined {
    return this.byPosition.get(positionId);
  }

  view(r: StopRecord): StopOrderView {
    const spec = r.spec;
    let vol = spec.lotsToVol(r.volLots);
    if (r.volType === StopVolType.POSITION && r.state === StopOrderState.UNTRIGGERED && r.positionId !== undefined) {
      vol = this.position(r.account, r.positionId)?.holdVol ?? vol;
    }
    return {
      accountId: r.account,
      id: r.id,
      symbol: r.symbol,
      orderId: r.orderId ?? '0',
      positionId: r.positionId ?? '0',
      positionType: r.positionType,
      lossTrend: r.lossTrend,
      profitTrend: r.profitTrend,
      stopLossPrice: r.stopLossPrice,
      takeProfitPrice: r.takeProfitPrice,
      state: r.state,
      triggerSide: r.triggerSide,
      vol,
      realityVol: spec.lotsToVol(r.realityLots),
      placeOrderId: r.placeOrderId ?? '0',
      errorCode: r.errorCode,
      isFinished: r.state === StopOrderState.UNTRIGGERED ? 0 : 1,
      version: r.version,
      priceProtect: r.priceProtect,
      profitLossVolType: r.profitLossVolType,
      takeProfitVol: r.takeProfitLots === undefined ? undefined : spec.lotsToVol(r.takeProfitLots),
      stopLossVol: r.stopLossLots === undefined ? undefined : spec.lotsToVol(r.stopLossLots),
      volType: r.volType,
      takeProfitReverse: r.takeProfitReverse,
      stopLossReverse: r.stopLossReverse,
      takeProfitType: r.takeProfitType,
      stopLossType: r.stopLossType,
      takeProfitOrderPrice: r.takeProfitOrderPrice,
      stopLossOrderPrice: r.stopLossOrderPrice,
      closeTryTimes: r.closeTryTimes,
      reverseTryTimes: r.reverseTryTimes,
      reverseErrorCode: r.reverseErrorCode,
      reverseOrderId: r.reverseOrderId,
      createTime: r.createTime,
      updateTime: r.updateTime,
    };
  }

  private finish(rec: StopRecord, state: StopOrderState): void {
    rec.state = state;
    this.unbind(rec);
    if (rec.orderId !== undefined && this.byParent.get(rec.orderId) === rec) this.byParent.delete(rec.orderId);
    this.reg.deactivate(rec);
    const dropped = this.store.finished(rec);
    if (dropped?.orderId !== undefined && this.carriedBy.get(dropped.orderId) === dropped) this.carriedBy.delete(dropped.orderId);
    this.touch(rec);
  }

  private touch(rec: StopRecord): void {
    rec.version++;
    rec.updateTime = this.reg.host.clock.now();
    this.emit(rec);
  }

  private emit(rec: StopRecord): void {
    this.reg.host.emit(() => ({ type: 'StopOrderChanged', time: rec.updateTime, stopOrder: this.view(rec) }));
  }

  private bind(rec: StopRecord, positionId: string): void {
    this.unbind(rec);
    rec.positionId = positionId;
    let set = this.byPosition.get(positionId);
    if (set === undefined) this.byPosition.set(positionId, (set = new Set()));
    set.add(rec);
  }

  /** Drops it from the position index (the record keeps showing its position id). */
  private unbind(rec: StopRecord): void {
    if (rec.positionId === undefined) return;
    const set = this.byPosition.get(rec.positionId);
    if (set === undefined) return;
    set.delete(rec);
    if (set.size === 0) this.byPosition.delete(rec.positionId);
  }

  /** Contracts its limit order already opened, in positions that are still open. */
  private countPastFills(rec: StopRecord): void {
    const venue = this.reg.host.venue;
    const fills = [];
    for (let page = 1; ; page++) {
      const p = venue.fills(rec.account, { orderId: rec.orderId, pageNum: page, pageSize: FILL_PAGE });
      fills.push(...p.resultList);
      if (page >= p.totalPage) break;
    }
    for (let i = fills.length - 1; i >= 0; i--) {
      const f = fills[i]!;
      if (!f.openVol.gt(0)) continue;
      const positionId = f.positionIds[f.positionIds.length - 1];
      if (positionId === undefined || this.position(rec.account, positionId) === undefined) continue;
      rec.volLots += rec.spec.volToLots(f.openVol, 'exact');
      if (rec.positionId !== positionId) this.bind(rec, positionId);
    }
  }

  private position(accountId: string, positionId: string | number): ContractPositionView | undefined {
    return this.reg.host.venue.openPositions(accountId, { positionId })[0];
  }

  /** Where a leg is checked against: the trend's price once bound to a position, else the order's limit price. */
  private reference(rec: StopRecord | undefined, parent: ContractOrderView | undefined, trend: PriceTrend): Decimal | undefined {
    const symbol = rec?.symbol ?? parent?.symbol;
    if (symbol === undefined) return undefined;
    if (
      (rec === undefined || rec.positionId === undefined) &&
      parent !== undefined &&
      parent.orderType <= ContractOrderType.FOK &&
      parent.price.gt(0)
    )
      return parent.price;
    return currentPrice(this.reg.host.venue, symbol, trend);
  }
}

const isLive = (o: ContractOrderView): boolean => o.state === ContractOrderState.UNCOMPLETED || o.state === ContractOrderState.PENDING;

function cancelEntry(orderId: string, code: CancelErrorCode): CancelResultEntry {
  return { orderId, errorCode: code, errorMsg: CANCEL_ERROR_MSG[code] };
}

function flag01(v: number | undefined): 0 | 1 | undefined {
  if (v === undefined) return 0;
  return v === 0 || v === 1 ? v : undefined;
}

/** A leg of change_plan_price: absent price keeps the current one (and its trend unless one is given), else parsed anew. */
function changedLeg(
  spec: ContractSpec,
  price: TpSlPrice,
  trend: number | undefined,
  currentPrice_: Decimal | undefined,
  currentTrend: PriceTrend,
  name: 'stopLossPrice' | 'takeProfitPrice',
): VenueResult<TpSlLeg> {
  if (price !== undefined && price !== null && price !== '') return parseLeg(spec, price, trend ?? currentTrend, name);
  if (trend === undefined) return { ok: true, value: { price: currentPrice_, trend: currentTrend } };
  if (currentPrice_ !== undefined && !isTrend(trend))
    return refuse(
      ContractVenueCode.PRICE_TYPE_ERROR,
      `${name === 'stopLossPrice' ? 'lossTrend' : 'profitTrend'} must be 1, 2 or 3 (latest, fair, index price)`,
    );
  return { ok: true, value: { price: currentPrice_, trend: isTrend(trend) ? trend : currentTrend } };
}

function lotsWithin(spec: ContractSpec, vol: unknown, maxLots: number, name: string): VenueResult<number> {
  const d = safeDecimal(vol as string | number | undefined);
  if (d === undefined || !d.gt(0)) return refuse(ContractVenueCode.PARAMETER, `${name} must be a decimal number > 0`);
  const lots = parseLots(spec, d);
  if (lots === undefined)
    return refuse(ContractVenueCode.PRICE_OR_QUANTITY_ACCURACY, `${name} must be a multiple of volUnit ${spec.lot.toString()}`);
  if (lots > maxLots)
    return refuse(
      ContractVenueCode.QUANTITY_INSUFFICIENT,
      `${name} ${d.toString()} exceeds the position's ${spec.lotsToVol(maxLots).toString()}`,
      ContractOrderErrorCode.POSITION_TOO_SMALL,
    );
  return { ok: true, value: lots };
}

function execLeg(
  spec: ContractSpec,
  type: number | undefined,
  price: unknown,
  leg: 'takeProfit' | 'stopLoss',
  used: boolean,
): VenueResult<{ type: StopExecType; price: Decimal | undefined }> {
  const t = type ?? StopExecType.MARKET;
  if (t !== StopExecType.MARKET && t !== StopExecType.LIMIT)
    return refuse(ContractVenueCode.PARAMETER, `${leg}Type must be 0 (market) or 1 (limit)`);
  if (t === StopExecType.MARKET || !used) return { ok: true, value: { type: t, price: undefined } };
  const d = safeDecimal(price as string | number | undefined);
  if (d === undefined || !d.gt(0)) return refuse(ContractVenueCode.PARAMETER, `${leg}OrderPrice must be > 0 with ${leg}Type 1 (limit)`);
  if (parseTicks(spec, d) === undefined)
    return refuse(ContractVenueCode.PRICE_OR_QUANTITY_ACCURACY, `${leg}OrderPrice must be a multiple of priceUnit ${spec.tick.toString()}`);
  return { ok: true, value: { type: t, price: d } };
}
