/**
 * ExchangeGateway over the contract REST API (ContractClient): the real exchange or the emulator.
 *
 * Calls and choices:
 *  - place: POST order/create with externalOid = our client id. The side code needs the account's
 *    position mode (read once with GET position/position_mode, kept current by setPositionMode) and
 *    an opening order needs a leverage and an openType: the order's own, else the side's current
 *    setting (read once per symbol with GET position/leverage, kept current by setLeverage), else the
 *    configured defaults. positionMode is always sent, so a venue in another mode refuses the order
 *    instead of reading the side code differently.
 *  - batch place: POST order/submit_batch (≤ 50) for market-maker accounts only (`marketMaker`);
 *    otherwise capabilities say 1 and placeOrders places one by one;
 *  - amend: POST order/change_limit_order (native; the answer's id becomes the order's id);
 *    chase: POST order/chase_limit_order (native). Both need the venue order id: when the ref has
 *    none it is looked up by client id first (a read);
 *  - cancel: POST order/cancel (≤ 50 ids) for refs with a venue id, order/cancel_with_external
 *    (≤ 50) for the rest; per-order errorCode 2040 / 2041 → OrderNotFound / OrderNotCancellable;
 *    cancelAll: POST order/cancel_all (symbol, or "" for all contracts);
 *  - queryOrder: GET order/external/{symbol}/{externalOid}; 2040 → undefined;
 *  - openOrders: GET order/list/open_orders, every page of 100, filtered by symbol here (the listed
 *    request has only paging parameters);
 *  - fillsSince: the API lists no own trades (fee_details has fill ids and fees but no price or
 *    quantity), so fills are derived from orders: GET order/list/history_orders (finalised orders,
 *    every page) plus the open orders, each order with dealVol > 0 updated at or after `since`
 *    giving ONE synthetic fill for its cumulative quantity (see fillFromContractOrder);
 *  - positions: GET position/open_positions; balances: GET account/assets;
 *  - fundingSince: GET position/funding_records (every page from `since` to now);
 *  - setLeverage: POST position/change_leverage (positionId when a position is open, else symbol +
 *    openType + positionType; both legs in hedged mode unless one is named);
 *    setPositionMode: POST position/change_position_mode;
 *  - attachTpSl: on a resting order POST stoporder/change_price; on a position POST stoporder/place
 *    (position-level, vol = the held quantity). Limit orders may also carry TP/SL at placement
 *    (order/create takeProfitPrice / stopLossPrice with profitTrend / lossTrend).
 *
 * Errors pass through from the client unchanged (OutcomeUnknown included); nothing is re-sent.
 */
import type { Clock } from '../../core/clock.js';
import { toPlain } from '../../core/decimal.js';
import { ExchangeError, OrderNotCancellable, OrderNotFound, OutcomeUnknown, PositionNotFound, ValidationError } from '../../core/errors.js';
import { orderId, type ClientOrderId, type ContractSymbol, type InstrumentSymbol, type OrderId } from '../../core/ids.js';
import type { ContractClient } from '../../client/contract-client.js';
import type { ContractOrder, ContractPosition } from '../../api/contract/order-schemas.js';
import {
  ContractOrderType,
  OpenType,
  PositionMode,
  PositionOpenType,
  PositionType,
  sidePositionType,
  type ContractStpMode,
} from '../../domain/contract-enums.js';
import type { AccountSnapshot, Balance } from '../../domain/balance.js';
import type { Fill } from '../../domain/fill.js';
import type { PositionModeName } from '../../domain/intent.js';
import type { InstrumentLookup } from '../../domain/instrument-registry.js';
import type { ContractInstrument } from '../../domain/instrument.js';
import type { MarginMode, OrderSide, VenueOrder } from '../../domain/order.js';
import type { Position } from '../../domain/position.js';
import type {
  AmendAck,
  AmendRequest,
  BatchItem,
  CancelAck,
  ExchangeGateway,
  FundingPayment,
  GatewayCapabilities,
  LeverageRequest,
  OrderRef,
  PlaceAck,
  PlaceRequest,
  ProtectiveOrderRequest,
  ProtectiveStop,
  TpSlRequest,
} from '../exchange-gateway.js';
import type { ProtectiveOrderRef } from '../../domain/position.js';
import { planOrderParams, placedProtection, planProtection, trackOrderParams, trackProtection } from './protective-order-mapping.js';
import {
  balanceFromContractAsset,
  CONTRACT_CLIENT_ID_MAX,
  contractOrderParams,
  contractSide,
  fillFromContractOrder,
  OPEN_TYPE,
  opensPosition,
  positionFromContract,
  positionTypeOf,
  TRIGGER_TREND,
  venueOrderFromContract,
  type ContractOrderWire,
} from './contract-order-mapping.js';
import { asPerpetua, elementError, isOrderNotFound } from './gateway-errors.js';
import { limitPriceOnTick, quantityOnStep, triggerPriceOnTick } from './order-rounding.js';
import { applyVerified, type SettingRetry } from './verified-setting.js';

