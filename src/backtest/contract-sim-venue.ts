/**
 * The perpetual side of the simulated exchange: a ContractVenue (margin, positions, funding,
 * liquidation) holding our account and the crowd accounts, the VenueDriver the fill model acts
 * through, and the gateway operations (synchronous, at venue time; SimulatedGateway adds latency).
 *
 * Inputs the venue needs from the recording:
 *  - the fair price (margin, liquidation, price band): the recorded mark price where there is one,
 *    else the last recorded trade (at most once a second, and before each placement of ours);
 *  - the index price, when recorded;
 *  - funding: a funding record announces the rate that settles at its `nt`; when a later record
 *    announces a later `nt`, the previous rate is settled (the importers stamp records so that this
 *    happens at the settlement time) — the same rule as the emulator's record applier.
 *
 * Choices the venue engine leaves to us:
 *  - chase moves the order to the RECORDED best price of its side (the venue's own book holds only
 *    our orders, so its chase_limit_order would not see the market);
 *  - TP/SL: the engine has no trigger orders yet. With `venueTpsl`, position TP/SL lives here: when
 *    the watched price (fair, index or last recorded trade) reaches a level, a market reduce-only
 *    order closes the position, as the venue's stop order would. The close carries no client id of
 *    ours (as on the real venue), so the runtime sees it only as a position drift and the strategy's
 *    own book keeps the position: off by default, attachTpSl is refused (FeatureDisabled) and the
 *    strategy protects itself (the reference perp-trend does);
 *  - a liquidation becomes a fill of ours at the take-over price, its liquidation fee as the fee.
 */
import { D, Decimal, toPlain, ZERO, type DecimalLike } from '../core/decimal.js';
import { FeatureDisabled, PositionNotFound, ValidationError, type PerpetuaError } from '../core/errors.js';
import {
  clientOrderId as toClientOrderId,
  orderId as toOrderId,
  tradeId as toTradeId,
  type ClientOrderId,
  type ContractSymbol,
  type InstrumentSymbol,
} from '../core/ids.js';
import type { AccountSnapshot, Balance } from '../domain/balance.js';
import {
  ContractOrderState,
  ContractOrderType,
  ContractSide,
  OpenType,
  PositionMode,
  PositionOpenType,
  PositionType,
  isOpenSide,
  sideIsBuy,
  sidePositionType,
} from '../domain/contract-enums.js';
import type { Fill } from '../domain/fill.js';
import type { PositionModeName } from '../domain/intent.js';
import type { ContractInstrument } from '../domain/instrument.js';
import type { OrderType, PositionSide, TimeInForce, TriggerPriceType, VenueOrder } from '../domain/order.js';
import type { Position } from '../domain/position.js';
import type {
  AmendAck,
  AmendRequest,
  CancelAck,
  FundingPayment,
  GatewayCapabilities,
  LeverageRequest,
  OrderRef,
  PlaceAck,
  PlaceRequest,
  ProtectiveOrderRequest,
  TpSlRequest,
} from '../execution/exchange-gateway.js';
import type { PositionProtection, ProtectiveOrderRef } from '../domain/position.js';
import { SimProtectiveOrders } from './sim-protective-orders.js';
import { contractCapabilities } from '../execution/gateways/mexc-contract-gateway.js';
import {
  balanceFromContractAsset,
  contractOrderParams,
  contractOrderStatus,
  contractSide,
  OPEN_TYPE,
  opensPosition,
  positionTypeOf,
} from '../execution/gateways/contract-order-mapping.js';
import { limitPriceOnTick, quantityOnStep, triggerPriceOnTick } from '../execution/gateways/order-rounding.js';
import type { DataRecord } from '../marketdata/record/record.js';
import { ContractVenue } from '../venue/contract/contract-venue.js';
import {
  CONTRACT_CROWD_TAKER,
  contractCrowdMaker,
  CROWD_DEPOSIT,
  CROWD_ZERO_FEES,
  crowdContractOrder,
  isCrowdAccount,
  openContractCrowd,
} from '../venue/market/crowd-accounts.js';
import { type ContractVenueEvent, type ContractVenueEventType } from '../venue/contract/contract-events.js';
import type { ContractOrderView, ContractPositionView, HeldPositionView } from '../venue/contract/contract-views.js';
import type { PlacedOrderTicks, VenueResult } from '../venue/contract/contract-requests.js';
import type { Side } from './replay-book.js';
import type { ReplayInstrument } from './replay-market.js';
import { venueRejection } from './venue-rejection.js';
import type { SimulatedExchange, VenueDriver } from './simulated-exchange.js';
import type { SimVenueOps } from './simulated-gateway.js';
import { FillLog } from './fill-log.js';

export const CONTRACT_BACKTEST_ACCOUNT = 'backtest';
const CROWD_MAKERS = 6;
/** The fair price follows the last recorded trade at most this often when no mark price is recorded. */
const FAIR_FROM_TRADES_MS = 1000;

export interface ContractSimVenueOptions {
  readonly exchange: SimulatedExchange;
  readonly instruments: readonly ContractInstrument[];
  /** Starting balances of our account, by settle coin. */
  readonly deposits: Readonly<Record<string, DecimalLike>>;
  /** Our commission rates (default: the instrument's). */
  readonly fees?: { readonly maker?: DecimalLike; readonly taker?: DecimalLike };
  /** Margin type of orders that name none on contracts allowing both (default cross). */
  readonly defaultMarginMode?: 'isolated' | 'cross';
  /**
   * Simulate position TP/SL (attachTpSl) with triggers here. Default false: the request is refused
   * as a venue without trigger orders would, and the strategy's own exit protects the position —
   * see the module comment for why a venue-side close confuses a strategy's book.
   */
  readonly venueTpsl?: boolean;
}

