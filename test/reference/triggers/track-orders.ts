/**
 * Trailing orders, contract-api.md §2.8 and §4.6.
 *
 * A sell-side trailing order (side 3 open short, 4 close long) follows the HIGHEST price of its trend
 * since activation (the benchmark, `markPrice`) and fires when the price falls back to
 * triggerPrice = benchmark · (1 − backValue) (backType 1, backValue a fraction: 0.01 = 1 %) or
 * benchmark − backValue (backType 2), rounded DOWN to the tick — so it fires on a callback of at least
 * backValue. A buy-side one (1 open long, 2 close short) follows the LOWEST price and fires at
 * benchmark · (1 + backValue) or benchmark + backValue, rounded UP.
 *
 * States: 0 inactive until the price reaches activePrice (from below when activePrice was at or above
 * the trend's price at placement, else from above), then 1 active with the activation price as its
 * benchmark; without activePrice it is active at once from the current price (or from the first price
 * update when none is known yet). On trigger a market order of `vol` is placed through the normal order
 * path (leverage, openType, positionMode, reduceOnly as given): placed → 2 triggered with orderId,
 * refused → 3 trigger failed with the order errorCode. Cancelled → 4.
 */
import { Decimal } from '../../../src/core/decimal.js';
import { accountId as venueAccount } from '../../../src/core/ids.js';
import {
  BackType,
  ContractOrderType,
  ContractState,
  TrackOrderState,
  TriggerType,
  sideIsBuy,
  type ContractSide,
  type OpenType,
  type PositionMode,
  type PriceTrend,
} from '../../../src/domain/contract-enums.js';
import { ContractVenueCode } from '../../../src/venue/contract/contract-codes.js';
import type { PriceUpdate } from '../../../src/venue/contract/contract-events.js';
import type { VenueResult } from '../../../src/venue/contract/contract-requests.js';
import type { ContractSpec } from '../../../src/venue/contract/contract-spec.js';
import type { Page } from '../../../src/venue/contract/contract-views.js';
import { parseLots, parseTicks, safeDecimal, validateOrderRequest } from '../reference-order-validation.js';
import { refuse } from './tpsl-rules.js';
import { currentPrice, isTrend, priceKindOf, reached } from './trigger-prices.js';
import type {
  CancelTrackOrdersRequest,
  ChangeTrackOrderRequest,
  PlaceTrackOrderRequest,
  TrackOrdersQuery,
} from '../../../src/venue/contract/triggers/trigger-requests.js';
import { inTimeRange, pageOf, RecordStore, type TriggerRecord, type TriggerRegistry } from './trigger-store.js';
import type { TrackOrderView } from '../../../src/venue/contract/triggers/trigger-views.js';

const ONE = new Decimal(1);
const ZERO = new Decimal(0);

export interface TrackRecord extends TriggerRecord {
  readonly kind: 'track';
  readonly leverage: number;
  readonly side: ContractSide;
  volLots: number;
  readonly openType: OpenType;
  trend: PriceTrend;
  activePrice: Decimal | undefined;
  /** Which way the price must reach activePrice. */
  activateWhen: TriggerType;
  markPrice: Decimal | undefined;
  backType: BackType;
  backValue: Decimal;
  /** Follows markPrice; worked out when first needed after the benchmark moved (see `triggerOf`). */
  triggerPrice: Decimal | undefined;
  triggerStale: boolean;
  orderId: string | undefined;
  errorCode: number;
  state: TrackOrderState;
  readonly positionMode: PositionMode;
  readonly reduceOnly: boolean;
  readonly sells: boolean;
  readonly createTime: number;
  updateTime: number;
}

const LIVE: ReadonlySet<number> = new Set([TrackOrderState.INACTIVE, TrackOrderState.ACTIVE]);

export class TrackOrders {
  private readonly store: RecordStore<TrackRecord>;

  constructor(private readonly reg: TriggerRegistry) {
    this.store = new RecordStore(reg.host.historyLimit, (r) => !LIVE.has(r.state));
  }