/** The ContractClient methods the gateway calls (tests may pass a stub of the same shape). */
export type ContractTradingClient = Pick<
  ContractClient,
  | 'createOrder'
  | 'submitBatch'
  | 'changeLimitOrder'
  | 'chaseLimitOrder'
  | 'cancelOrders'
  | 'cancelWithExternal'
  | 'cancelAll'
  | 'orderByExternalOid'
  | 'openOrders'
  | 'historyOrders'
  | 'openPositions'
  | 'assets'
  | 'positionMode'
  | 'positionLeverage'
  | 'changeLeverage'
  | 'changePositionMode'
  | 'changeStopPrice'
  | 'placeStopOrder'
  | 'openStopOrders'
  | 'fundingRecords'
  | 'placeTrackOrder'
  | 'cancelTrackOrder'
  | 'trackOrders'
  | 'placePlanOrderV2'
  | 'cancelPlanOrders'
  | 'planOrders'
>;

export interface MexcContractGatewayOptions {
  readonly client: ContractTradingClient;
  readonly instruments: InstrumentLookup;
  readonly clock: Pick<Clock, 'now'>;
  /** The account's position mode when known; otherwise read from the venue on first use. */
  readonly positionMode?: PositionModeName;
  /** Margin type for opening orders when neither the order nor the side's setting says. Default: cross where the contract allows it. */
  readonly defaultMarginMode?: MarginMode;
  /** Leverage for opening orders when neither the order nor the side's setting gives one. */
  readonly defaultLeverage?: number;
  /** The account may call submit_batch (market makers). Default false. */
  readonly marketMaker?: boolean;
  readonly stpMode?: ContractStpMode;
  /** Type code of market orders: 5 (default) or 6 (market converted to the current price). */
  readonly marketOrderType?: typeof ContractOrderType.MARKET | typeof ContractOrderType.MARKET_TO_LIMIT;
  /** fillsSince looks at orders created up to this long before `since`. Default 24 h. */
  readonly fillsOrderLookbackMs?: number;
  /** Safety cap on pages per listing (100 orders each). Default 50. */
  readonly maxPages?: number;
  /**
   * Patience for account settings (verified-setting.ts): a lost answer or a transient error is resolved
   * by reading the setting back and sending it again until this deadline. Without it: one send, one read.
   */
  readonly settingRetry?: SettingRetry;
}

const PAGE_SIZE = 100;
const BATCH_MAX = 50;
const DAY_MS = 86_400_000;
/** Sides remembered for amend rounding; old entries are dropped first. */
const SIDE_MEMORY = 10_000;

export function contractCapabilities(marketMaker: boolean): GatewayCapabilities {
  return Object.freeze({
    kind: 'contract',
    amend: 'native',
    chase: 'native',
    batchPlaceMax: marketMaker ? BATCH_MAX : 1,
    batchCancelMax: BATCH_MAX,
    clientIdMaxLength: CONTRACT_CLIENT_ID_MAX,
    // "About 20 requests per 2 s per endpoint"; the client's limiter allows 18 per 2 s.
    orderCallsPerSecond: 9,
    leverage: true,
    positionMode: true,
    tpsl: true,
  });
}

interface SideSetting {
  leverage?: number;
  openType?: OpenType;
}

const MODE_CODE: Readonly<Record<PositionModeName, PositionMode>> = { hedged: PositionMode.HEDGED, 'one-way': PositionMode.ONE_WAY };

export class MexcContractGateway implements ExchangeGateway {
  readonly capabilities: GatewayCapabilities;
  private readonly client: ContractTradingClient;
  private mode: PositionMode | undefined;
  private readonly settings = new Map<string, SideSetting>();
  private readonly sides = new Map<string, OrderSide>();