interface SideSetting {
  leverage?: number;
  openType?: OpenType;
}

interface TpSl {
  readonly symbol: string;
  readonly positionType: PositionType;
  readonly tp?: Decimal;
  readonly sl?: Decimal;
  readonly trigger: TriggerPriceType;
}

const MODE_CODE: Readonly<Record<PositionModeName, PositionMode>> = { hedged: PositionMode.HEDGED, 'one-way': PositionMode.ONE_WAY };

const TYPE_BACK: Readonly<Record<number, { type: OrderType; timeInForce: TimeInForce }>> = {
  [ContractOrderType.LIMIT]: { type: 'limit', timeInForce: 'gtc' },
  [ContractOrderType.POST_ONLY]: { type: 'limit', timeInForce: 'post-only' },
  [ContractOrderType.IOC]: { type: 'limit', timeInForce: 'ioc' },
  [ContractOrderType.FOK]: { type: 'limit', timeInForce: 'fok' },
  [ContractOrderType.MARKET]: { type: 'market', timeInForce: 'ioc' },
  [ContractOrderType.MARKET_TO_LIMIT]: { type: 'market', timeInForce: 'ioc' },
};

/** The venue events onVenueEvent reads: only these are built (issue 12, a view per event was most of a fill's cost). */
const SIM_EVENTS: readonly ContractVenueEventType[] = ['OrderFilled', 'OrderCancelled', 'FundingSettled', 'PositionLiquidated'];

const rejected = (r: { code: number; message: string }, endpoint: string): PerpetuaError =>
  venueRejection('contract', r.code, r.message, endpoint);

export class ContractSimVenue implements VenueDriver, SimVenueOps {
  readonly capabilities: GatewayCapabilities = contractCapabilities(false);
  readonly venue: ContractVenue;
  readonly account = CONTRACT_BACKTEST_ACCOUNT;
  /** Our fills, in time order (the older ones archived when the runner asks: fill-log.ts). */
  readonly fillLog = new FillLog();
  /** Our fills not archived, in time order: all of them unless the runner archives. */
  get fills(): Fill[] {
    return this.fillLog.recent;
  }
  /** Funding our positions paid or received, in time order. */
  readonly funding: FundingPayment[] = [];
  private readonly exchange: SimulatedExchange;
  private readonly instruments = new Map<string, ContractInstrument>();
  private readonly crowdOwner = new Map<string, string>();
  private crowdTurn = 0;
  private mode: PositionMode = PositionMode.ONE_WAY;
  private readonly settings = new Map<string, SideSetting>();
  private readonly lastFunding = new Map<string, { rate: string; nt: number }>();
  /**
   * When each symbol's fair price was last set: a cell per symbol written in place (a number put in a
   * Map is boxed anew at every set, four a bar on klines).
   */
  private readonly fairAt = new Map<string, { at: number }>();
  private readonly tpsl = new Map<string, TpSl>();
  private readonly seenTrades = new Set<string>();
  private readonly defaultOpenType: OpenType;
  private closing = false;
  private readonly venueTpsl: boolean;
  /** Our trailing and plan orders (the venue engine's trigger orders; sim-protective-orders.ts). */
  private readonly protective: SimProtectiveOrders;
  /**
   * Our positions and open orders as the last query found them, by symbol ('' for all). The runtime
   * reconciles at every poll (once a bar on klines) and most polls find nothing changed, yet each
   * query built the venue's views again (Decimal averages, liquidation prices). They hold while the
   * venue's change count of our account (ContractVenue.accountChanges) stays where it was when they were
   * read: the crowd's orders and fills do not move it (they emptied these on every event before).
   */
  private readonly positionsSeen = new Map<string, readonly Position[]>();
  private readonly openOrdersSeen = new Map<string, readonly VenueOrder[]>();
  /** Our balances, kept likewise while we hold no position (see balances()). */
  private balancesSeen: Readonly<Record<string, Balance>> | undefined;
  /** Our account's change count when the answers above were read. */
  private seenAtChange = -1;