  /** POST trackorder/place. */
  place(accountId: string, req: PlaceTrackOrderRequest): VenueResult<TrackOrderView> {
    const venue = this.reg.host.venue;
    const spec = this.reg.spec(req.symbol);
    if (spec === undefined) return refuse(ContractVenueCode.CONTRACT_NOT_EXIST, 'contract does not exist');
    if (spec.instrument.state !== ContractState.ENABLED)
      return refuse(ContractVenueCode.CONTRACT_NOT_ACTIVATED, 'contract not allowed to place orders');
    if (req.positionMode !== 1 && req.positionMode !== 2)
      return refuse(ContractVenueCode.PARAMETER, 'positionMode must be 1 (hedged) or 2 (one-way)');
    const checked = validateOrderRequest(
      {
        symbol: req.symbol,
        vol: req.vol,
        leverage: req.leverage,
        side: req.side,
        type: ContractOrderType.MARKET,
        openType: req.openType,
        positionMode: req.positionMode,
        reduceOnly: req.reduceOnly,
      },
      spec,
      venue.positionMode(accountId),
      undefined,
    );
    if (!checked.ok) return checked;
    if (!isTrend(req.trend)) return refuse(ContractVenueCode.PRICE_TYPE_ERROR, 'trend must be 1, 2 or 3 (latest, fair, index price)');
    const back = callback(req.backType, req.backValue);
    if (!back.ok) return back;
    const active = activation(spec, req.activePrice);
    if (!active.ok) return active;
    const sells = !sideIsBuy(req.side);
    const now = this.reg.host.clock.now();
    const { seq, id } = this.reg.next();
    const rec: TrackRecord = {
      kind: 'track',
      seq,
      id,
      account: venueAccount(accountId),
      symbol: spec.symbol,
      spec,
      leverage: req.leverage,
      side: req.side,
      volLots: checked.value.lots,
      openType: req.openType,
      trend: req.trend,
      activePrice: active.value,
      activateWhen: TriggerType.GTE,
      markPrice: undefined,
      backType: back.value.type,
      backValue: back.value.value,
      triggerPrice: undefined,
      triggerStale: false,
      orderId: undefined,
      errorCode: 0,
      state: active.value === undefined ? TrackOrderState.ACTIVE : TrackOrderState.INACTIVE,
      positionMode: req.positionMode,
      reduceOnly: checked.value.reduceOnly,
      sells,
      createTime: now,
      updateTime: now,
    };
    const cur = currentPrice(venue, rec.symbol, rec.trend);
    if (rec.state === TrackOrderState.ACTIVE) {
      if (cur !== undefined) this.setBenchmark(rec, cur);
    } else {
      rec.activateWhen = this.activationSide(rec, cur);
    }
    this.store.add(rec);
    this.reg.activate(rec);
    this.emit(rec);
    return { ok: true, value: this.view(rec) };
  }

  /** POST trackorder/change_order: states 0 and 1 only. A new trend restarts the benchmark from that trend's price. */
  change(accountId: string, req: ChangeTrackOrderRequest): VenueResult<TrackOrderView> {
    const rec = this.store.get(accountId, req.trackOrderId);
    if (rec === undefined || rec.symbol !== req.symbol) return refuse(ContractVenueCode.ORDER_NOT_EXIST, 'trailing order not exist');
    if (!LIVE.has(rec.state)) return refuse(ContractVenueCode.ORDER_NOT_CANCELLABLE, 'the trailing order is no longer live');
    if (!isTrend(req.trend)) return refuse(ContractVenueCode.PRICE_TYPE_ERROR, 'trend must be 1, 2 or 3 (latest, fair, index price)');
    const back = callback(req.backType, req.backValue);
    if (!back.ok) return back;
    const lots = parseLots(rec.spec, req.vol);
    if (lots === undefined) return refuse(ContractVenueCode.PRICE_OR_QUANTITY_ACCURACY, 'vol must be a positive multiple of volUnit');
    if (lots < rec.spec.minLots || lots > rec.spec.maxLots)
      return refuse(
        ContractVenueCode.PARAMETER,
        `vol must be within [${rec.spec.instrument.minVol.toString()}, ${rec.spec.instrument.maxVol.toString()}]`,
      );
    const active = activation(rec.spec, req.activePrice);
    if (!active.ok) return active;
    const venue = this.reg.host.venue;
    const trendChanged = req.trend !== rec.trend;
    rec.trend = req.trend;
    rec.backType = back.value.type;
    rec.backValue = back.value.value;
    rec.volLots = lots;
    const cur = currentPrice(venue, rec.symbol, rec.trend);
    if (rec.state === TrackOrderState.INACTIVE) {
      if (active.value !== undefined) rec.activePrice = active.value;
      rec.activateWhen = this.activationSide(rec, cur);
    } else if (trendChanged) {
      rec.markPrice = undefined;
      rec.triggerPrice = undefined;
      rec.triggerStale = false;
      if (cur !== undefined) this.setBenchmark(rec, cur);
    } else if (rec.markPrice !== undefined) {
      this.setBenchmark(rec, rec.markPrice);
    }
    this.touch(rec);
    return { ok: true, value: this.view(rec) };
  }