  constructor(private readonly options: MexcContractGatewayOptions) {
    this.client = options.client;
    this.mode = options.positionMode ? MODE_CODE[options.positionMode] : undefined;
    this.capabilities = contractCapabilities(options.marketMaker ?? false);
  }

  // ───────────────────────────── placement

  async placeOrder(req: PlaceRequest): Promise<PlaceAck> {
    const params = await this.orderParams(req);
    let r;
    try {
      r = await this.client.createOrder(params);
    } catch (e) {
      // Refused: the leverage / margin type we believed in may be stale (changed elsewhere); read it again next time.
      if (e instanceof ExchangeError) this.forgetSettings(req.order.symbol);
      throw e;
    }
    this.rememberSide(req.clientOrderId, req.order.side);
    return { clientOrderId: req.clientOrderId, venueOrderId: orderId(r.orderId), ...(r.ts !== undefined ? { time: r.ts } : {}) };
  }

  async placeOrders(reqs: readonly PlaceRequest[]): Promise<readonly BatchItem<PlaceAck>[]> {
    if (reqs.length === 0) return [];
    if (reqs.length > BATCH_MAX) throw new ValidationError('orders', `at most ${BATCH_MAX} orders per batch`, reqs.length);
    const results: BatchItem<PlaceAck>[] = new Array<BatchItem<PlaceAck>>(reqs.length);
    if (!this.options.marketMaker) {
      // No batch endpoint for this account: one create each, every outcome reported.
      for (let i = 0; i < reqs.length; i++) {
        try {
          results[i] = { ok: true, value: await this.placeOrder(reqs[i]!) };
        } catch (e) {
          results[i] = { ok: false, clientOrderId: reqs[i]!.clientOrderId, error: asPerpetua(e) };
        }
      }
      return results;
    }
    const wire: { index: number; params: ContractOrderWire }[] = [];
    for (let i = 0; i < reqs.length; i++) {
      const r = reqs[i]!;
      try {
        if (r.order.takeProfitPrice || r.order.stopLossPrice)
          throw new ValidationError(
            'order.takeProfitPrice',
            'absent in a batch (submit_batch takes no TP/SL; place it alone or attach it later)',
          );
        wire.push({ index: i, params: await this.orderParams(r) });
      } catch (e) {
        results[i] = { ok: false, clientOrderId: r.clientOrderId, error: asPerpetua(e) };
      }
    }
    if (wire.length === 0) return results;
    let answer;
    try {
      answer = await this.client.submitBatch(wire.map((w) => ({ ...w.params, stpMode: w.params.stpMode ?? 0 })));
    } catch (e) {
      for (const w of wire) results[w.index] = { ok: false, clientOrderId: reqs[w.index]!.clientOrderId, error: asPerpetua(e) };
      return results;
    }
    wire.forEach((w, k) => {
      const cid = reqs[w.index]!.clientOrderId;
      const a = answer.find((x) => x.externalOid === cid) ?? answer[k];
      if (!a)
        results[w.index] = {
          ok: false,
          clientOrderId: cid,
          error: new OutcomeUnknown(`contract.submitBatch: no answer element for ${cid}; query it`, 'contract.submitBatch', [cid]),
        };
      else if (a.errorCode === 0 && a.orderId) {
        this.rememberSide(cid, reqs[w.index]!.order.side);
        results[w.index] = { ok: true, value: { clientOrderId: cid, venueOrderId: orderId(a.orderId) } };
      } else
        results[w.index] = {
          ok: false,
          clientOrderId: cid,
          error: elementError('contract', 'contract.submitBatch', a.errorCode, a.errorMsg),
        };
    });
    return results;
  }

  async amendOrder(req: AmendRequest): Promise<AmendAck> {
    const instrument = this.instrument(req.symbol);
    const venueId = req.venueOrderId ?? (await this.venueIdOf(req.symbol, req.clientOrderId));
    const onTick = req.price.div(instrument.priceUnit).isInteger();
    let price = req.price;
    if (!onTick) price = limitPriceOnTick(req.price, instrument.priceUnit, await this.sideOf(req.symbol, req.clientOrderId), 'amend.price');
    const vol = quantityOnStep(req.quantity, instrument.volUnit, 'amend.quantity');
    const id = await this.client.changeLimitOrder({ orderId: venueId, price: toPlain(price), vol: toPlain(vol) });
    return { venueOrderId: orderId(id) };
  }

