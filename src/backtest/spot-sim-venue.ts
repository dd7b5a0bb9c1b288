/**
 * The spot side of the simulated exchange: a SpotVenue holding our account and the crowd accounts,
 * the VenueDriver the fill model acts through, and the gateway operations (synchronous, at venue
 * time; SimulatedGateway adds the latency).
 *
 * Venue rules: the venue runs with the instrument's minimum / maximum amounts and price band switched
 * off, because crowd orders made from recorded levels and trades are often smaller than the minimum
 * or far from the last price; OUR orders are checked against the real rules here first, with the
 * venue's own filter functions, so they get the venue's rejections exactly.
 *
 * Answers look like the real venue's: a placement is acknowledged with the order id and time only
 * (its fills are found by querying, as live), a cancel answers the executed quantity.
 */
import { D, ZERO, type Decimal, type DecimalLike } from '../core/decimal.js';
import { ValidationError, type PerpetuaError } from '../core/errors.js';
import {
  clientOrderId as toClientOrderId,
  orderId as toOrderId,
  tradeId as toTradeId,
  type ClientOrderId,
  type InstrumentSymbol,
  type SpotSymbol,
} from '../core/ids.js';
import { venueRejection } from './venue-rejection.js';
import type { AccountSnapshot, Balance } from '../domain/balance.js';
import type { Fill } from '../domain/fill.js';
import type { SpotInstrument } from '../domain/instrument.js';
import type { OrderStatus, OrderType, TimeInForce, VenueOrder } from '../domain/order.js';
import type { Position } from '../domain/position.js';
import type { SpotOrderType } from '../domain/spot-enums.js';
import type { CancelAck, OrderRef, PlaceAck, PlaceRequest } from '../execution/exchange-gateway.js';
import { spotOrderCounts, spotOrderParams } from '../execution/gateways/spot-order-mapping.js';
import { SpotVenue } from '../venue/spot/spot-venue.js';
import { checkAmount, checkMinLots, checkPercentPrice } from '../venue/spot/spot-filters.js';
import { compileSpotMarket, qtyOf, quoteUnitsOf, type SpotMarket } from '../venue/spot/spot-market.js';
import type { SpotOrderRecord } from '../venue/spot/spot-order.js';
import { checkPlaceable, toUnitsRequest, type SpotUnitsOrderRequest } from '../venue/spot/spot-requests.js';
import type { SpotRejection } from '../venue/spot/spot-rejections.js';
import { SPOT_CROWD_TAKER, spotCrowdMaker } from '../venue/market/crowd-accounts.js';
import { fundSpotCrowd } from '../venue/market/spot-venue-liquidity-port.js';
import type { SpotTradeTick } from '../venue/spot/spot-events.js';
import type { SpotOwnTradeView } from '../venue/spot/spot-order.js';
import type { Side } from './replay-book.js';
import type { ReplayInstrument } from './replay-market.js';
import type { SimulatedExchange, VenueDriver } from './simulated-exchange.js';
import type { SimVenueOps } from './simulated-gateway.js';
import { SPOT_CAPABILITIES } from '../execution/gateways/mexc-spot-gateway.js';
import type { GatewayCapabilities } from '../execution/exchange-gateway.js';
import { FillLog } from './fill-log.js';

export const BACKTEST_ACCOUNT = 'backtest';
/** How long our closed orders and trades stay queryable in the simulated venue (virtual time). */
const OUR_HISTORY_MS = 86_400_000;
/** The retention sweep's cadence: rare enough to cost nothing per command, often enough to stay flat. */
const SIM_PRUNE_EVERY_COMMANDS = 20_000;

export interface SpotSimVenueOptions {
  readonly exchange: SimulatedExchange;
  /** Our instruments with their real rules. */
  readonly instruments: readonly SpotInstrument[];
  /** Starting balances of our account, by asset. */
  readonly deposits: Readonly<Record<string, DecimalLike>>;
  /** Our commission rates (default: the instrument's). */
  readonly fees?: { readonly maker?: DecimalLike; readonly taker?: DecimalLike };
}

const TYPE_BACK: Readonly<Record<SpotOrderType, { type: OrderType; timeInForce: TimeInForce }>> = {
  LIMIT: { type: 'limit', timeInForce: 'gtc' },
  LIMIT_MAKER: { type: 'limit', timeInForce: 'post-only' },
  IMMEDIATE_OR_CANCEL: { type: 'limit', timeInForce: 'ioc' },
  FILL_OR_KILL: { type: 'limit', timeInForce: 'fok' },
  MARKET: { type: 'market', timeInForce: 'ioc' },
};