  constructor(opts: ContractSimVenueOptions) {
    this.exchange = opts.exchange;
    this.defaultOpenType = OPEN_TYPE[opts.defaultMarginMode ?? 'cross'];
    this.venueTpsl = opts.venueTpsl ?? false;
    const fees = opts.fees;
    this.venue = new ContractVenue({
      clock: opts.exchange.clock,
      instruments: opts.instruments,
      autoFunding: false,
      insuranceFund: Object.fromEntries([...new Set(opts.instruments.map((i) => i.settleCoin))].map((c) => [c, CROWD_DEPOSIT])),
      feeRates: (account, i) =>
        isCrowdAccount(account)
          ? CROWD_ZERO_FEES
          : {
              maker: fees?.maker !== undefined ? D(fees.maker) : i.makerFeeRate,
              taker: fees?.taker !== undefined ? D(fees.taker) : i.takerFeeRate,
            },
      defaultPositionMode: PositionMode.ONE_WAY,
      // The crowd's final orders and fills are never read (crowdRemaining takes a done order for 0 lots):
      // kept, they were ~2 records per placement of ours retained for the whole run, as in the emulator.
      historyLimitOf: (id) => (isCrowdAccount(id) ? 0 : undefined),
      // The crowd stands for the rest of the market and holds far more than it can lose: no fair-price
      // move (three a bar) screens its cross positions for a breach (never-liquidated.ts).
      neverLiquidated: isCrowdAccount,
    });
    const coins = [...new Set(opts.instruments.map((i) => i.settleCoin))];
    for (const i of opts.instruments) this.instruments.set(i.symbol, i);
    openContractCrowd(
      this.venue,
      [
        ...opts.instruments.flatMap((i) => Array.from({ length: CROWD_MAKERS }, (_, k) => contractCrowdMaker(i.symbol, k))),
        CONTRACT_CROWD_TAKER,
      ],
      coins,
    );
    this.venue.openAccount(this.account, PositionMode.ONE_WAY);
    this.protective = new SimProtectiveOrders(this.venue, this.account);
    for (const [asset, amount] of Object.entries(opts.deposits)) this.venue.deposit(this.account, asset, amount);
    this.venue.on((e) => this.onVenueEvent(e), SIM_EVENTS);
    opts.exchange.attach('contract', this);
  }

  // ------------------------------------------------------------------ VenueDriver (the crowd)

  crowdRest(inst: ReplayInstrument, side: Side, priceTicks: number, lots: number): { handle: string; lots: number } | undefined {
    const account = contractCrowdMaker(inst.symbol, this.crowdTurn++ % CROWD_MAKERS);
    // One order may not exceed maxVol: a bigger recorded level is offered up to it (no order of ours can take more).
    const r = this.crowdOrder(account, inst, side, priceTicks, Math.min(lots, this.maxLots(inst)), ContractOrderType.LIMIT);
    if (!r.ok || r.value.state !== ContractOrderState.UNCOMPLETED) return undefined;
    this.crowdOwner.set(r.value.orderId, account);
    return { handle: r.value.orderId, lots: r.value.lots - r.value.dealLots };
  }

  /** The largest order in lots, per symbol: a Decimal division at every crowd order was 11 % of crowdRest's CPU profile. */
  private maxLots(inst: ReplayInstrument): number {
    let n = this.maxLotsOf.get(inst.symbol);
    if (n === undefined) {
      const i = this.instruments.get(inst.symbol)!;
      this.maxLotsOf.set(inst.symbol, (n = Math.max(1, Math.floor(i.maxVol.div(i.volUnit).toNumber()))));
    }
    return n;
  }

  private readonly maxLotsOf = new Map<string, number>();

  crowdRemaining(_inst: ReplayInstrument, handle: string): number {
    const owner = this.crowdOwner.get(handle);
    // Its lots, not its view (which getOrder built for a state and two volumes: three quarters of this call's profile).
    const o = owner === undefined ? undefined : this.venue.orderTicks(owner, handle);
    if (!o || o.state !== ContractOrderState.UNCOMPLETED) {
      // Done orders never come back, and the exchange cancels only open ones: forgotten here (see SpotSimVenue).
      this.crowdOwner.delete(handle);
      return 0;
    }
    return o.lots - o.dealLots;
  }

  crowdCancel(_inst: ReplayInstrument, handle: string): void {
    const owner = this.crowdOwner.get(handle);
    if (owner === undefined) return;
    this.crowdOwner.delete(handle);
    this.venue.cancelOrders(owner, [handle]);
  }

  crowdTake(inst: ReplayInstrument, takerSide: Side, priceTicks: number, lots: number): void {
    const max = this.maxLots(inst);
    for (let left = lots; left > 0; left -= max)
      this.crowdOrder(CONTRACT_CROWD_TAKER, inst, takerSide, priceTicks, Math.min(left, max), ContractOrderType.IOC);
  }

  /**
   * A crowd order, in the replay's ticks and lots (the contract's own: priceUnit and volUnit), placed as
   * such: built as decimal strings, each was parsed back by the venue, and its answer built a view to
   * read its remaining lots (the band and the parse were ~33 µs of a ~345 µs placement of ours, session 16).
   */
  private crowdOrder(
    account: string,
    inst: ReplayInstrument,
    side: Side,
    priceTicks: number,
    lots: number,
    type: ContractOrderType,
  ): VenueResult<PlacedOrderTicks> {
    this.ensureFair(inst);
    return this.venue.placeOrderTicks(account, crowdContractOrder(inst.symbol, side, priceTicks, lots, type));
  }

  onMarketTrade(inst: ReplayInstrument, priceTicks: number, time: number): void {
    // No recorded mark, or a stale one (a coarse mark series): the fair price follows the trades.
    if (!inst.freshFair()) {
      const last = this.fairAt.get(inst.symbol)?.at;
      // A price of ticks > 0 is > 0: set without setFair's Decimal test (a trade a minute-bar path point, four a bar).
      if ((last === undefined || time - last >= FAIR_FROM_TRADES_MS) && priceTicks > 0)
        this.setPositiveFair(inst, inst.price(priceTicks), time);
    }
    if (this.tpsl.size > 0) this.checkTriggers(inst, 'last', inst.price(priceTicks));
  }