  async chaseOrder(ref: OrderRef): Promise<void> {
    const venueId = ref.venueOrderId ?? (await this.venueIdOf(ref.symbol, ref.clientOrderId));
    await this.client.chaseLimitOrder({ orderId: venueId });
  }

  // ───────────────────────────── cancels

  async cancelOrder(ref: OrderRef): Promise<CancelAck> {
    const [r] = await this.cancelOrders([ref]);
    if (!r) throw new OutcomeUnknown(`contract cancel: no answer for ${ref.clientOrderId}`, 'contract.cancelOrders', [ref.clientOrderId]);
    if (r.ok) return r.value;
    throw r.error;
  }

  async cancelOrders(refs: readonly OrderRef[]): Promise<readonly BatchItem<CancelAck>[]> {
    if (refs.length > BATCH_MAX) throw new ValidationError('orders', `at most ${BATCH_MAX} orders per cancel`, refs.length);
    const results: BatchItem<CancelAck>[] = new Array<BatchItem<CancelAck>>(refs.length);
    const byId = refs.map((r, i) => ({ r, i })).filter((x) => x.r.venueOrderId !== undefined);
    const byExternal = refs.map((r, i) => ({ r, i })).filter((x) => x.r.venueOrderId === undefined);
    const settle = (
      group: { r: OrderRef; i: number }[],
      endpoint: string,
      answer: readonly {
        orderId?: string | undefined;
        externalOid?: string | undefined;
        errorCode: number;
        errorMsg?: string | undefined;
      }[],
      key: (r: OrderRef) => string,
      keyOf: (a: (typeof answer)[number]) => string | undefined,
    ) => {
      const found = new Map<string, (typeof answer)[number]>();
      for (const a of answer) {
        const k = keyOf(a);
        if (k !== undefined) found.set(k, a);
      }
      group.forEach(({ r, i }, k) => {
        const a = found.get(key(r)) ?? (answer.length === group.length ? answer[k] : undefined);
        if (!a)
          results[i] = {
            ok: false,
            clientOrderId: r.clientOrderId,
            error: new OutcomeUnknown(`${endpoint}: no answer element for ${r.clientOrderId}; query it`, endpoint, [r.clientOrderId]),
          };
        else if (a.errorCode === 0) results[i] = { ok: true, value: { clientOrderId: r.clientOrderId } };
        else results[i] = { ok: false, clientOrderId: r.clientOrderId, error: elementError('contract', endpoint, a.errorCode, a.errorMsg) };
      });
    };
    const failGroup = (group: { r: OrderRef; i: number }[], e: unknown) => {
      for (const { r, i } of group) results[i] = { ok: false, clientOrderId: r.clientOrderId, error: asPerpetua(e) };
    };
    if (byId.length > 0) {
      try {
        const answer = await this.client.cancelOrders(byId.map((x) => x.r.venueOrderId!));
        settle(
          byId,
          'contract.cancelOrders',
          answer,
          (r) => r.venueOrderId!,
          (a) => a.orderId,
        );
      } catch (e) {
        failGroup(byId, e);
      }
    }
    if (byExternal.length > 0) {
      try {
        const answer = await this.client.cancelWithExternal(
          byExternal.map((x) => ({ symbol: x.r.symbol, externalOid: x.r.clientOrderId })),
        );
        settle(
          byExternal,
          'contract.cancelWithExternal',
          answer,
          (r) => r.clientOrderId,
          (a) => a.externalOid,
        );
      } catch (e) {
        failGroup(byExternal, e);
      }
    }
    return results;
  }

  async cancelAll(symbol?: InstrumentSymbol): Promise<void> {
    await this.client.cancelAll({ symbol: symbol ?? '' });
  }

  // ───────────────────────────── queries

  async queryOrder(symbol: InstrumentSymbol, cid: ClientOrderId): Promise<VenueOrder | undefined> {
    const o = await this.orderByClientId(symbol, cid);
    return o ? venueOrderFromContract(o, this.mode ?? PositionMode.HEDGED) : undefined;
  }

  async openOrders(symbol?: InstrumentSymbol): Promise<readonly VenueOrder[]> {
    const mode = await this.positionMode();
    return (await this.openContractOrders(symbol)).map((o) => venueOrderFromContract(o, mode));
  }

