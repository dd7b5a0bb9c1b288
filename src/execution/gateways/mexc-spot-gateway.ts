/**
 * ExchangeGateway over the spot REST API (SpotClient): the real exchange or the emulator.
 *
 * Calls and choices:
 *  - place: POST /api/v3/order with newClientOrderId = our client id; batch: POST /api/v3/batchOrders
 *    (≤ 20 of one symbol; a mixed answer becomes per-item BatchItems, matched by client id);
 *  - amend: none natively — capabilities say cancel-replace (the order manager does it); chase is
 *    emulated by the order manager too;
 *  - cancel: DELETE /api/v3/order by orderId when known, else by origClientOrderId; there is no batch
 *    cancel, so cancelOrders sends one DELETE per order; cancelAll: DELETE /api/v3/openOrders per
 *    symbol (for "all symbols" the symbols are taken from GET /api/v3/openOrders);
 *  - queryOrder: GET /api/v3/order by origClientOrderId; −2013 / −2011 → undefined;
 *  - openOrders: GET /api/v3/openOrders (one page: the venue returns up to 1000, it has no paging);
 *  - fillsSince: GET /api/v3/myTrades (≤ 100 per call, paged by time, deduped by fill id: a self-trade's two sides share a trade id);
 *  - positions: spot has none; the venue's inventory is its balances, so each non-zero base-asset
 *    balance of the symbol is reported as a `net` position (quantity = free + locked, entry price 0 =
 *    unknown). Compare it with an inventory seeded from balances, not with fills since start;
 *  - balances: GET /api/v3/account;
 *  - leverage, position mode, TP/SL: not on spot → ValidationError before anything is sent.
 *
 * Errors: whatever the client throws passes through unchanged — in particular OutcomeUnknown for a
 * placement whose answer was lost. Nothing here ever re-sends a state-changing request.
 */
import { type Clock } from '../../core/clock.js';
import { D, ZERO } from '../../core/decimal.js';
import { OutcomeUnknown, ValidationError } from '../../core/errors.js';
import { asPerpetua } from './gateway-errors.js';
import { orderId, type ClientOrderId, type InstrumentSymbol, type SpotSymbol } from '../../core/ids.js';
import type { SpotClient } from '../../client/spot-client.js';
import { SPOT_BATCH_MAX, type SpotOrder } from '../../api/spot/orders.js';
import type { SpotOwnTrade } from '../../api/spot/account.js';
import type { AccountSnapshot, Balance } from '../../domain/balance.js';
import type { Fill } from '../../domain/fill.js';
import type { PositionModeName } from '../../domain/intent.js';
import type { InstrumentLookup } from '../../domain/instrument-registry.js';
import type { Instrument, SpotInstrument } from '../../domain/instrument.js';
import type { VenueOrder } from '../../domain/order.js';
import type { Position } from '../../domain/position.js';
import type { SpotStpMode } from '../../domain/spot-enums.js';
import type {
  AmendAck,
  AmendRequest,
  BatchItem,
  CancelAck,
  ExchangeGateway,
  GatewayCapabilities,
  LeverageRequest,
  OrderRef,
  PlaceAck,
  PlaceRequest,
  TpSlRequest,
} from '../exchange-gateway.js';
import { elementError, isOrderNotFound } from './gateway-errors.js';
import {
  fillFromSpotTrade,
  SPOT_CLIENT_ID_MAX,
  spotFillId,
  spotOrderParams,
  venueOrderFromSpot,
  type SpotOrderWire,
} from './spot-order-mapping.js';

/** The SpotClient methods the gateway calls (tests may pass a stub of the same shape). */
export type SpotTradingClient = Pick<
  SpotClient,
  'newOrder' | 'batchOrders' | 'cancelOrder' | 'cancelOpenOrders' | 'queryOrder' | 'openOrders' | 'myTrades' | 'account'
>;