  onPrices(inst: ReplayInstrument, r: DataRecord): void {
    switch (r.s) {
      case 'fair':
        this.setFair(inst, D(r.p), r.et);
        return;
      case 'index':
        this.withTriggerLiquidity(inst, 'index', D(r.p));
        if (this.tpsl.size > 0) this.checkTriggers(inst, 'index', D(r.p));
        return;
      case 'funding': {
        const prev = this.lastFunding.get(inst.symbol);
        if (prev && r.nt !== undefined && r.nt > prev.nt) {
          this.ensureFair(inst);
          this.venue.setFundingRate(inst.symbol, prev.rate);
          this.venue.settleFunding(inst.symbol);
        }
        if (r.nt !== undefined) this.lastFunding.set(inst.symbol, { rate: r.r, nt: r.nt });
        return;
      }
      default:
        return;
    }
  }

  private setFair(inst: ReplayInstrument, price: Decimal, time: number): void {
    if (price.gt(ZERO)) this.setPositiveFair(inst, price, time);
  }

  /** setFair of a price known to be > 0. */
  private setPositiveFair(inst: ReplayInstrument, price: Decimal, time: number): void {
    const at = this.fairAt.get(inst.symbol);
    if (at === undefined) this.fairAt.set(inst.symbol, { at: time });
    else at.at = time;
    this.withTriggerLiquidity(inst, 'fair', price);
    if (this.tpsl.size > 0) this.checkTriggers(inst, 'fair', price);
  }

  /**
   * Sets a price at the venue; when it fires trailing or plan orders of ours, inside the recorded
   * liquidity their market closes can reach (the venue's book holds only our orders).
   */
  private withTriggerLiquidity(inst: ReplayInstrument, kind: 'fair' | 'index', price: Decimal): void {
    // With no trailing or plan order of ours nothing can fire: set at once, with no closure and no list
    // (four fair prices a bar on klines).
    if (!this.protective.any) return this.setPrice(inst, kind, price);
    const fires = this.protective.firing(inst.symbol, kind, price);
    if (fires.length === 0) return this.setPrice(inst, kind, price);
    const lots = Math.round(fires.reduce((n, f) => n + f.vol.toNumber(), 0) / inst.step);
    this.exchange.withLiquidity(
      inst,
      fires[0]!.side,
      undefined,
      (l) => l >= lots,
      () => this.setPrice(inst, kind, price),
    );
  }

  private setPrice(inst: ReplayInstrument, kind: 'fair' | 'index', price: Decimal): void {
    if (kind === 'fair') this.venue.setFairPrice(inst.symbol, price);
    else this.venue.setIndexPrice(inst.symbol, price);
  }

  /** A fair price before the first one is known: from the book or the last trade. */
  private ensureFair(inst: ReplayInstrument): void {
    if (this.venue.fairPrice(inst.symbol) !== undefined) return;
    const m = inst.lastTradeTicks ?? inst.markTicks();
    if (m !== undefined) this.setFair(inst, inst.price(Math.round(m)), inst.lastTradeTime ?? this.exchange.clock.now());
  }

  // ------------------------------------------------------------------ gateway operations

  place(req: PlaceRequest): PlaceAck {
    const o = req.order;
    const inst = this.instrument(o.symbol);
    if (o.takeProfitPrice || o.stopLossPrice)
      throw new ValidationError(
        'order.takeProfitPrice',
        'absent: attach TP/SL to the position once filled (the simulated venue takes no TP/SL on create)',
      );
    const side = contractSide(o, this.mode);
    const pt = sidePositionType(side);
    const opening = opensPosition(side, o.reduceOnly, this.mode);
    const setting = this.settings.get(settingKey(o.symbol, pt)) ?? {};
    const leverage = o.leverage ?? (opening ? (setting.leverage ?? this.venueLeverage(o.symbol, pt)) : undefined);
    const openType = o.marginMode ? OPEN_TYPE[o.marginMode] : this.openTypeFor(inst, setting);
    const wire = contractOrderParams(req, inst, { positionMode: this.mode, ...(leverage !== undefined ? { leverage } : {}), openType });
    const { profitTrend: _p, lossTrend: _l, takeProfitPrice: _t, stopLossPrice: _s, ...request } = wire;
    const rinst = this.replay(o.symbol);
    const buy = sideIsBuy(side);
    const isMarket = wire.type === ContractOrderType.MARKET || wire.type === ContractOrderType.MARKET_TO_LIMIT;
    const priceTicks = isMarket ? undefined : Math.round(Number(wire.price) / rinst.tick);
    const lots = Math.round(Number(wire.vol) / rinst.step);
    const r = this.placeWithMarket(rinst, buy, priceTicks, lots, () => this.venue.placeOrder(this.account, request));
    if (!r.ok) throw rejected(r, 'contract.createOrder');
    const v = r.value;
    if (v.state === ContractOrderState.UNCOMPLETED && priceTicks !== undefined)
      this.exchange.orderResting(
        rinst,
        v.orderId,
        buy ? 'buy' : 'sell',
        priceTicks,
        Math.round(v.vol.minus(v.dealVol).toNumber() / rinst.step),
      );
    return { clientOrderId: req.clientOrderId, venueOrderId: toOrderId(v.orderId), time: v.createTime };
  }