const rejected = (r: SpotRejection, endpoint: string): PerpetuaError => venueRejection('spot', r.code, r.msg, endpoint);

/** The venue runs without the limits crowd orders cannot meet (see the module comment). */
function relaxed(i: SpotInstrument): SpotInstrument {
  const { percentPriceBySide: _band, ...rest } = i;
  return { ...rest, minQuantity: ZERO, minQuoteAmount: ZERO, minQuoteAmountMarket: ZERO, maxQuoteAmount: ZERO, maxQuoteAmountMarket: ZERO };
}

export class SpotSimVenue implements VenueDriver, SimVenueOps {
  readonly capabilities: GatewayCapabilities = SPOT_CAPABILITIES;
  readonly venue: SpotVenue;
  readonly account = BACKTEST_ACCOUNT;
  /** Our fills, in time order (the older ones archived when the runner asks: fill-log.ts). */
  readonly fillLog = new FillLog();
  /** Our fills not archived, in time order: all of them unless the runner archives. */
  get fills(): Fill[] {
    return this.fillLog.recent;
  }
  private readonly rules = new Map<string, SpotMarket>();
  private readonly instruments = new Map<string, SpotInstrument>();
  private readonly crowdSeq = new Map<string, number>();
  private readonly exchange: SimulatedExchange;

  constructor(opts: SpotSimVenueOptions) {
    this.exchange = opts.exchange;
    const clock = opts.exchange.clock;
    // Closed orders and trades are forgotten as on the live venue, or a long run keeps every crowd order
    // laid around each of ours (the 90-day market maker grew by megabytes a day). The crowd keeps none;
    // ours stay a day of virtual time, far longer than any reconcile asks about an order it lost sight of.
    this.venue = new SpotVenue({
      clock,
      instruments: opts.instruments.map(relaxed),
      pruneEveryCommands: SIM_PRUNE_EVERY_COMMANDS,
      orderRetentionMs: OUR_HISTORY_MS,
      tradeRetentionMs: OUR_HISTORY_MS,
      retentionMsOf: (id) => (id === BACKTEST_ACCOUNT ? undefined : 0),
    });
    for (const i of opts.instruments) {
      this.instruments.set(i.symbol, i);
      this.rules.set(i.symbol, compileSpotMarket(i, this.venue.ledger.scale));
    }
    fundSpotCrowd(this.venue);
    for (const [asset, amount] of Object.entries(opts.deposits)) this.venue.deposit(this.account, asset, amount);
    if (opts.fees && (opts.fees.maker !== undefined || opts.fees.taker !== undefined)) {
      this.venue.setAccountFees(this.account, {
        ...(opts.fees.maker !== undefined ? { maker: opts.fees.maker } : {}),
        ...(opts.fees.taker !== undefined ? { taker: opts.fees.taker } : {}),
      });
    }
    // The integer trade hook, not the Decimal event stream: with no Decimal subscriber the venue builds
    // no event objects for the crowd orders laid and lifted around each placement of ours.
    this.venue.subscribeTrades((t) => this.onTrade(t));
    opts.exchange.attach('spot', this);
  }

  // ------------------------------------------------------------------ VenueDriver (the crowd)

  crowdRest(inst: ReplayInstrument, side: Side, priceTicks: number, lots: number): { handle: string; lots: number } | undefined {
    const r = this.venue.placeOrderUnits({
      accountId: spotCrowdMaker(inst.symbol),
      symbol: inst.symbol,
      side: side === 'buy' ? 'BUY' : 'SELL',
      type: 'LIMIT',
      priceTicks,
      lots,
    });
    if (!r.ok || !r.order.isWorking) return undefined;
    this.crowdSeq.set(r.order.orderId, r.order.seq);
    return { handle: r.order.orderId, lots: r.order.origLots - r.order.executedLots };
  }

  /** Crowd orders the venue still tracks (for the memory tests: only those on the book). */
  get crowdOrdersTracked(): number {
    return this.crowdSeq.size;
  }

  crowdRemaining(inst: ReplayInstrument, handle: string): number {
    const seq = this.crowdSeq.get(handle);
    const lots = seq === undefined ? 0 : (this.venue.book(inst.symbol)?.get(seq)?.lots ?? 0);
    // A crowd order off the book never comes back, and the exchange cancels only the ones still on
    // it: forgotten here, or every level taken whole stays in the map for the rest of the run.
    if (lots === 0) this.crowdSeq.delete(handle);
    return lots;
  }