  async fillsSince(symbol: InstrumentSymbol, since: number): Promise<readonly Fill[]> {
    const instrument = this.instrument(symbol);
    const mode = await this.positionMode();
    const start = Math.max(0, since - (this.options.fillsOrderLookbackMs ?? DAY_MS));
    const orders = new Map<string, ContractOrder>();
    for (let page = 1; page <= this.maxPages(); page++) {
      const list = await this.client.historyOrders({ symbol, start_time: start, page_num: page, page_size: PAGE_SIZE });
      for (const o of list) orders.set(String(o.orderId), o);
      if (list.length < PAGE_SIZE) break;
    }
    for (const o of await this.openContractOrders(symbol)) if (!orders.has(String(o.orderId))) orders.set(String(o.orderId), o);
    const fills: Fill[] = [];
    for (const o of orders.values()) {
      if ((o.updateTime ?? o.createTime ?? 0) < since) continue;
      const f = fillFromContractOrder(o, instrument.settleCoin, mode);
      if (f) fills.push(f);
    }
    return fills.sort((a, b) => a.time - b.time || (a.tradeId < b.tradeId ? -1 : a.tradeId > b.tradeId ? 1 : 0));
  }

  async positions(symbol?: InstrumentSymbol): Promise<readonly Position[]> {
    const mode = await this.positionMode();
    const list = await this.client.openPositions(symbol ? { symbol } : {});
    const now = this.options.clock.now();
    const out: Position[] = [];
    for (const p of list) {
      // A position in a contract the registry does not know cannot be valued (no contract size): left out.
      const i = this.options.instruments.instrument(p.symbol as ContractSymbol);
      if (!i || i.kind !== 'contract') continue;
      const pos = positionFromContract(p, i, mode, now);
      if (pos) out.push(pos);
    }
    return out;
  }

  async balances(): Promise<AccountSnapshot> {
    const assets = await this.client.assets();
    const balances: Record<string, Balance> = {};
    for (const a of assets) balances[a.currency] = balanceFromContractAsset(a);
    return { kind: 'contract', balances, time: this.options.clock.now() };
  }

  // ───────────────────────────── settings

  async setLeverage(req: LeverageRequest): Promise<void> {
    const instrument = this.instrument(req.symbol);
    if (!Number.isInteger(req.leverage) || req.leverage < instrument.minLeverage || req.leverage > instrument.maxLeverage) {
      throw new ValidationError('leverage', `an integer ${instrument.minLeverage}..${instrument.maxLeverage}`, req.leverage);
    }
    const mode = await this.positionMode();
    if (mode === PositionMode.ONE_WAY && req.positionSide !== undefined)
      throw new ValidationError('positionSide', 'absent in one-way position mode (leverage is per contract)', req.positionSide);
    // One-way: one setting per contract; hedged: per leg, both unless one is named.
    const types = req.positionSide
      ? [positionTypeOf(req.positionSide)]
      : mode === PositionMode.ONE_WAY
        ? [PositionType.LONG]
        : [PositionType.LONG, PositionType.SHORT];
    const open = (await this.client.openPositions({ symbol: req.symbol })).filter((p) => p.holdVol.gt(0));
    for (const pt of types) {
      const pos: ContractPosition | undefined = mode === PositionMode.ONE_WAY ? open[0] : open.find((p) => p.positionType === pt);
      const openType = req.marginMode ? OPEN_TYPE[req.marginMode] : await this.openTypeFor(instrument, pt);
      // An open position keeps its margin type (the change goes by positionId): only the leverage is compared.
      const wantType = pos ? undefined : openType;
      await applyVerified(
        {
          what: `${req.symbol} leverage ${req.leverage}x (position type ${pt}${wantType !== undefined ? `, open type ${wantType}` : ''})`,
          endpoint: 'contract.changeLeverage',
          isApplied: async () => {
            const row = (await this.client.positionLeverage({ symbol: req.symbol })).find((r) => r.positionType === pt);
            return row !== undefined && row.leverage === req.leverage && (wantType === undefined || row.openType === wantType);
          },
          change: () =>
            this.client.changeLeverage(
              pos
                ? { leverage: req.leverage, positionId: pos.positionId }
                : { leverage: req.leverage, symbol: req.symbol, openType, positionType: pt },
            ),
        },
        this.options.settingRetry,
      );
      const touched = mode === PositionMode.ONE_WAY ? [PositionType.LONG, PositionType.SHORT] : [pt];
      for (const t of touched)
        this.settings.set(settingKey(req.symbol, t), { leverage: req.leverage, openType: pos?.openType ?? openType });
    }
  }