export interface MexcSpotGatewayOptions {
  readonly client: SpotTradingClient;
  readonly instruments: InstrumentLookup;
  /** Stamps balance snapshots. */
  readonly clock: Pick<Clock, 'now'>;
  /** Self-trade prevention mode sent with every order; absent: the venue default (none). */
  readonly stpMode?: SpotStpMode;
  /** Safety cap on myTrades pages per fillsSince call (100 trades each). Default 20. */
  readonly maxTradePages?: number;
}

const MY_TRADES_LIMIT = 100;
const ONE = D(1);

export const SPOT_CAPABILITIES: GatewayCapabilities = Object.freeze({
  kind: 'spot',
  amend: 'cancel-replace',
  chase: 'emulated',
  batchPlaceMax: SPOT_BATCH_MAX,
  batchCancelMax: 1,
  clientIdMaxLength: SPOT_CLIENT_ID_MAX,
  // 12 per second per account, shared by place, batch, cancel and cancel-all (spot-api.md §8).
  orderCallsPerSecond: 12,
  leverage: false,
  positionMode: false,
  tpsl: false,
});

export class MexcSpotGateway implements ExchangeGateway {
  readonly capabilities: GatewayCapabilities = SPOT_CAPABILITIES;
  private readonly client: SpotTradingClient;

  constructor(private readonly options: MexcSpotGatewayOptions) {
    this.client = options.client;
  }

  async placeOrder(req: PlaceRequest): Promise<PlaceAck> {
    const params = spotOrderParams(req, this.instrument(req.order.symbol), this.options.stpMode);
    const r = await this.client.newOrder(params);
    return {
      clientOrderId: req.clientOrderId,
      venueOrderId: orderId(r.orderId),
      ...(r.transactTime !== undefined ? { time: r.transactTime } : {}),
    };
  }

  async placeOrders(reqs: readonly PlaceRequest[]): Promise<readonly BatchItem<PlaceAck>[]> {
    if (reqs.length === 0) return [];
    if (reqs.length > SPOT_BATCH_MAX) throw new ValidationError('orders', `at most ${SPOT_BATCH_MAX} orders per batch`, reqs.length);
    const symbol = reqs[0]!.order.symbol;
    const bad = reqs.findIndex((r) => r.order.symbol !== symbol);
    if (bad >= 0) throw new ValidationError(`orders[${bad}].symbol`, `${symbol} (one symbol per batch)`, reqs[bad]!.order.symbol);
    const instrument = this.instrument(symbol);
    // Orders refused here are reported per item; the rest still go.
    const results: BatchItem<PlaceAck>[] = new Array<BatchItem<PlaceAck>>(reqs.length);
    const wire: { index: number; params: SpotOrderWire }[] = [];
    reqs.forEach((r, i) => {
      try {
        wire.push({ index: i, params: spotOrderParams(r, instrument, this.options.stpMode) });
      } catch (e) {
        results[i] = { ok: false, clientOrderId: r.clientOrderId, error: asPerpetua(e) };
      }
    });
    if (wire.length === 0) return results;
    const failAll = (e: unknown): void => {
      // The whole call failed: every order that went out shares its fate (OutcomeUnknown included).
      for (const w of wire) results[w.index] = { ok: false, clientOrderId: reqs[w.index]!.clientOrderId, error: asPerpetua(e) };
    };
    if (wire.length === 1) {
      // One survivor: the single-order endpoint (its own bucket, a fuller answer).
      const { index } = wire[0]!;
      try {
        results[index] = { ok: true, value: await this.placeOrder(reqs[index]!) };
      } catch (e) {
        failAll(e);
      }
      return results;
    }
    let answer;
    try {
      answer = await this.client.batchOrders({ batchOrders: wire.map((w) => w.params) });
    } catch (e) {
      failAll(e);
      return results;
    }
    const idOf = (a: (typeof answer)[number] | undefined): string | undefined =>
      a ? (a.newClientOrderId ?? (a.ok ? a.clientOrderId : undefined)) : undefined;
    const byClientId = new Map<string, (typeof answer)[number]>();
    for (const a of answer) {
      const id = idOf(a);
      if (id !== undefined) byClientId.set(id, a);
    }
    wire.forEach((w, k) => {
      const cid = reqs[w.index]!.clientOrderId;
      // Matched by client id; the venue answers in request order, so an element without an id is
      // taken by position (the captured answer has one).
      const a = byClientId.get(cid) ?? (idOf(answer[k]) === undefined ? answer[k] : undefined);
      if (!a)
        results[w.index] = {
          ok: false,
          clientOrderId: cid,
          error: new OutcomeUnknown(`spot.batchOrders: no answer element for ${cid}; query it`, 'spot.batchOrders', [cid]),
        };
      else if (a.ok) results[w.index] = { ok: true, value: { clientOrderId: cid, venueOrderId: orderId(a.orderId) } };
      else results[w.index] = { ok: false, clientOrderId: cid, error: elementError('spot', 'spot.batchOrders', a.code, a.msg) };
    });
    return results;
  }