  crowdCancel(inst: ReplayInstrument, handle: string): void {
    if (!this.crowdSeq.delete(handle)) return;
    this.venue.cancelOrder(spotCrowdMaker(inst.symbol), inst.symbol, { orderId: handle });
  }

  crowdTake(inst: ReplayInstrument, takerSide: Side, priceTicks: number, lots: number): void {
    this.venue.placeOrderUnits({
      accountId: SPOT_CROWD_TAKER,
      symbol: inst.symbol,
      side: takerSide === 'buy' ? 'BUY' : 'SELL',
      type: 'IMMEDIATE_OR_CANCEL',
      priceTicks,
      lots,
    });
  }

  // ------------------------------------------------------------------ gateway operations

  place(req: PlaceRequest): PlaceAck {
    const symbol = req.order.symbol;
    const inst = this.instrument(symbol);
    const market = this.venue.market(symbol)!;
    const u = this.unitsOf(req, inst, market);
    const rinst = this.exchange.market.instrument(symbol);
    if (!rinst) throw new ValidationError('order.symbol', 'an instrument with market data in this backtest', symbol);
    const side: Side = u.side === 'BUY' ? 'buy' : 'sell';
    const isMarket = u.type === 'MARKET';
    const rule = this.checkRules(u.type, side, u.priceTicks, u.lots, u.quoteUnits, rinst);
    if (rule) throw rejected(rule, 'spot.newOrder');
    const opposite = side === 'buy' ? rinst.book.bestVisible('sell') : rinst.book.bestVisible('buy');
    const crosses = opposite !== undefined && (isMarket || (side === 'buy' ? opposite <= u.priceTicks! : opposite >= u.priceTicks!));
    const run = () => this.venue.placeOrderUnits(u);
    let r;
    if (crosses) {
      const perTickLot = Number(market.quoteUnitsPerTickLot);
      const enough =
        u.quoteUnits !== undefined
          ? (_lots: number, tickLots: number) => tickLots * perTickLot >= Number(u.quoteUnits)
          : (lots: number) => lots >= (u.lots ?? Infinity);
      r = this.exchange.withLiquidity(rinst, side, isMarket ? undefined : u.priceTicks, enough, run);
    } else r = run();
    if (!r.ok) throw rejected(r, 'spot.newOrder');
    // Funds were locked (and maybe traded): the cached balances are stale.
    this.balancesCache = undefined;
    const o = r.order;
    if (o.isWorking) this.exchange.orderResting(rinst, o.orderId, side, o.priceTicks, o.origLots - o.executedLots);
    return { clientOrderId: req.clientOrderId, venueOrderId: toOrderId(o.orderId), time: o.time };
  }

  cancel(ref: OrderRef): CancelAck {
    const r = this.venue.cancelOrder(
      this.account,
      ref.symbol,
      ref.venueOrderId ? { orderId: ref.venueOrderId } : { clientOrderId: ref.clientOrderId },
    );
    if (!r.ok) throw rejected(r, 'spot.cancelOrder');
    this.balancesCache = undefined;
    this.exchange.orderClosed(r.order.orderId);
    // The executed quantity alone, as orderView() gives it (a whole view was five Decimals for one).
    return { clientOrderId: ref.clientOrderId, filledQty: qtyOf(this.venue.market(r.order.symbol)!, r.order.executedLots) };
  }

  cancelAll(symbol?: InstrumentSymbol): void {
    const symbols = symbol ? [symbol] : [...new Set(this.venue.openOrders(this.account).map((o) => o.symbol))];
    for (const s of symbols) {
      const r = this.venue.cancelAllOrders(this.account, s);
      if (!r.ok) throw rejected(r, 'spot.cancelOpenOrders');
      this.balancesCache = undefined;
      for (const o of r.orders) this.exchange.orderClosed(o.orderId);
    }
  }

  query(symbol: InstrumentSymbol, cid: ClientOrderId): VenueOrder | undefined {
    const r = this.venue.getOrder(this.account, symbol, { clientOrderId: cid });
    return r.ok ? this.venueOrder(r.order) : undefined;
  }

  openOrders(symbol?: InstrumentSymbol): VenueOrder[] {
    return this.venue.openOrders(this.account, symbol).map((o) => this.venueOrder(o));
  }