  /** POST trackorder/cancel: by id (2040 unknown, 2041 final), else every live one of the contract / account. */
  cancel(accountId: string, req: CancelTrackOrdersRequest): VenueResult<number> {
    if (req.trackOrderId !== undefined && req.trackOrderId !== '') {
      const rec = this.store.get(accountId, req.trackOrderId);
      if (rec === undefined || (req.symbol && rec.symbol !== req.symbol))
        return refuse(ContractVenueCode.ORDER_NOT_EXIST, 'trailing order not exist');
      if (!LIVE.has(rec.state)) return refuse(ContractVenueCode.ORDER_NOT_CANCELLABLE, 'the trailing order is no longer live');
      this.finish(rec, TrackOrderState.CANCELLED);
      return { ok: true, value: 1 };
    }
    let n = 0;
    for (const rec of [...this.store.list(accountId)]) {
      if (!LIVE.has(rec.state) || (req.symbol && rec.symbol !== req.symbol)) continue;
      this.finish(rec, TrackOrderState.CANCELLED);
      n++;
    }
    return { ok: true, value: n };
  }

  /** GET trackorder/list/orders, newest first; pageIndex / pageSize as the document names them. */
  list(accountId: string, q: TrackOrdersQuery = {}): Page<TrackOrderView> {
    const all = this.store.list(accountId);
    const out: TrackRecord[] = [];
    for (let i = all.length - 1; i >= 0; i--) {
      const r = all[i]!;
      if (q.states && q.states.length > 0 && !q.states.includes(r.state)) continue;
      if (q.symbol && r.symbol !== q.symbol) continue;
      if (q.side !== undefined && r.side !== q.side) continue;
      if (!inTimeRange(r.createTime, q.startTime, q.endTime)) continue;
      out.push(r);
    }
    return pageOf(out, { pageNum: q.pageIndex, pageSize: q.pageSize }, (r) => this.view(r));
  }

  get(accountId: string, id: string | number): TrackOrderView | undefined {
    const r = this.store.get(accountId, id);
    return r ? this.view(r) : undefined;
  }

  count(accountId: string, symbol?: string): number {
    let n = 0;
    for (const r of this.store.list(accountId)) if (LIVE.has(r.state) && (!symbol || r.symbol === symbol)) n++;
    return n;
  }

  evaluate(rec: TrackRecord, u: PriceUpdate): void {
    if (u.kind !== priceKindOf(rec.trend)) return;
    const p = u.price;
    if (rec.state === TrackOrderState.INACTIVE) {
      if (!reached(p, rec.activePrice!, rec.activateWhen)) return;
      rec.state = TrackOrderState.ACTIVE;
      this.setBenchmark(rec, p);
      this.touch(rec);
      return;
    }
    if (rec.markPrice === undefined || (rec.sells ? p.gt(rec.markPrice) : p.lt(rec.markPrice))) {
      // A new extreme cannot fire (the trigger lies behind it). No event: it happens on every new
      // high / low; the list shows the current benchmark.
      rec.markPrice = p;
      rec.triggerStale = true;
      rec.updateTime = u.time;
      return;
    }
    if (!reached(p, this.triggerOf(rec)!, rec.sells ? TriggerType.LTE : TriggerType.GTE)) return;
    this.reg.deactivate(rec);
    const r = this.reg.host.venue.placeOrder(rec.account, {
      symbol: rec.symbol,
      side: rec.side,
      vol: rec.spec.lotsToVol(rec.volLots).toFixed(),
      type: ContractOrderType.MARKET,
      openType: rec.openType,
      leverage: rec.leverage,
      positionMode: rec.positionMode,
      reduceOnly: rec.reduceOnly ? true : undefined,
    });
    rec.orderId = r.ok ? r.value.orderId : r.order?.orderId;
    rec.errorCode = r.ok ? 0 : r.errorCode;
    this.finish(rec, r.ok ? TrackOrderState.TRIGGERED : TrackOrderState.FAILED);
  }

  records(): IterableIterator<TrackRecord> {
    return this.store.all();
  }

  isLive(rec: TrackRecord): boolean {
    return LIVE.has(rec.state);
  }