  amendOrder(_req: AmendRequest): Promise<AmendAck> {
    return Promise.reject(
      new ValidationError('capabilities.amend', 'a gateway with native amend (spot amends by cancel-replace in the order manager)'),
    );
  }

  chaseOrder(_ref: OrderRef): Promise<void> {
    return Promise.reject(
      new ValidationError('capabilities.chase', 'a gateway with native chase (spot chase is emulated by the order manager)'),
    );
  }

  async cancelOrder(ref: OrderRef): Promise<CancelAck> {
    const r = await this.client.cancelOrder({
      symbol: ref.symbol,
      ...(ref.venueOrderId ? { orderId: ref.venueOrderId } : { origClientOrderId: ref.clientOrderId }),
    });
    return { clientOrderId: ref.clientOrderId, ...(r.executedQty !== undefined ? { filledQty: r.executedQty } : {}) };
  }

  async cancelOrders(refs: readonly OrderRef[]): Promise<readonly BatchItem<CancelAck>[]> {
    const out: BatchItem<CancelAck>[] = [];
    // No batch cancel on spot: one DELETE each, every outcome reported (an unknown one included).
    for (const ref of refs) {
      try {
        out.push({ ok: true, value: await this.cancelOrder(ref) });
      } catch (e) {
        out.push({ ok: false, clientOrderId: ref.clientOrderId, error: asPerpetua(e) });
      }
    }
    return out;
  }

  async cancelAll(symbol?: InstrumentSymbol): Promise<void> {
    const symbols = symbol ? [symbol] : [...new Set((await this.client.openOrders({})).map((o) => o.symbol))];
    for (const s of symbols) await this.client.cancelOpenOrders({ symbol: s });
  }

  async queryOrder(symbol: InstrumentSymbol, cid: ClientOrderId): Promise<VenueOrder | undefined> {
    let o: SpotOrder;
    try {
      o = await this.client.queryOrder({ symbol, origClientOrderId: cid });
    } catch (e) {
      if (isOrderNotFound(e, 'spot')) return undefined;
      throw e;
    }
    return venueOrderFromSpot(o);
  }

  async openOrders(symbol?: InstrumentSymbol): Promise<readonly VenueOrder[]> {
    const list = await this.client.openOrders(symbol ? { symbol } : {});
    return list.map(venueOrderFromSpot);
  }

