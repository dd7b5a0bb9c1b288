/**
 * Signed contract endpoints on the engine: assets, transfers, risk limits, order queries, positions
 * and their settings, placement (with its TP/SL prices and their price types), amend, chase, cancel,
 * cancel all, close all. Fees and PnL analysis: contract-account-ext-handlers.ts; trigger orders:
 * contract-trigger-handlers.ts.
 * The venue's refusals are values and go out as `{success:false, code, message}`; the per-order cancel
 * answers carry errorCode 0 / 2040 / 2041 per element.
 *
 * Accounts whose config says `contract.tradingAllowed: false` are refused placement with 1002, as the
 * real venue refuses most API keys.
 */
import type {
  PositionMode,
  PositionType,
  OpenType,
  ContractSide,
  ContractOrderType,
  ContractStpMode,
  MarginChangeType,
} from '../../domain/contract-enums.js';
import type { PlaceOrderRequest, Rejected } from '../../venue/contract/contract-requests.js';
import type { ContractFillView, ContractOrderView, LeverageView } from '../../venue/contract/contract-views.js';
import type { ContractEngine } from '../engine/contract-engine.js';
import { contractInstrumentOf, type EmulatorContext } from '../emulator-context.js';
import { ContractError, contractRefusal, contractWireText, type WireError } from '../http/wire-error.js';
import { NO_DATA, type ApiCall, type EndpointHandler } from './handler.js';
import { JsonText, jsonFinite, jsonVerbatim } from './json-text.js';
import { assetWire, idValue, n, orderWire, pageWire, positionWire } from './contract-wire.js';

const refused = (r: Rejected): WireError => contractRefusal(r.code, r.message);

interface Paging {
  page_num?: number;
  page_size?: number;
}

interface CreateParams {
  symbol: string;
  price?: number;
  vol: number;
  leverage?: number;
  side: ContractSide;
  type: ContractOrderType;
  openType: OpenType;
  externalOid?: string;
  positionId?: string;
  positionMode?: PositionMode;
  reduceOnly?: boolean;
  stopLossPrice?: number;
  takeProfitPrice?: number;
  lossTrend?: number;
  profitTrend?: number;
  priceProtect?: number;
  stpMode?: ContractStpMode;
}

function leverageWire(v: LeverageView): Record<string, unknown> {
  return {
    level: v.level,
    maxVol: n(v.maxVol),
    mmr: n(v.mmr),
    imr: n(v.imr),
    positionType: v.positionType,
    openType: v.openType,
    leverage: v.leverage,
    limitBySys: v.limitBySys,
    currentMmr: n(v.currentMmr),
    maxLeverageView: v.maxLeverageView,
  };
}

/**
 * The order/create answer's data: as JSON text when the template gives JSON.stringify's bytes
 * (handlers/json-text.ts), else the object. test/emulator/handlers/json-text.test.ts compares the two.
 */
export function createdOrder(orderId: string, ts: number): JsonText | { orderId: string; ts: number } {
  return jsonVerbatim(orderId) && jsonFinite(ts) ? new JsonText(`{"orderId":"${orderId}","ts":${ts}}`) : { orderId, ts };
}