  amend(req: AmendRequest): AmendAck {
    const inst = this.instrument(req.symbol);
    const current = this.orderOf(req);
    const price = req.price.div(inst.priceUnit).isInteger()
      ? req.price
      : limitPriceOnTick(req.price, inst.priceUnit, sideIsBuy(current.side) ? 'buy' : 'sell', 'amend.price');
    const vol = quantityOnStep(req.quantity, inst.volUnit, 'amend.quantity');
    return this.change(current, price, vol);
  }

  chase(ref: OrderRef): void {
    const current = this.orderOf(ref);
    const rinst = this.replay(ref.symbol);
    const buy = sideIsBuy(current.side);
    const best = rinst.book.bestVisible(buy ? 'buy' : 'sell');
    if (best === undefined || rinst.price(best).eq(current.price)) return;
    this.change(current, rinst.price(best), current.vol);
  }

  /** change_limit_order: the order leaves its queue and joins the back of the new level. */
  private change(current: ContractOrderView, price: Decimal, vol: Decimal): AmendAck {
    const rinst = this.replay(current.symbol);
    const buy = sideIsBuy(current.side);
    const priceTicks = Math.round(price.div(rinst.tickD).toNumber());
    const lots = Math.round(vol.minus(current.dealVol).toNumber() / rinst.step);
    const before = this.exchange.restingOrder(current.orderId);
    this.exchange.orderClosed(current.orderId);
    const r = this.placeWithMarket(rinst, buy, priceTicks, lots, () =>
      this.venue.changeLimitOrder(this.account, { orderId: current.orderId, price: toPlain(price), vol: toPlain(vol) }),
    );
    if (!r.ok) {
      if (before) this.exchange.orderResting(rinst, before.id, before.side, before.priceTicks, before.remaining);
      throw rejected(r, 'contract.changeLimitOrder');
    }
    const v = r.value;
    if (v.state === ContractOrderState.UNCOMPLETED)
      this.exchange.orderResting(
        rinst,
        v.orderId,
        buy ? 'buy' : 'sell',
        priceTicks,
        Math.round(v.vol.minus(v.dealVol).toNumber() / rinst.step),
      );
    return { venueOrderId: toOrderId(v.orderId) };
  }

  /** Runs a placement with the recorded liquidity it can reach laid into the venue (when it crosses). */
  private placeWithMarket(
    rinst: ReplayInstrument,
    buy: boolean,
    priceTicks: number | undefined,
    lots: number,
    run: () => VenueResult<ContractOrderView>,
  ): VenueResult<ContractOrderView> {
    this.ensureFair(rinst);
    const opposite = buy ? rinst.book.bestVisible('sell') : rinst.book.bestVisible('buy');
    const crosses = opposite !== undefined && (priceTicks === undefined || (buy ? opposite <= priceTicks : opposite >= priceTicks));
    if (!crosses) return run();
    return this.exchange.withLiquidity(rinst, buy ? 'buy' : 'sell', priceTicks, (l) => l >= lots, run);
  }

  cancel(ref: OrderRef): CancelAck {
    const [e] = ref.venueOrderId
      ? this.venue.cancelOrders(this.account, [ref.venueOrderId])
      : this.venue.cancelWithExternal(this.account, [{ symbol: ref.symbol, externalOid: ref.clientOrderId }]);
    if (!e) throw new ValidationError('order', 'a cancel answer', ref.clientOrderId);
    if (e.errorCode !== 0)
      throw rejected(
        { code: e.errorCode, message: e.errorMsg },
        ref.venueOrderId ? 'contract.cancelOrders' : 'contract.cancelWithExternal',
      );
    return { clientOrderId: ref.clientOrderId };
  }

  cancelAll(symbol?: InstrumentSymbol): void {
    this.venue.cancelAll(this.account, symbol);
  }

  query(symbol: InstrumentSymbol, cid: ClientOrderId): VenueOrder | undefined {
    const v = this.venue.getOrderByExternalOid(this.account, symbol, cid);
    return v ? this.venueOrder(v) : undefined;
  }

  openOrders(symbol?: InstrumentSymbol): VenueOrder[] {
    this.forgetSeenIfChanged();
    let seen = this.openOrdersSeen.get(symbol ?? '');
    if (seen === undefined) {
      seen = this.venue
        .openOrders(this.account, { ...(symbol ? { symbol } : {}), pageSize: 100_000 })
        .resultList.map((v) => this.venueOrder(v));
      this.openOrdersSeen.set(symbol ?? '', seen);
    }
    return seen.slice();
  }

  /** Our funding payments of `symbol` settled at or after `since`, oldest first (the venue's position/funding_records). */
  fundingSince(symbol: InstrumentSymbol, since: number): FundingPayment[] {
    const out: FundingPayment[] = [];
    for (let i = this.funding.length - 1; i >= 0 && this.funding[i]!.time >= since; i--)
      if (this.funding[i]!.symbol === symbol) out.push(this.funding[i]!);
    return out.reverse();
  }

  fillsSince(symbol: InstrumentSymbol, since: number): Fill[] {
    return this.fillLog.since(symbol, since);
  }

  positions(symbol?: InstrumentSymbol): Position[] {
    this.forgetSeenIfChanged();
    let seen = this.positionsSeen.get(symbol ?? '');
    if (seen === undefined) {
      const out: Position[] = [];
      for (const p of this.venue.heldPositions(this.account, symbol)) {
        const pos = this.position(p);
        if (pos) out.push(pos);
      }
      this.positionsSeen.set(symbol ?? '', (seen = out));
    }
    return seen.slice();
  }

