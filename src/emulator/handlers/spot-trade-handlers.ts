/**
 * Signed spot trading and account endpoints on the engine: place, test, batch, cancel, cancel all,
 * query, open orders, all orders, own trades, account. The venue's refusals are values
 * (`{ok:false, code, msg}`) and go out as the spot error body with HTTP 400.
 */
import { parseBatchOrders } from '../../api/spot/orders.js';
import type { SpotOrderType, SpotSide, SpotStpMode } from '../../domain/spot-enums.js';
import type { SpotOrderRecord, SpotOrderView } from '../../venue/spot/spot-order.js';
import type { SpotRejection } from '../../venue/spot/spot-rejections.js';
import type { SpotPlaceResult } from '../../venue/spot/spot-venue.js';
import { fixedFromUnits, unitsFromFixed } from './fixed-point.js';
import type { SpotEngine } from '../engine/spot-engine.js';
import { spotInstrumentOf, type EmulatorContext } from '../emulator-context.js';
import { WireError } from '../http/wire-error.js';
import type { ApiCall, EndpointHandler } from './handler.js';
import { JsonText, jsonFinite, jsonVerbatim } from './json-text.js';

interface OrderParams {
  symbol: string;
  side: SpotSide;
  type: SpotOrderType;
  quantity?: string;
  quoteOrderQty?: string;
  price?: string;
  newClientOrderId?: string;
  stpMode?: SpotStpMode;
}

interface OrderRefParams {
  symbol: string;
  orderId?: string;
  origClientOrderId?: string;
  newClientOrderId?: string;
}

const refused = (r: SpotRejection): WireError => new WireError('spot', r.code, r.msg, 400);

/** The order as GET /api/v3/order, openOrders and allOrders report it. */
export function spotOrderWire(v: SpotOrderView): Record<string, unknown> {
  return {
    symbol: v.symbol,
    orderId: v.orderId,
    orderListId: -1,
    clientOrderId: v.clientOrderId ?? null,
    price: v.price.toFixed(),
    origQty: v.origQty.toFixed(),
    executedQty: v.executedQty.toFixed(),
    cummulativeQuoteQty: v.cummulativeQuoteQty.toFixed(),
    status: v.status,
    timeInForce: null,
    type: v.type,
    side: v.side,
    stopPrice: null,
    icebergQty: null,
    time: v.time,
    updateTime: v.updateTime,
    isWorking: v.isWorking,
    origQuoteOrderQty: v.origQuoteOrderQty.toFixed(),
    stpMode: v.stpMode,
    cancelReason: v.cancelReason,
  };
}

function cancelledWire(v: SpotOrderView, newClientOrderId?: string): Record<string, unknown> {
  return {
    symbol: v.symbol,
    origClientOrderId: v.clientOrderId ?? null,
    orderId: v.orderId,
    clientOrderId: newClientOrderId ?? v.clientOrderId ?? null,
    price: v.price.toFixed(),
    origQty: v.origQty.toFixed(),
    executedQty: v.executedQty.toFixed(),
    cummulativeQuoteQty: v.cummulativeQuoteQty.toFixed(),
    status: v.status,
    type: v.type,
    side: v.side,
    orderListId: -1,
    stpMode: v.stpMode,
  };
}

/** The newOrder answer's fields, in the answer's order. */
interface OrderAck {
  readonly symbol: string;
  readonly orderId: string;
  readonly price: string;
  readonly origQty: string;
  readonly type: string;
  readonly side: string;
  readonly stpMode: string;
  readonly time: number;
}

/**
 * The newOrder answer: as JSON text when the template gives JSON.stringify's bytes (handlers/json-text.ts),
 * else the object. test/emulator/handlers/json-text.test.ts compares the two over any field values.
 */