  fillsSince(symbol: InstrumentSymbol, since: number): Fill[] {
    return this.fillLog.since(symbol, since);
  }

  positions(symbol?: InstrumentSymbol): Position[] {
    const now = this.exchange.clock.now();
    const out: Position[] = [];
    for (const i of this.instruments.values()) {
      if (symbol !== undefined && i.symbol !== symbol) continue;
      const b = this.venue.balance(this.account, i.baseAsset);
      const qty = b.free.plus(b.locked);
      if (qty.isZero()) continue;
      out.push({
        symbol: i.symbol,
        kind: 'spot',
        leg: 'net',
        quantity: qty,
        entryPrice: ZERO,
        multiplier: D(1),
        settleAsset: i.quoteAsset,
        realizedPnl: ZERO,
        fees: ZERO,
        funding: ZERO,
        updatedAt: now,
      });
    }
    return out;
  }

  balances(): AccountSnapshot {
    // Read at every reconciliation, changed only by our own orders: kept until the venue reports a
    // balance change of our account (onVenueEvent). The record is never mutated, so it is shared.
    let balances = this.balancesCache;
    if (!balances) {
      balances = {};
      for (const b of this.venue.balances(this.account)) balances[b.asset] = { asset: b.asset, free: b.free, locked: b.locked };
      this.balancesCache = balances;
    }
    return { kind: 'spot', balances, time: this.exchange.clock.now() };
  }

  private balancesCache: Record<string, Balance> | undefined;

  // ------------------------------------------------------------------ internals

  private instrument(symbol: string): SpotInstrument {
    const i = this.instruments.get(symbol);
    if (!i) throw new ValidationError('order.symbol', 'a spot instrument of this backtest', symbol);
    return i;
  }

  /**
   * The request in the venue's units, refused as the venue refuses the wire request (spotOrderParams, then
   * toUnitsRequest): counted straight from the Decimals. Going through the wire text (toPlain, parsed back,
   * divided by the tick again) was ~half of a placement's time in the reference market maker's run.
   */
  private unitsOf(req: PlaceRequest, inst: SpotInstrument, market: SpotMarket | undefined): SpotUnitsOrderRequest {
    const counts = spotOrderCounts(req, inst);
    if (counts === undefined) {
      // A market buy by quote amount: its amount is checked against the ledger's scale on the way in.
      const units = toUnitsRequest(market, { accountId: this.account, ...spotOrderParams(req, inst) }, this.venue.ledger.scale);
      if (!units.ok) throw rejected(units, 'spot.newOrder');
      return units.req;
    }
    const pre = checkPlaceable(market, counts.side, counts.type);
    if (pre) throw rejected(pre, 'spot.newOrder');
    return {
      accountId: this.account,
      symbol: req.order.symbol,
      side: counts.side,
      type: counts.type,
      priceTicks: counts.priceTicks,
      lots: counts.lots,
      quoteUnits: undefined,
      clientOrderId: req.clientOrderId,
      stpMode: undefined,
    };
  }

  /** The real venue's minimum / maximum amount and price band, with the recorded last trade as its last price. */
  private checkRules(
    type: SpotOrderType,
    side: Side,
    priceTicks: number | undefined,
    lots: number | undefined,
    quoteUnits: bigint | undefined,
    rinst: ReplayInstrument,
  ): SpotRejection | undefined {
    const m = this.rules.get(rinst.symbol)!;
    m.lastPriceTicks = rinst.lastTradeTicks;
    const scale = this.venue.ledger.scale;
    const isMarket = type === 'MARKET';
    if (quoteUnits === undefined && lots !== undefined) {
      const r = checkMinLots(m, lots);
      if (r) return r;
    }
    if (!isMarket) {
      const r = checkAmount(quoteUnitsOf(m, priceTicks!, lots!), m.minQuoteUnits, m.maxQuoteUnits, scale);
      if (r) return r;
      return checkPercentPrice(m, side === 'buy' ? 'BUY' : 'SELL', type, priceTicks!);
    }
    if (quoteUnits !== undefined) return checkAmount(quoteUnits, m.minQuoteUnitsMarket, m.maxQuoteUnitsMarket, scale);
    const ref = (side === 'buy' ? rinst.book.bestVisible('sell') : rinst.book.bestVisible('buy')) ?? rinst.lastTradeTicks;
    return ref === undefined || lots === undefined
      ? undefined
      : checkAmount(quoteUnitsOf(m, ref, lots), m.minQuoteUnitsMarket, m.maxQuoteUnitsMarket, scale);
  }