export function contractTradeHandlers(ctx: EmulatorContext, engine: ContractEngine): Record<string, EndpointHandler> {
  const venue = engine.venue;
  const reader = engine.reader;
  const paging = (p: Paging) => ({ pageNum: p.page_num ?? 1, pageSize: p.page_size ?? 20 });
  const wire = (o: ContractOrderView) => orderWire(o, reader.orderTpSl(o.accountId, o.orderId));
  /** A fill as order_deals / deal_details answer it; category and positionMode are its order's. */
  const dealWire = (f: ContractFillView) => {
    const o = reader.getOrder(f.accountId, f.orderId);
    return {
      id: idValue(String(f.tradeId)),
      symbol: f.symbol,
      side: f.side,
      vol: n(f.vol),
      price: n(f.price),
      feeCurrency: f.feeCurrency,
      fee: n(f.fee),
      timestamp: f.time,
      profit: n(f.profit),
      category: o?.category ?? 1,
      orderId: f.orderId,
      positionMode: o?.positionMode ?? reader.positionMode(f.accountId),
      taker: f.taker,
    };
  };
  const orderOrMissing = (v: ContractOrderView | undefined) => {
    if (!v) throw ContractError.orderNotExist();
    return wire(v);
  };
  const mayTrade = (c: { readonly account: ApiCall['account'] }) => {
    if (!c.account!.contractTradingAllowed) throw ContractError.contractNotAllowed();
  };
  const placeRequest = (p: CreateParams): PlaceOrderRequest => ({
    symbol: p.symbol,
    price: p.price,
    vol: p.vol,
    leverage: p.leverage,
    side: p.side,
    type: p.type,
    openType: p.openType,
    externalOid: p.externalOid === '' ? undefined : p.externalOid,
    positionId: p.positionId,
    positionMode: p.positionMode,
    reduceOnly: p.reduceOnly,
    stpMode: p.stpMode,
    stopLossPrice: p.stopLossPrice,
    takeProfitPrice: p.takeProfitPrice,
    lossTrend: p.lossTrend,
    profitTrend: p.profitTrend,
    priceProtect: p.priceProtect,
  });
  const cancelWire = (list: readonly { orderId: string; errorCode: number; errorMsg: string }[]) =>
    list.map((e) => ({ orderId: idValue(e.orderId), errorCode: e.errorCode, errorMsg: e.errorMsg }));

  return {
    // ---------- account
    'contract.assets': (c: ApiCall) => reader.assets(c.account!.id).map(assetWire),
    'contract.asset': (c: ApiCall<{ currency: string }>) => {
      const a = reader.asset(c.account!.id, c.params.currency);
      if (a) return assetWire(a);
      return {
        currency: c.params.currency,
        positionMargin: 0,
        availableBalance: 0,
        cashBalance: 0,
        frozenBalance: 0,
        equity: 0,
        unrealized: 0,
        bonus: 0,
        availableCash: 0,
        availableOpen: 0,
      };
    },
    'contract.transferRecord': (c: ApiCall<Paging & { currency?: string; type?: 'IN' | 'OUT' }>) =>
      pageWire(reader.transferRecords(c.account!.id, { ...paging(c.params), currency: c.params.currency, type: c.params.type }), (t) => ({
        id: t.id,
        txid: '',
        currency: t.currency,
        amount: n(t.amount),
        type: t.type,
        state: t.state,
        createTime: t.createTime,
        updateTime: t.updateTime,
      })),
    'contract.riskLimit': (c: ApiCall<{ symbol?: string }>) => {
      if (c.params.symbol !== undefined) contractInstrumentOf(ctx, c.params.symbol);
      const out: Record<string, unknown> = {};
      for (const [symbol, rows] of Object.entries(reader.riskLimits(c.account!.id, c.params.symbol))) {
        out[symbol] = rows.map((r) => ({ symbol: r.symbol, maxLeverage: r.maxLeverageView, ...leverageWire(r) }));
      }
      return out;
    },
    'contract.changeRiskLevel': () => {
      throw ContractError.riskLevelDisabled();
    },

    // ---------- order queries
    'contract.orderByExternalOid': (c: ApiCall<{ symbol: string; external_oid: string }>) => {
      contractInstrumentOf(ctx, c.params.symbol);
      return orderOrMissing(reader.getOrderByExternalOid(c.account!.id, c.params.symbol, c.params.external_oid));
    },
    'contract.getOrder': (c: ApiCall<{ orderId: string }>) => orderOrMissing(reader.getOrder(c.account!.id, c.params.orderId)),
    // Beyond both documents (api/contract/order-queries.ts): the account's fills as ccxt reads them.
    'contract.orderDeals': (c: ApiCall<Paging & { symbol: string; start_time?: number; end_time?: number }>) => {
      contractInstrumentOf(ctx, c.params.symbol);
      const q = { ...paging(c.params), symbol: c.params.symbol, startTime: c.params.start_time, endTime: c.params.end_time };
      return reader.fills(c.account!.id, q).resultList.map(dealWire);
    },
    'contract.orderDealDetails': (c: ApiCall<{ order_id: string }>) =>
      reader.fills(c.account!.id, { orderId: c.params.order_id, pageNum: 1, pageSize: Number.MAX_SAFE_INTEGER }).resultList.map(dealWire),
    'contract.batchQuery': (c: ApiCall<{ order_ids: string }>) => reader.getOrders(c.account!.id, c.params.order_ids.split(',')).map(wire),
    'contract.batchQueryWithExternal': (c: ApiCall<{ symbol: string; externalOid: string }[]>) =>
      c.params.flatMap((r) => {
        const v = reader.getOrderByExternalOid(c.account!.id, r.symbol, r.externalOid);
        return v ? [wire(v)] : [];
      }),
    'contract.openOrders': (c: ApiCall<Paging & { symbol?: string }>) =>
      reader.openOrders(c.account!.id, { ...paging(c.params), symbol: c.params.symbol }).resultList.map(wire),
    'contract.openOrderTotalCount': (c: ApiCall) => ({ ...reader.openOrderCount(c.account!.id) }),
    'contract.historyOrders': (
      c: ApiCall<Paging & { symbol?: string; states?: string; category?: number; side?: number; start_time?: number; end_time?: number }>,
    ) =>
      reader
        .historyOrders(c.account!.id, {
          ...paging(c.params),
          symbol: c.params.symbol,
          states: c.params.states?.split(',').map(Number),
          category: c.params.category,
          side: c.params.side,
          startTime: c.params.start_time,
          endTime: c.params.end_time,
        })
        .resultList.map(wire),

    // ---------- positions
    // The real exchange answers a bare list here, not the page object the document shows (its own
    // example, ccxt's fetchPositionsHistory and Mexc.Net read `data` as an array): served as a list.
    'contract.historyPositions': (
      c: ApiCall<Paging & { symbol?: string; type?: PositionType; position_type?: PositionType; start_time?: number; end_time?: number }>,
    ) =>
      reader
        .historyPositions(c.account!.id, {
          ...paging(c.params),
          symbol: c.params.symbol,
          positionType: c.params.position_type ?? c.params.type,
          startTime: c.params.start_time,
          endTime: c.params.end_time,
        })
        .resultList.map(positionWire),
    'contract.openPositions': (c: ApiCall<{ symbol?: string; positionId?: string }>) =>
      reader.openPositions(c.account!.id, { symbol: c.params.symbol, positionId: c.params.positionId }).map(positionWire),
    'contract.fundingRecords': (
      c: ApiCall<Paging & { symbol?: string; position_id?: string; position_type?: PositionType; start_time?: number; end_time?: number }>,
    ) =>
      pageWire(
        reader.fundingRecords(c.account!.id, {
          ...paging(c.params),
          symbol: c.params.symbol,
          positionId: c.params.position_id,
          positionType: c.params.position_type,
          startTime: c.params.start_time,
          endTime: c.params.end_time,
        }),
        (r) => ({
          id: r.id,
          symbol: r.symbol,
          positionType: r.positionType,
          positionValue: n(r.positionValue),
          funding: n(r.funding),
          rate: n(r.rate),
          settleTime: r.settleTime,
        }),
      ),
    'contract.positionLeverage': (c: ApiCall<{ symbol: string }>) => {
      contractInstrumentOf(ctx, c.params.symbol);
      return reader.leverage(c.account!.id, c.params.symbol).map(leverageWire);
    },
    'contract.positionMode': (c: ApiCall) => reader.positionMode(c.account!.id),
    'contract.changeMargin': (c: ApiCall<{ positionId: string; amount: number; type: MarginChangeType }>) => {
      const r = venue.changeMargin(c.account!.id, { positionId: c.params.positionId, amount: c.params.amount, type: c.params.type });
      if (!r.ok) throw refused(r);
      return NO_DATA;
    },
    'contract.changeAutoAddIm': (c: ApiCall<{ positionId: string; isEnabled: boolean }>) => {
      const r = venue.changeAutoAddIm(c.account!.id, c.params.positionId, c.params.isEnabled);
      if (!r.ok) throw refused(r);
      return NO_DATA;
    },
    'contract.changeLeverage': (
      c: ApiCall<{ leverage: number; positionId?: string; openType?: OpenType; symbol?: string; positionType?: PositionType }>,
    ) => {
      if (c.params.symbol !== undefined) contractInstrumentOf(ctx, c.params.symbol);
      const r = venue.changeLeverage(c.account!.id, {
        leverage: c.params.leverage,
        positionId: c.params.positionId,
        openType: c.params.openType,
        symbol: c.params.symbol,
        positionType: c.params.positionType,
      });
      if (!r.ok) throw refused(r);
      return NO_DATA;
    },
    'contract.changePositionMode': (c: ApiCall<{ positionMode: PositionMode }>) => {
      const r = venue.changePositionMode(c.account!.id, c.params.positionMode);
      if (!r.ok) throw refused(r);
      return NO_DATA;
    },
    'contract.reversePosition': (c: ApiCall<{ symbol: string; positionId: string; vol: number }>) => {
      mayTrade(c);
      contractInstrumentOf(ctx, c.params.symbol);
      const r = venue.reversePosition(c.account!.id, { symbol: c.params.symbol, positionId: c.params.positionId, vol: c.params.vol });
      if (!r.ok) throw refused(r);
      return NO_DATA;
    },
    'contract.closeAll': (c: ApiCall) => {
      mayTrade(c);
      return venue.closeAll(c.account!.id).map((x) => (x.result.ok ? x.result.value.orderId : x.positionId));
    },

    // ---------- orders
    'contract.createOrder': (c: ApiCall<CreateParams>) => {
      mayTrade(c);
      contractInstrumentOf(ctx, c.params.symbol);
      const r = venue.placeOrder(c.account!.id, placeRequest(c.params));
      if (!r.ok) throw refused(r);
      return createdOrder(r.value.orderId, r.value.createTime);
    },
    'contract.submitBatch': (c: ApiCall<CreateParams[]>) => {
      mayTrade(c);
      return c.params.map((p) => {
        if (!ctx.contractInstruments.has(p.symbol))
          return { orderId: null, errorCode: 1001, errorMsg: contractWireText(1001, 'contract does not exist') };
        const r = venue.placeOrder(c.account!.id, placeRequest(p));
        return r.ok
          ? { orderId: r.value.orderId, errorCode: 0 }
          : { orderId: r.order?.orderId ?? null, errorCode: r.code, errorMsg: contractWireText(r.code, r.message) };
      });
    },
    'contract.chaseLimitOrder': (c: ApiCall<{ orderId: string }>) => {
      const r = venue.chaseLimitOrder(c.account!.id, c.params.orderId);
      if (!r.ok) throw refused(r);
      return NO_DATA;
    },
    'contract.changeLimitOrder': (c: ApiCall<{ orderId: string; price: number; vol: number }>) => {
      const r = venue.changeLimitOrder(c.account!.id, { orderId: c.params.orderId, price: c.params.price, vol: c.params.vol });
      if (!r.ok) throw refused(r);
      return r.value.orderId;
    },
    'contract.cancelOrders': (c: ApiCall<string[]>) => cancelWire(venue.cancelOrders(c.account!.id, c.params)),
    'contract.cancelWithExternal': (c: ApiCall<{ symbol: string; externalOid: string }[]>) =>
      cancelWire(venue.cancelWithExternal(c.account!.id, c.params)),
    'contract.batchCancelWithExternal': (c: ApiCall<{ symbol: string; externalOid: string }[]>) =>
      cancelWire(venue.cancelWithExternal(c.account!.id, c.params)),
    'contract.cancelAll': (c: ApiCall<{ symbol: string }>) => {
      if (c.params.symbol !== '') contractInstrumentOf(ctx, c.params.symbol);
      venue.cancelAll(c.account!.id, c.params.symbol === '' ? undefined : c.params.symbol);
      return NO_DATA;
    },
  };
}