  balances(): AccountSnapshot {
    this.forgetSeenIfChanged();
    let balances = this.balancesSeen;
    if (balances === undefined) {
      const fresh: Record<string, Balance> = {};
      for (const a of this.venue.assets(this.account)) fresh[a.currency] = balanceFromContractAsset(a);
      // Flat, nothing in them moves with the mark (no unrealised PnL): they hold until the venue announces a change.
      balances = fresh;
      if (this.positions().length === 0) this.balancesSeen = fresh;
    }
    return { kind: 'contract', balances: { ...balances }, time: this.exchange.clock.now() };
  }

  setLeverage(req: LeverageRequest): void {
    const inst = this.instrument(req.symbol);
    if (!Number.isInteger(req.leverage) || req.leverage < inst.minLeverage || req.leverage > inst.maxLeverage)
      throw new ValidationError('leverage', `an integer ${inst.minLeverage}..${inst.maxLeverage}`, req.leverage);
    if (this.mode === PositionMode.ONE_WAY && req.positionSide !== undefined)
      throw new ValidationError('positionSide', 'absent in one-way position mode (leverage is per contract)', req.positionSide);
    const types = req.positionSide
      ? [positionTypeOf(req.positionSide)]
      : this.mode === PositionMode.ONE_WAY
        ? [PositionType.LONG]
        : [PositionType.LONG, PositionType.SHORT];
    const open = this.venue.openPositions(this.account, { symbol: req.symbol }).filter((p) => p.holdVol.gt(ZERO));
    for (const pt of types) {
      const pos = this.mode === PositionMode.ONE_WAY ? open[0] : open.find((p) => p.positionType === pt);
      const openType = req.marginMode
        ? OPEN_TYPE[req.marginMode]
        : this.openTypeFor(inst, this.settings.get(settingKey(req.symbol, pt)) ?? {});
      const r = this.venue.changeLeverage(
        this.account,
        pos
          ? { leverage: req.leverage, positionId: pos.positionId }
          : { leverage: req.leverage, symbol: req.symbol, openType, positionType: pt },
      );
      if (!r.ok) throw rejected(r, 'contract.changeLeverage');
      const touched = this.mode === PositionMode.ONE_WAY ? [PositionType.LONG, PositionType.SHORT] : [pt];
      for (const t of touched)
        this.settings.set(settingKey(req.symbol, t), { leverage: req.leverage, openType: pos?.openType ?? openType });
    }
  }

  setPositionMode(mode: PositionModeName): void {
    const r = this.venue.changePositionMode(this.account, MODE_CODE[mode]);
    if (!r.ok) throw rejected(r, 'contract.changePositionMode');
    this.mode = MODE_CODE[mode];
    // A position's leg follows the mode.
    this.forgetSeen();
    this.settings.clear();
  }

  attachTpSl(req: TpSlRequest): void {
    if (!this.venueTpsl)
      throw new FeatureDisabled('contract.placeStopOrder: the simulated venue has no TP/SL triggers (backtest.venueTpsl is off)', {
        endpoint: 'contract.placeStopOrder',
      });
    if (!req.takeProfitPrice && !req.stopLossPrice) throw new ValidationError('takeProfitPrice', 'a take-profit or a stop-loss price');
    const inst = this.instrument(req.symbol);
    const open = this.venue.openPositions(this.account, { symbol: req.symbol }).filter((p) => p.holdVol.gt(ZERO));
    let pos: ContractPositionView | undefined;
    if (req.order) {
      throw new ValidationError('order', 'absent: the simulated venue attaches TP/SL to positions only');
    } else if (this.mode === PositionMode.ONE_WAY || req.positionSide === undefined) {
      if (this.mode === PositionMode.HEDGED && open.length > 1)
        throw new ValidationError('positionSide', 'long or short (both legs are open in hedged mode)');
      pos = open[0];
    } else pos = open.find((p) => p.positionType === positionTypeOf(req.positionSide!));
    if (!pos)
      throw new PositionNotFound(`${req.symbol}: no open ${req.positionSide ?? ''} position to attach TP/SL to`.replace('  ', ' '), {
        venueCode: 2009,
        endpoint: 'contract.placeStopOrder',
      });
    this.tpsl.set(triggerKey(req.symbol, pos.positionType), {
      symbol: req.symbol,
      positionType: pos.positionType,
      ...(req.takeProfitPrice ? { tp: triggerPriceOnTick(req.takeProfitPrice, inst.priceUnit, 'takeProfitPrice') } : {}),
      ...(req.stopLossPrice ? { sl: triggerPriceOnTick(req.stopLossPrice, inst.priceUnit, 'stopLossPrice') } : {}),
      trigger: req.triggerPriceType ?? 'last',
    });
  }

  /** A trailing or plan order closing a position: the venue engine's own (sim-protective-orders.ts). */
  placeProtectiveOrder(req: ProtectiveOrderRequest): PositionProtection {
    const inst = this.instrument(req.symbol);
    const pos = this.venue
      .openPositions(this.account, { symbol: req.symbol })
      .find((p) => p.holdVol.gt(ZERO) && p.positionType === positionTypeOf(req.positionSide));
    this.ensureFair(this.replay(req.symbol));
    return this.protective.place(req, inst, this.mode, pos ? { leverage: pos.leverage, openType: pos.openType } : {});
  }