  async setPositionMode(mode: PositionModeName): Promise<void> {
    const want = MODE_CODE[mode];
    await applyVerified(
      {
        what: `position mode ${mode}`,
        endpoint: 'contract.changePositionMode',
        isApplied: async () => (await this.client.positionMode()) === want,
        change: () => this.client.changePositionMode({ positionMode: want }),
      },
      this.options.settingRetry,
    );
    this.mode = want;
    // The venue keeps leverage settings per leg (hedged) or per contract (one-way): none carry over.
    this.settings.clear();
  }

  async attachTpSl(req: TpSlRequest): Promise<void> {
    if (!req.takeProfitPrice && !req.stopLossPrice) throw new ValidationError('takeProfitPrice', 'a take-profit or a stop-loss price');
    const instrument = this.instrument(req.symbol);
    const trend = TRIGGER_TREND[req.triggerPriceType ?? 'last'];
    const tp = req.takeProfitPrice ? toPlain(triggerPriceOnTick(req.takeProfitPrice, instrument.priceUnit, 'takeProfitPrice')) : undefined;
    const sl = req.stopLossPrice ? toPlain(triggerPriceOnTick(req.stopLossPrice, instrument.priceUnit, 'stopLossPrice')) : undefined;
    const prices = { ...(tp ? { takeProfitPrice: tp, profitTrend: trend } : {}), ...(sl ? { stopLossPrice: sl, lossTrend: trend } : {}) };
    if (req.order) {
      const venueId = req.order.venueOrderId ?? (await this.venueIdOf(req.symbol, req.order.clientOrderId));
      await this.client.changeStopPrice({ orderId: venueId, ...prices });
      return;
    }
    const mode = await this.positionMode();
    const open = (await this.client.openPositions({ symbol: req.symbol })).filter((p) => p.holdVol.gt(0));
    let pos: ContractPosition | undefined;
    if (mode === PositionMode.ONE_WAY || req.positionSide === undefined) {
      if (mode === PositionMode.HEDGED && open.length > 1)
        throw new ValidationError('positionSide', 'long or short (both legs are open in hedged mode)');
      pos = open[0];
    } else {
      pos = open.find((p) => p.positionType === positionTypeOf(req.positionSide!));
    }
    if (!pos)
      throw new PositionNotFound(`${req.symbol}: no open ${req.positionSide ?? ''} position to attach TP/SL to`.replace('  ', ' '), {
        endpoint: 'contract.openPositions',
      });
    await this.client.placeStopOrder({ symbol: req.symbol, positionId: pos.positionId, vol: toPlain(pos.holdVol), volType: 2, ...prices });
  }

  /**
   * POST trackorder/place or planorder/place/v2: a reduce-only close of the position side (codes in
   * protective-order-mapping.ts); leverage and margin type default to the held position's.
   */
  async placeProtectiveOrder(req: ProtectiveOrderRequest): Promise<ProtectiveStop> {
    const instrument = this.instrument(req.symbol);
    const mode = await this.positionMode();
    const held =
      req.leverage === undefined || req.marginMode === undefined
        ? (await this.client.openPositions({ symbol: req.symbol })).find(
            (p) => p.holdVol.gt(0) && p.positionType === positionTypeOf(req.positionSide),
          )
        : undefined;
    const settings = held ? { leverage: held.leverage, openType: held.openType } : {};
    const id =
      req.spec.type === 'trailing'
        ? await this.client.placeTrackOrder(trackOrderParams(req, instrument, mode, settings))
        : await this.client.placePlanOrderV2(planOrderParams(req, instrument, mode, settings));
    return placedProtection(req, id);
  }

  /** POST trackorder/cancel (trackOrderId) or planorder/cancel; 2040 / 2041 (gone, final) → false. */
  async cancelProtectiveOrder(symbol: InstrumentSymbol, ref: ProtectiveOrderRef): Promise<boolean> {
    try {
      // A refused element comes back as the call's error (2040 / 2041), as for the other cancels.
      if (ref.kind === 'trailing') await this.client.cancelTrackOrder({ symbol, trackOrderId: ref.id });
      else await this.client.cancelPlanOrders([{ symbol, orderId: ref.id }]);
      return true;
    } catch (err) {
      if (isOrderNotFound(err, 'contract') || err instanceof OrderNotCancellable) return false;
      throw err;
    }
  }