  /**
   * A fill on the venue. Ours (either side) become Fills with the venue's own commission, and a maker
   * fill moves the fill model's record of our resting order. Orders of ours leave the book only by
   * these fills or by our own cancels (cancel, cancelAll), which tell the exchange themselves.
   */
  private onTrade(t: SpotTradeTick): void {
    const maker = t.makerAccountId === this.account;
    const taker = t.takerAccountId === this.account;
    if (!maker && !taker) return;
    this.balancesCache = undefined;
    const inst = this.instruments.get(t.symbol)!;
    let makerSide: SpotOwnTradeView | undefined;
    let takerSide: SpotOwnTradeView | undefined;
    for (const own of this.venue.ownTradesOf(this.account, t.symbol, t.tradeId)) {
      if (own.isMaker) makerSide = this.venue.ownTradeView(own);
      else takerSide = this.venue.ownTradeView(own);
    }
    const any = (makerSide ?? takerSide)!;
    const base = { symbol: t.symbol as SpotSymbol, kind: 'spot' as const, price: any.price, quantity: any.qty, time: t.time };
    if (maker) {
      this.exchange.orderFilled(t.makerOrderId, t.lots);
      this.fills.push(
        this.fill(
          taker ? `${t.tradeId}-m` : t.tradeId,
          t.makerOrderId,
          makerSide!.clientOrderId,
          t.takerSide === 'BUY' ? 'sell' : 'buy',
          'maker',
          makerSide!.commission,
          makerSide!.commissionAsset || inst.quoteAsset,
          base,
        ),
      );
    }
    if (taker)
      this.fills.push(
        this.fill(
          t.tradeId,
          t.takerOrderId,
          takerSide!.clientOrderId,
          t.takerSide === 'BUY' ? 'buy' : 'sell',
          'taker',
          takerSide!.commission,
          takerSide!.commissionAsset || inst.quoteAsset,
          base,
        ),
      );
  }

  private fill(
    id: string,
    venueOrderId: string,
    /**
     * The client id the venue holds for the order (ours, sent as newClientOrderId). A map filled after
     * placeOrderUnits returned gave none to the fills a taker made while being placed.
     */
    cid: string | undefined,
    side: 'buy' | 'sell',
    liquidity: 'maker' | 'taker',
    fee: Decimal,
    feeAsset: string,
    base: Pick<Fill, 'symbol' | 'kind' | 'price' | 'quantity' | 'time'>,
  ): Fill {
    return {
      tradeId: toTradeId(id),
      venueOrderId: toOrderId(venueOrderId),
      ...(cid ? { clientOrderId: toClientOrderId(cid) } : {}),
      ...base,
      side,
      fee,
      feeAsset,
      liquidity,
    };
  }

  private venueOrder(o: SpotOrderRecord): VenueOrder {
    const v = this.venue.orderView(o);
    const { type, timeInForce } = TYPE_BACK[v.type];
    const filledQty = v.executedQty;
    const status: OrderStatus =
      v.status === 'NEW'
        ? filledQty.gt(ZERO)
          ? 'partially-filled'
          : 'accepted'
        : v.status === 'PARTIALLY_FILLED'
          ? 'partially-filled'
          : v.status === 'FILLED'
            ? 'filled'
            : type === 'market' || timeInForce === 'ioc' || timeInForce === 'fok'
              ? 'expired'
              : 'cancelled';
    return {
      venueOrderId: toOrderId(v.orderId),
      ...(v.clientOrderId ? { clientOrderId: toClientOrderId(v.clientOrderId) } : {}),
      symbol: v.symbol as SpotSymbol,
      kind: 'spot',
      side: v.side === 'BUY' ? 'buy' : 'sell',
      type,
      timeInForce,
      ...(v.price.gt(ZERO) ? { price: v.price } : {}),
      ...(v.origQty.gt(ZERO) ? { quantity: v.origQty } : {}),
      ...(type === 'market' && v.origQuoteOrderQty.gt(ZERO) ? { quoteQuantity: v.origQuoteOrderQty } : {}),
      status,
      filledQty,
      filledNotional: v.cummulativeQuoteQty,
      ...(filledQty.gt(ZERO) ? { avgFillPrice: v.cummulativeQuoteQty.div(filledQty) } : {}),
      createdAt: v.time,
      updatedAt: v.updateTime,
    };
  }
}