  cancelProtectiveOrder(symbol: InstrumentSymbol, ref: ProtectiveOrderRef): boolean {
    const r = this.protective.cancel(symbol, ref);
    if (!r.ok) throw rejected(r, ref.kind === 'trailing' ? 'contract.cancelTrackOrder' : 'contract.cancelPlanOrders');
    return r.live;
  }

  /** Position TP/SL simulated here (venueTpsl) on held positions, then our live trailing and plan orders. */
  protectiveStops(symbol: InstrumentSymbol): PositionProtection[] {
    const held = this.venue.openPositions(this.account, { symbol }).filter((p) => p.holdVol.gt(ZERO));
    const out: PositionProtection[] = [];
    for (const t of this.tpsl.values()) {
      const pos = held.find((p) => p.positionType === t.positionType);
      if (t.symbol !== symbol || !pos) continue;
      out.push({
        symbol,
        positionSide: t.positionType === PositionType.LONG ? 'long' : 'short',
        ...(t.tp ? { takeProfitPrice: t.tp } : {}),
        ...(t.sl ? { stopLossPrice: t.sl } : {}),
        quantity: pos.holdVol,
      });
    }
    out.push(...this.protective.list(symbol));
    return out;
  }

  // ------------------------------------------------------------------ internals

  /** Position TP/SL watching `kind` prices of the instrument: a crossed level closes the position at market. */
  private checkTriggers(inst: ReplayInstrument, kind: TriggerPriceType, price: Decimal): void {
    if (this.closing) return;
    for (const [key, t] of this.tpsl) {
      if (t.symbol !== inst.symbol || t.trigger !== kind) continue;
      const pos = this.venue
        .openPositions(this.account, { symbol: t.symbol })
        .find((p) => p.positionType === t.positionType && p.holdVol.gt(ZERO));
      if (!pos) {
        this.tpsl.delete(key);
        continue;
      }
      const long = t.positionType === PositionType.LONG;
      const hit = (t.tp && (long ? price.gte(t.tp) : price.lte(t.tp))) || (t.sl && (long ? price.lte(t.sl) : price.gte(t.sl)));
      if (!hit) continue;
      this.tpsl.delete(key);
      this.closing = true;
      try {
        const side = long ? ContractSide.CLOSE_LONG : ContractSide.CLOSE_SHORT;
        const lots = Math.round(pos.holdVol.toNumber() / inst.step);
        this.placeWithMarket(inst, !long, undefined, lots, () =>
          this.venue.placeOrder(this.account, {
            symbol: t.symbol,
            vol: toPlain(pos.holdVol),
            side,
            type: ContractOrderType.MARKET,
            openType: pos.openType,
            positionId: pos.positionId,
            ...(this.mode === PositionMode.ONE_WAY ? { reduceOnly: true } : {}),
          }),
        );
      } finally {
        this.closing = false;
      }
    }
  }

  /** Empties the kept answers when the venue changed our account since they were read. */
  private forgetSeenIfChanged(): void {
    const n = this.venue.accountChanges(this.account);
    if (n === this.seenAtChange) return;
    this.forgetSeen();
    this.seenAtChange = n;
  }

  private forgetSeen(): void {
    this.positionsSeen.clear();
    this.openOrdersSeen.clear();
    this.balancesSeen = undefined;
  }

  private onVenueEvent(e: ContractVenueEvent): void {
    switch (e.type) {
      case 'OrderFilled': {
        if (e.fill.accountId !== this.account) return;
        const f = e.fill;
        const inst = this.instruments.get(f.symbol)!;
        if (!f.taker) this.exchange.orderFilled(f.orderId, Math.round(f.vol.div(inst.volUnit).toNumber()));
        let id: string = f.tradeId;
        if (this.seenTrades.has(id)) id = `${id}-m`;
        this.seenTrades.add(id);
        const cid = e.order.externalOid;
        const positionSide = this.legOf(f.side);
        this.fills.push({
          tradeId: toTradeId(id),
          venueOrderId: toOrderId(f.orderId),
          ...(cid ? { clientOrderId: toClientOrderId(cid) } : {}),
          symbol: f.symbol as ContractSymbol,
          kind: 'contract',
          side: sideIsBuy(f.side) ? 'buy' : 'sell',
          price: f.price,
          quantity: f.vol,
          fee: f.fee,
          feeAsset: f.feeCurrency || inst.settleCoin,
          liquidity: f.taker ? 'taker' : 'maker',
          time: f.time,
          ...(positionSide ? { positionSide } : {}),
          ...(!isOpenSide(f.side) || e.order.reduceOnly ? { reduceOnly: true } : {}),
        });
        if (e.order.state !== ContractOrderState.UNCOMPLETED) this.exchange.orderClosed(e.order.orderId);
        return;
      }
      case 'OrderCancelled':
        if (e.order.accountId === this.account) this.exchange.orderClosed(e.order.orderId);
        return;
      case 'FundingSettled':
        for (const r of e.records) {
          if (r.accountId !== this.account) continue;
          const inst = this.instruments.get(r.symbol)!;
          this.funding.push({
            // One settlement of one leg: what the live venue's funding record id names.
            id: `${r.symbol}:${r.settleTime}:${r.positionType}`,
            time: r.settleTime,
            symbol: r.symbol as InstrumentSymbol,
            leg: this.mode === PositionMode.ONE_WAY ? 'net' : r.positionType === PositionType.LONG ? 'long' : 'short',
            amount: r.funding,
            asset: inst.settleCoin,
            rate: r.rate,
          });
        }
        return;
      case 'PositionLiquidated': {
        const l = e.liquidation;
        if (l.accountId !== this.account) return;
        const inst = this.instruments.get(l.symbol)!;
        const long = l.positionType === PositionType.LONG;
        this.fills.push({
          tradeId: toTradeId(`liq-${l.orderId}`),
          venueOrderId: toOrderId(l.orderId),
          symbol: l.symbol,
          kind: 'contract',
          side: long ? 'sell' : 'buy',
          price: l.closePrice,
          quantity: l.vol,
          fee: l.liquidationFee,
          feeAsset: inst.settleCoin,
          liquidity: 'taker',
          time: l.time,
          ...(this.mode === PositionMode.HEDGED ? { positionSide: long ? ('long' as const) : ('short' as const) } : {}),
          reduceOnly: true,
        });
        return;
      }
      default:
        return;
    }
  }