  /**
   * GET stoporder/open_orders of the symbol: the untriggered TP/SL orders that hang on a position
   * (positionId set; one attached to a limit order not yet filled protects nothing held); then the live
   * trailing orders (trackorder/list/orders, states 0 and 1) and untriggered plan orders that close a
   * position (sides 2 and 4).
   */
  async protectiveStops(symbol: InstrumentSymbol): Promise<readonly ProtectiveStop[]> {
    const list = await this.client.openStopOrders({ symbol });
    const out: ProtectiveStop[] = [];
    for (const s of list) {
      if (s.symbol !== symbol || !s.positionId || s.positionId === '0' || (s.state !== undefined && s.state !== 1)) continue;
      if (s.positionType !== PositionType.LONG && s.positionType !== PositionType.SHORT) continue;
      const tp = s.takeProfitPrice && s.takeProfitPrice.gt(0) ? s.takeProfitPrice : undefined;
      const sl = s.stopLossPrice && s.stopLossPrice.gt(0) ? s.stopLossPrice : undefined;
      if (!tp && !sl) continue;
      out.push({
        symbol,
        positionSide: s.positionType === PositionType.LONG ? 'long' : 'short',
        ...(tp ? { takeProfitPrice: tp } : {}),
        ...(sl ? { stopLossPrice: sl } : {}),
        ...(s.vol ? { quantity: s.vol } : {}),
      });
    }
    for (let page = 1; page <= this.maxPages(); page++) {
      const got = await this.client.trackOrders({ states: [0, 1], symbol, pageIndex: page, pageSize: PAGE_SIZE });
      for (const t of got) {
        const p = t.symbol === symbol ? trackProtection(symbol, t) : undefined;
        if (p) out.push(p);
      }
      if (got.length < PAGE_SIZE) break;
    }
    for (let page = 1; page <= this.maxPages(); page++) {
      const got = await this.client.planOrders({ symbol, states: [1], page_num: page, page_size: PAGE_SIZE });
      for (const o of got) {
        const p = o.symbol === symbol ? planProtection(symbol, o) : undefined;
        if (p) out.push(p);
      }
      if (got.length < PAGE_SIZE) break;
    }
    return out;
  }