export function orderAck(o: OrderAck): JsonText | Record<string, unknown> {
  const { symbol, orderId, price, origQty, type, side, stpMode, time } = o;
  if (
    jsonVerbatim(symbol) &&
    jsonVerbatim(orderId) &&
    jsonVerbatim(price) &&
    jsonVerbatim(origQty) &&
    jsonVerbatim(type) &&
    jsonVerbatim(side) &&
    jsonVerbatim(stpMode) &&
    jsonFinite(time)
  ) {
    return new JsonText(
      `{"symbol":"${symbol}","orderId":"${orderId}","orderListId":-1,"price":"${price}","origQty":"${origQty}","type":"${type}","side":"${side}","stpMode":"${stpMode}","transactTime":${time}}`,
    );
  }
  return { symbol, orderId, orderListId: -1, price, origQty, type, side, stpMode, transactTime: time };
}

export function spotTradeHandlers(ctx: EmulatorContext, engine: SpotEngine): Record<string, EndpointHandler> {
  const venue = engine.venue;
  const reader = engine.reader;
  const view = (o: SpotOrderRecord): SpotOrderView => reader.orderView(o);
  const request = (accountId: string, p: OrderParams) => ({
    accountId,
    symbol: p.symbol,
    side: p.side,
    type: p.type,
    quantity: p.quantity,
    quoteOrderQty: p.quoteOrderQty,
    price: p.price,
    newClientOrderId: p.newClientOrderId,
    stpMode: p.stpMode,
  });
  /**
   * Placement in integer units when the wire strings convert exactly (the venue's Decimal edge would
   * do the same conversion, then build a Decimal view we do not need); undefined sends the request the
   * Decimal way, which also words the scale errors.
   */
  const placeFast = (accountId: string, p: OrderParams): SpotPlaceResult | undefined => {
    if (p.quoteOrderQty !== undefined) return undefined;
    const inst = ctx.spotInstruments.get(p.symbol);
    if (!inst) return undefined;
    const lots = p.quantity === undefined ? undefined : unitsFromFixed(p.quantity, inst.baseAssetPrecision);
    if (p.quantity !== undefined && lots === undefined) return undefined;
    let priceTicks: number | undefined;
    if (p.type !== 'MARKET' && p.price !== undefined) {
      priceTicks = unitsFromFixed(p.price, inst.quotePrecision);
      if (priceTicks === undefined) return undefined;
    }
    return venue.placeOrderUnits({
      accountId,
      symbol: p.symbol,
      side: p.side,
      type: p.type,
      priceTicks,
      lots,
      clientOrderId: p.newClientOrderId,
      stpMode: p.stpMode,
    });
  };
  const place = (
    accountId: string,
    p: OrderParams,
  ):
    | {
        ok: true;
        order: {
          symbol: string;
          orderId: string;
          price: string;
          origQty: string;
          type: string;
          side: string;
          stpMode: string;
          time: number;
        };
      }
    | SpotRejection => {
    const fast = placeFast(accountId, p);
    if (fast) {
      if (!fast.ok) return fast;
      const o = fast.order;
      const inst = ctx.spotInstruments.get(o.symbol)!;
      return {
        ok: true,
        order: {
          symbol: o.symbol,
          orderId: o.orderId,
          price: fixedFromUnits(o.priceTicks, inst.quotePrecision),
          origQty: fixedFromUnits(o.origLots, inst.baseAssetPrecision),
          type: o.type,
          side: o.side,
          stpMode: o.stpMode,
          time: o.time,
        },
      };
    }
    const r = venue.placeOrder(request(accountId, p));
    if (!r.ok) return r;
    const o = r.order;
    return {
      ok: true,
      order: {
        symbol: o.symbol,
        orderId: o.orderId,
        price: o.price.toFixed(),
        origQty: o.origQty.toFixed(),
        type: o.type,
        side: o.side,
        stpMode: o.stpMode,
        time: o.time,
      },
    };
  };
  const ref = (p: OrderRefParams) => ({ orderId: p.orderId, clientOrderId: p.origClientOrderId });
  const range = (p: { startTime?: string; endTime?: string; limit?: string }) => ({
    startTime: p.startTime === undefined ? undefined : Number(p.startTime),
    endTime: p.endTime === undefined ? undefined : Number(p.endTime),
    limit: p.limit === undefined ? undefined : Number(p.limit),
  });

  return {
    'spot.newOrder': (c: ApiCall<OrderParams>) => {
      const r = place(c.account!.id, c.params);
      if (!r.ok) throw refused(r);
      return orderAck(r.order);
    },
    'spot.testNewOrder': (c: ApiCall<OrderParams>) => {
      const r = reader.testOrder(request(c.account!.id, c.params));
      if (!r.ok) throw refused(r);
      return {};
    },
    'spot.batchOrders': (c: ApiCall<{ batchOrders: string }>) => {
      const accountId = c.account!.id;
      return parseBatchOrders(c.params.batchOrders).map((item) => {
        const r = place(accountId, item as OrderParams);
        if (!r.ok)
          return { ...(item.newClientOrderId !== undefined ? { newClientOrderId: item.newClientOrderId } : {}), msg: r.msg, code: r.code };
        return {
          symbol: r.order.symbol,
          orderId: r.order.orderId,
          orderListId: -1,
          ...(item.newClientOrderId !== undefined ? { newClientOrderId: item.newClientOrderId } : {}),
        };
      });
    },
    'spot.cancelOrder': (c: ApiCall<OrderRefParams>) => {
      const r = venue.cancelOrder(c.account!.id, c.params.symbol, ref(c.params));
      if (!r.ok) throw refused(r);
      return cancelledWire(view(r.order), c.params.newClientOrderId);
    },
    'spot.cancelOpenOrders': (c: ApiCall<{ symbol: string }>) => {
      const r = venue.cancelAllOrders(c.account!.id, c.params.symbol);
      if (!r.ok) throw refused(r);
      return r.orders.map((o) => cancelledWire(view(o)));
    },
    'spot.queryOrder': (c: ApiCall<OrderRefParams>) => {
      const r = reader.getOrder(c.account!.id, c.params.symbol, ref(c.params));
      if (!r.ok) throw refused(r);
      return spotOrderWire(view(r.order));
    },
    'spot.openOrders': (c: ApiCall<{ symbol?: string }>) => {
      const accountId = c.account!.id;
      if (c.params.symbol === undefined) return reader.openOrders(accountId).map((o) => spotOrderWire(view(o)));
      const symbols = c.params.symbol.split(',');
      for (const s of symbols) spotInstrumentOf(ctx, s);
      return symbols.flatMap((s) => reader.openOrders(accountId, s)).map((o) => spotOrderWire(view(o)));
    },
    'spot.allOrders': (c: ApiCall<{ symbol: string; startTime?: string; endTime?: string; limit?: string }>) => {
      spotInstrumentOf(ctx, c.params.symbol);
      return reader.allOrders(c.account!.id, c.params.symbol, range(c.params)).map((o) => spotOrderWire(view(o)));
    },
    'spot.myTrades': (c: ApiCall<{ symbol: string; orderId?: string; startTime?: string; endTime?: string; limit?: string }>) => {
      spotInstrumentOf(ctx, c.params.symbol);
      return reader.myTrades(c.account!.id, c.params.symbol, { ...range(c.params), orderId: c.params.orderId }).map((t) => {
        const v = reader.ownTradeView(t);
        return {
          symbol: v.symbol,
          id: v.id,
          orderId: v.orderId,
          orderListId: -1,
          price: v.price.toFixed(),
          qty: v.qty.toFixed(),
          quoteQty: v.quoteQty.toFixed(),
          commission: v.commission.toFixed(),
          commissionAsset: v.commissionAsset,
          time: v.time,
          isBuyer: v.isBuyer,
          isMaker: v.isMaker,
          isBestMatch: true,
          isSelfTrade: v.isSelfTrade,
          clientOrderId: v.clientOrderId ?? null,
        };
      });
    },
    'spot.account': (c: ApiCall) => {
      const acc = c.account!;
      return {
        makerCommission: null,
        takerCommission: null,
        buyerCommission: null,
        sellerCommission: null,
        canTrade: acc.spotPermissions.has('SPOT_DEAL_WRITE'),
        canWithdraw: false,
        canDeposit: false,
        updateTime: null,
        accountType: 'SPOT',
        balances: reader
          .balances(acc.id)
          .map((b) => ({ asset: b.asset, free: b.free.toFixed(), locked: b.locked.toFixed(), available: b.free.toFixed() })),
        permissions: ['SPOT'],
      };
    },
  };
}