  private legOf(side: ContractSide): PositionSide | undefined {
    if (this.mode !== PositionMode.HEDGED) return undefined;
    return sidePositionType(side) === PositionType.LONG ? 'long' : 'short';
  }

  private venueLeverage(symbol: string, pt: PositionType): number | undefined {
    const row = this.venue.leverage(this.account, symbol).find((r) => r.positionType === pt);
    return row && row.leverage > 0 ? row.leverage : undefined;
  }

  private openTypeFor(inst: ContractInstrument, s: SideSetting): OpenType {
    if (inst.positionOpenType === PositionOpenType.ISOLATED) return OpenType.ISOLATED;
    if (inst.positionOpenType === PositionOpenType.CROSS) return OpenType.CROSS;
    return s.openType ?? this.defaultOpenType;
  }

  private orderOf(ref: OrderRef): ContractOrderView {
    const v = ref.venueOrderId
      ? this.venue.getOrder(this.account, ref.venueOrderId)
      : this.venue.getOrderByExternalOid(this.account, ref.symbol, ref.clientOrderId);
    if (!v) throw rejected({ code: 2040, message: 'order not exist' }, 'contract.changeLimitOrder');
    return v;
  }

  private instrument(symbol: string): ContractInstrument {
    const i = this.instruments.get(symbol);
    if (!i) throw new ValidationError('order.symbol', 'a contract instrument of this backtest', symbol);
    return i;
  }

  private replay(symbol: string): ReplayInstrument {
    const r = this.exchange.market.instrument(symbol);
    if (!r) throw new ValidationError('order.symbol', 'an instrument with market data in this backtest', symbol);
    return r;
  }

  private venueOrder(v: ContractOrderView): VenueOrder {
    const { type, timeInForce } = TYPE_BACK[v.orderType] ?? { type: 'limit' as const, timeInForce: 'gtc' as const };
    const positionSide =
      v.positionMode === PositionMode.HEDGED
        ? sidePositionType(v.side) === PositionType.LONG
          ? ('long' as const)
          : ('short' as const)
        : undefined;
    return {
      venueOrderId: toOrderId(v.orderId),
      ...(v.externalOid ? { clientOrderId: toClientOrderId(v.externalOid) } : {}),
      symbol: v.symbol,
      kind: 'contract',
      side: sideIsBuy(v.side) ? 'buy' : 'sell',
      type,
      timeInForce,
      ...(v.price.gt(ZERO) && type === 'limit' ? { price: v.price } : {}),
      quantity: v.vol,
      status: contractOrderStatus(v),
      filledQty: v.dealVol,
      ...(v.dealVol.gt(ZERO) ? { avgFillPrice: v.dealAvgPrice, filledNotional: v.dealAvgPrice.mul(v.dealVol) } : {}),
      ...(positionSide ? { positionSide } : {}),
      ...(!isOpenSide(v.side) || v.reduceOnly ? { reduceOnly: true } : {}),
      ...(v.leverage > 0 ? { leverage: v.leverage } : {}),
      createdAt: v.createTime,
      updatedAt: v.updateTime,
    };
  }

  private position(p: HeldPositionView): Position | undefined {
    if (p.holdVol.lte(ZERO)) return undefined;
    const inst = this.instruments.get(p.symbol)!;
    const long = p.positionType === PositionType.LONG;
    return {
      symbol: p.symbol,
      kind: 'contract',
      leg: this.mode === PositionMode.ONE_WAY ? 'net' : long ? 'long' : 'short',
      quantity: long ? p.holdVol : p.holdVol.neg(),
      entryPrice: p.holdAvgPriceFullyScale,
      multiplier: inst.contractSize,
      settleAsset: inst.settleCoin,
      realizedPnl: p.realised,
      fees: p.totalFee,
      funding: p.holdFee,
      leverage: p.leverage,
      marginMode: p.openType === OpenType.ISOLATED ? 'isolated' : 'cross',
      ...(p.liquidatePrice ? { liquidationPrice: p.liquidatePrice } : {}),
      margin: p.im,
      updatedAt: p.updateTime,
    };
  }
}

const settingKey = (symbol: string, pt: PositionType): string => `${symbol}|${pt}`;
const triggerKey = (symbol: string, pt: PositionType): string => `${symbol}|${pt}`;