  /**
   * GET position/funding_records of the symbol from `since` to now, every page (newest first, 100 a
   * page): one payment per record, its leg read by the account's position mode.
   */
  async fundingSince(symbol: InstrumentSymbol, since: number): Promise<readonly FundingPayment[]> {
    const instrument = this.instrument(symbol);
    const mode = await this.positionMode();
    const end = Math.max(since, this.options.clock.now());
    const out: FundingPayment[] = [];
    for (let page = 1; page <= this.maxPages(); page++) {
      const got = await this.client.fundingRecords({ symbol, start_time: since, end_time: end, page_num: page, page_size: PAGE_SIZE });
      for (const r of got.resultList) {
        if (r.symbol !== symbol || r.settleTime < since) continue;
        const leg = mode === PositionMode.ONE_WAY ? 'net' : r.positionType === PositionType.LONG ? 'long' : 'short';
        out.push({ id: String(r.id), symbol, leg, amount: r.funding, asset: instrument.settleCoin, rate: r.rate, time: r.settleTime });
      }
      if (got.resultList.length < PAGE_SIZE) break;
    }
    return out.sort((a, b) => a.time - b.time || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  // ───────────────────────────── helpers

  /** The account's position mode: configured, learned, or read once from the venue. */
  async positionMode(): Promise<PositionMode> {
    if (this.mode === undefined) this.mode = await this.client.positionMode();
    return this.mode;
  }

  private async orderParams(req: PlaceRequest): Promise<ContractOrderWire> {
    const o = req.order;
    const instrument = this.instrument(o.symbol);
    const mode = await this.positionMode();
    const side = contractSide(o, mode);
    const pt = sidePositionType(side);
    const opening = opensPosition(side, o.reduceOnly, mode);
    let leverage = o.leverage;
    if (opening && leverage === undefined) leverage = (await this.setting(o.symbol, pt)).leverage ?? this.options.defaultLeverage;
    const openType = o.marginMode ? OPEN_TYPE[o.marginMode] : await this.openTypeFor(instrument, pt);
    if (instrument.positionOpenType === PositionOpenType.ISOLATED && openType !== OpenType.ISOLATED)
      throw new ValidationError('order.marginMode', `isolated (${o.symbol} allows isolated margin only)`, 'cross');
    if (instrument.positionOpenType === PositionOpenType.CROSS && openType !== OpenType.CROSS)
      throw new ValidationError('order.marginMode', `cross (${o.symbol} allows cross margin only)`, 'isolated');
    return contractOrderParams(req, instrument, {
      positionMode: mode,
      ...(leverage !== undefined ? { leverage } : {}),
      openType,
      ...(this.options.stpMode !== undefined ? { stpMode: this.options.stpMode } : {}),
      ...(this.options.marketOrderType !== undefined ? { marketType: this.options.marketOrderType } : {}),
    });
  }

  /** The side's current leverage and margin type, read once per symbol from GET position/leverage. */
  private async setting(symbol: string, pt: PositionType): Promise<SideSetting> {
    const key = settingKey(symbol, pt);
    const known = this.settings.get(key);
    if (known) return known;
    const rows = await this.client.positionLeverage({ symbol });
    for (const r of rows) {
      const k = settingKey(symbol, r.positionType as PositionType);
      const openType = r.openType === OpenType.ISOLATED || r.openType === OpenType.CROSS ? (r.openType as OpenType) : undefined;
      this.settings.set(k, {
        ...(r.leverage !== undefined && r.leverage > 0 ? { leverage: r.leverage } : {}),
        ...(openType ? { openType } : {}),
      });
    }
    return this.settings.get(key) ?? {};
  }

  private async openTypeFor(instrument: ContractInstrument, pt: PositionType): Promise<OpenType> {
    if (instrument.positionOpenType === PositionOpenType.ISOLATED) return OpenType.ISOLATED;
    if (instrument.positionOpenType === PositionOpenType.CROSS) return OpenType.CROSS;
    const s = await this.setting(instrument.symbol, pt);
    return s.openType ?? OPEN_TYPE[this.options.defaultMarginMode ?? 'cross'];
  }

  private async orderByClientId(symbol: string, cid: string): Promise<ContractOrder | undefined> {
    try {
      const o = await this.client.orderByExternalOid({ symbol, external_oid: cid });
      this.rememberSide(cid, o.side === 1 || o.side === 2 ? 'buy' : 'sell');
      return o;
    } catch (e) {
      if (isOrderNotFound(e, 'contract')) return undefined;
      throw e;
    }
  }

  private async venueIdOf(symbol: string, cid: ClientOrderId): Promise<OrderId> {
    const o = await this.orderByClientId(symbol, cid);
    if (!o)
      throw new OrderNotFound(`${symbol}: no order with client id ${cid}`, { venueCode: 2040, endpoint: 'contract.orderByExternalOid' });
    return orderId(o.orderId);
  }

  private async sideOf(symbol: string, cid: ClientOrderId): Promise<OrderSide> {
    const known = this.sides.get(cid);
    if (known) return known;
    await this.venueIdOf(symbol, cid);
    return this.sides.get(cid)!;
  }

  private forgetSettings(symbol: string): void {
    this.settings.delete(settingKey(symbol, PositionType.LONG));
    this.settings.delete(settingKey(symbol, PositionType.SHORT));
  }

  private rememberSide(cid: string, side: OrderSide): void {
    if (this.sides.size >= SIDE_MEMORY) this.sides.delete(this.sides.keys().next().value!);
    this.sides.set(cid, side);
  }

  private async openContractOrders(symbol?: InstrumentSymbol): Promise<ContractOrder[]> {
    const out: ContractOrder[] = [];
    for (let page = 1; page <= this.maxPages(); page++) {
      const list = await this.client.openOrders({ page_num: page, page_size: PAGE_SIZE });
      for (const o of list) if (!symbol || o.symbol === symbol) out.push(o);
      if (list.length < PAGE_SIZE) break;
    }
    for (const o of out) if (o.externalOid) this.rememberSide(o.externalOid, o.side === 1 || o.side === 2 ? 'buy' : 'sell');
    return out;
  }

  private maxPages(): number {
    return this.options.maxPages ?? 50;
  }

  private instrument(symbol: string): ContractInstrument {
    const i = this.options.instruments.instrument(symbol as ContractSymbol);
    if (!i || i.kind !== 'contract')
      throw new ValidationError('order.symbol', 'a contract instrument known to the registry (fail closed: no rules, no order)', symbol);
    return i;
  }
}

const settingKey = (symbol: string, pt: PositionType): string => `${symbol}|${pt}`;