  /**
   * Own trades at or after `since`. The venue returns the latest `limit` trades of a range, so pages
   * walk backwards with endTime = the oldest trade seen (inclusive; duplicates dropped by id). A venue
   * that pages forwards instead (Binance style) is detected when a backward page brings nothing new,
   * and walked forwards from the newest trade seen.
   */
  async fillsSince(symbol: InstrumentSymbol, since: number): Promise<readonly Fill[]> {
    const seen = new Map<string, SpotOwnTrade>();
    const maxPages = this.options.maxTradePages ?? 20;
    const take = (page: readonly SpotOwnTrade[]): number => {
      let added = 0;
      for (const t of page) {
        const id = spotFillId(t);
        if (t.time < since || seen.has(id)) continue;
        seen.set(id, t);
        added++;
      }
      return added;
    };
    let page = await this.client.myTrades({ symbol, startTime: since, limit: MY_TRADES_LIMIT });
    take(page);
    let direction: 'back' | 'forward' = 'back';
    for (let n = 1; n < maxPages && page.length >= MY_TRADES_LIMIT; n++) {
      const times = page.map((t) => t.time);
      if (direction === 'back') {
        const end = Math.min(...times);
        page = await this.client.myTrades({ symbol, startTime: since, endTime: end, limit: MY_TRADES_LIMIT });
        if (take(page) === 0) {
          direction = 'forward';
          page = await this.client.myTrades({
            symbol,
            startTime: Math.max(...[...seen.values()].map((t) => t.time)),
            limit: MY_TRADES_LIMIT,
          });
          if (take(page) === 0) break;
        }
      } else {
        page = await this.client.myTrades({ symbol, startTime: Math.max(...times), limit: MY_TRADES_LIMIT });
        if (take(page) === 0) break;
      }
    }
    return [...seen.entries()]
      .sort(([ia, a], [ib, b]) => a.time - b.time || (ia < ib ? -1 : ia > ib ? 1 : 0))
      .map(([, t]) => fillFromSpotTrade(t));
  }

  async positions(symbol?: InstrumentSymbol): Promise<readonly Position[]> {
    const account = await this.client.account();
    const now = this.options.clock.now();
    const totals = new Map(account.balances.map((b) => [b.asset, b.free.plus(b.locked)]));
    const instruments = symbol ? [this.instrument(symbol)] : this.knownSymbols(account.balances.map((b) => b.asset));
    const out: Position[] = [];
    for (const i of instruments) {
      const qty = totals.get(i.baseAsset) ?? ZERO;
      if (qty.isZero()) continue;
      out.push({
        symbol: i.symbol,
        kind: 'spot',
        leg: 'net',
        quantity: qty,
        entryPrice: ZERO,
        multiplier: ONE,
        settleAsset: i.quoteAsset,
        realizedPnl: ZERO,
        fees: ZERO,
        funding: ZERO,
        updatedAt: now,
      });
    }
    return out;
  }

  async balances(): Promise<AccountSnapshot> {
    const account = await this.client.account();
    const balances: Record<string, Balance> = {};
    for (const b of account.balances) balances[b.asset] = { asset: b.asset, free: b.free, locked: b.locked };
    return { kind: 'spot', balances, time: this.options.clock.now() };
  }

  setLeverage(_req: LeverageRequest): Promise<void> {
    return Promise.reject(new ValidationError('capabilities.leverage', 'a contract gateway (spot has no leverage)'));
  }

  setPositionMode(_mode: PositionModeName): Promise<void> {
    return Promise.reject(new ValidationError('capabilities.positionMode', 'a contract gateway (spot has no position mode)'));
  }

  attachTpSl(_req: TpSlRequest): Promise<void> {
    return Promise.reject(new ValidationError('capabilities.tpsl', 'a contract gateway (spot has no TP/SL)'));
  }

  private instrument(symbol: string): SpotInstrument {
    const i = this.options.instruments.instrument(symbol as SpotSymbol);
    if (!i || i.kind !== 'spot')
      throw new ValidationError('order.symbol', 'a spot instrument known to the registry (fail closed: no rules, no order)', symbol);
    return i;
  }

  /** Spot instruments of the registry (when it can list them) whose base asset has a balance. */
  private knownSymbols(assets: readonly string[]): SpotInstrument[] {
    const lookup: InstrumentLookup & { all?: () => readonly Instrument[] } = this.options.instruments;
    const all = typeof lookup.all === 'function' ? lookup.all() : [];
    return all.filter((i): i is SpotInstrument => i.kind === 'spot' && assets.includes(i.baseAsset));
  }
}