  view(r: TrackRecord): TrackOrderView {
    return {
      accountId: r.account,
      id: r.id,
      symbol: r.symbol,
      leverage: r.leverage,
      side: r.side,
      vol: r.spec.lotsToVol(r.volLots),
      openType: r.openType,
      trend: r.trend,
      activePrice: r.activePrice,
      markPrice: r.markPrice,
      backType: r.backType,
      backValue: r.backValue,
      triggerPrice: this.triggerOf(r),
      orderId: r.orderId,
      errorCode: r.errorCode,
      state: r.state,
      positionMode: r.positionMode,
      reduceOnly: r.reduceOnly,
      triggerType: r.sells ? TriggerType.LTE : TriggerType.GTE,
      createTime: r.createTime,
      updateTime: r.updateTime,
    };
  }

  /**
   * The trigger price of the current benchmark. Worked out lazily: in a trend every update is a new
   * extreme, and only an update that is not one can fire.
   */
  triggerOf(rec: TrackRecord): Decimal | undefined {
    if (rec.triggerStale && rec.markPrice !== undefined) {
      rec.triggerPrice = trailingTrigger(rec.spec, rec.markPrice, rec.backType, rec.backValue, rec.sells);
      rec.triggerStale = false;
    }
    return rec.triggerPrice;
  }

  /** The benchmark and the trigger price that follows it. */
  private setBenchmark(rec: TrackRecord, mark: Decimal): void {
    rec.markPrice = mark;
    rec.triggerPrice = trailingTrigger(rec.spec, mark, rec.backType, rec.backValue, rec.sells);
    rec.triggerStale = false;
  }

  /** From below (≥) when activePrice is at or above the trend's price, from above (≤) otherwise; unknown: by side. */
  private activationSide(rec: TrackRecord, cur: Decimal | undefined): TriggerType {
    if (cur === undefined) return rec.sells ? TriggerType.GTE : TriggerType.LTE;
    return rec.activePrice!.gte(cur) ? TriggerType.GTE : TriggerType.LTE;
  }

  private finish(rec: TrackRecord, state: TrackOrderState): void {
    rec.state = state;
    this.reg.deactivate(rec);
    this.store.finished(rec);
    this.touch(rec);
  }

  private touch(rec: TrackRecord): void {
    rec.updateTime = this.reg.host.clock.now();
    this.emit(rec);
  }

  private emit(rec: TrackRecord): void {
    this.reg.host.emit(() => ({ type: 'TrackOrderChanged', time: rec.updateTime, trackOrder: this.view(rec) }));
  }
}

/**
 * Sell side: benchmark·(1 − v) or benchmark − v, down to the tick (0 when the callback eats the whole
 * price: it can never fire). Buy side: benchmark·(1 + v) or benchmark + v, up to the tick.
 */
export function trailingTrigger(spec: ContractSpec, mark: Decimal, backType: BackType, backValue: Decimal, sells: boolean): Decimal {
  const raw =
    backType === BackType.PERCENT
      ? mark.mul(sells ? ONE.sub(backValue) : ONE.add(backValue))
      : sells
        ? mark.sub(backValue)
        : mark.add(backValue);
  if (!raw.gt(0)) return ZERO;
  return spec.ticksToPrice(spec.priceToTicks(raw, sells ? 'down' : 'up'));
}

function callback(type: number, value: unknown): VenueResult<{ type: BackType; value: Decimal }> {
  if (type !== BackType.PERCENT && type !== BackType.AMOUNT)
    return refuse(ContractVenueCode.PARAMETER, 'backType must be 1 (percent) or 2 (amount)');
  const v = safeDecimal(value as string | number | undefined);
  if (v === undefined || !v.gt(0)) return refuse(ContractVenueCode.PARAMETER, 'backValue must be a decimal number > 0');
  if (type === BackType.PERCENT && !v.lt(1))
    return refuse(ContractVenueCode.PARAMETER, 'backValue with backType 1 is a fraction below 1 (0.01 = 1 %)');
  return { ok: true, value: { type, value: v } };
}

function activation(spec: ContractSpec, price: unknown): VenueResult<Decimal | undefined> {
  if (price === undefined || price === null || price === '') return { ok: true, value: undefined };
  const d = safeDecimal(price as string | number);
  if (d === undefined || !d.gt(0)) return refuse(ContractVenueCode.PARAMETER, 'activePrice must be a decimal number > 0');
  if (parseTicks(spec, d) === undefined)
    return refuse(ContractVenueCode.PRICE_OR_QUANTITY_ACCURACY, `activePrice must be a multiple of priceUnit ${spec.tick.toString()}`);
  return { ok: true, value: d };
}
