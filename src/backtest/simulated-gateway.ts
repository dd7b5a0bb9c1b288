/**
 * ExchangeGateway over the simulated exchange (docs/architecture.md: the backtest binds this where live binds
 * MexcSpotGateway / MexcContractGateway). Same capabilities as the real gateway of its kind, so the
 * order manager makes the same calls; each state-changing call reaches the venue after the fill
 * model's latency (orderEntryMs for place and amend, cancelMs for cancels) and its answer comes back
 * responseMs later; queries read the venue at once.
 *
 * Errors follow the gateway contract: a venue refusal is the taxonomy error the real client would
 * throw for the same venue code (client/venue-error-map.ts); a request the gateway itself refuses
 * (spot leverage, a bad client id) is a ValidationError before anything is sent.
 */
import { ValidationError, type PerpetuaError } from '../core/errors.js';
import type { ClientOrderId, InstrumentSymbol } from '../core/ids.js';
import type { AccountSnapshot } from '../domain/balance.js';
import type { Fill } from '../domain/fill.js';
import type { PositionModeName } from '../domain/intent.js';
import type { VenueOrder } from '../domain/order.js';
import type { Position } from '../domain/position.js';
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
} from '../execution/exchange-gateway.js';
import type { ProtectiveOrderRef } from '../domain/position.js';
import { asPerpetua } from '../execution/gateways/gateway-errors.js';
import type { FillLog } from './fill-log.js';
import type { SimulatedExchange } from './simulated-exchange.js';

/** The synchronous venue operations of one kind (spot-sim-venue.ts, contract-sim-venue.ts). */
export interface SimVenueOps {
  readonly capabilities: GatewayCapabilities;
  /** Our fills so far, in time order (the run's fill list): `fills` the ones not archived yet. */
  readonly fills: readonly Fill[];
  readonly fillLog: FillLog;
  place(req: PlaceRequest): PlaceAck;
  amend?(req: AmendRequest): AmendAck;
  chase?(ref: OrderRef): void;
  cancel(ref: OrderRef): CancelAck;
  cancelAll(symbol?: InstrumentSymbol): void;
  query(symbol: InstrumentSymbol, cid: ClientOrderId): VenueOrder | undefined;
  openOrders(symbol?: InstrumentSymbol): VenueOrder[];
  fillsSince(symbol: InstrumentSymbol, since: number): Fill[];
  positions(symbol?: InstrumentSymbol): Position[];
  balances(): AccountSnapshot;
  setLeverage?(req: LeverageRequest): void;
  setPositionMode?(mode: PositionModeName): void;
  attachTpSl?(req: TpSlRequest): void;
  placeProtectiveOrder?(req: ProtectiveOrderRequest): ProtectiveStop;
  cancelProtectiveOrder?(symbol: InstrumentSymbol, ref: ProtectiveOrderRef): boolean;
  protectiveStops?(symbol: InstrumentSymbol): ProtectiveStop[];
  /** Our funding payments settled since `since` (the perpetual side). */
  fundingSince?(symbol: InstrumentSymbol, since: number): FundingPayment[];
}

export class SimulatedGateway implements ExchangeGateway {
  readonly capabilities: GatewayCapabilities;

  constructor(
    readonly exchange: SimulatedExchange,
    readonly ops: SimVenueOps,
  ) {
    this.capabilities = ops.capabilities;
    Object.assign(this, protectiveCalls(this));
    // As the live gateway's position/funding_records: the runtime books each payment to the leg's owner.
    const funding = ops.fundingSince?.bind(ops);
    if (funding) this.fundingSince = (symbol, since) => now(() => funding(symbol, since));
  }

  fundingSince?: ExchangeGateway['fundingSince'];

  placeProtectiveOrder?: ExchangeGateway['placeProtectiveOrder'];
  cancelProtectiveOrder?: ExchangeGateway['cancelProtectiveOrder'];
  protectiveStops?: ExchangeGateway['protectiveStops'];

  private get entryMs(): number {
    return this.exchange.model.latency.orderEntryMs;
  }

  private get cancelMs(): number {
    return this.exchange.model.latency.cancelMs;
  }

  placeOrder(req: PlaceRequest): Promise<PlaceAck> {
    return this.exchange.submit(this.entryMs, () => this.ops.place(req));
  }

  placeOrders(reqs: readonly PlaceRequest[]): Promise<readonly BatchItem<PlaceAck>[]> {
    if (reqs.length > this.capabilities.batchPlaceMax)
      return Promise.reject(new ValidationError('orders', `at most ${this.capabilities.batchPlaceMax} orders per batch`, reqs.length));
    return this.exchange.submit(this.entryMs, () => reqs.map((r) => item(r.clientOrderId, () => this.ops.place(r))));
  }

  amendOrder(req: AmendRequest): Promise<AmendAck> {
    const amend = this.ops.amend?.bind(this.ops);
    if (!amend || this.capabilities.amend !== 'native')
      return Promise.reject(
        new ValidationError('capabilities.amend', 'a gateway with native amend (this venue amends by cancel-replace in the order manager)'),
      );
    return this.exchange.submit(this.entryMs, () => amend(req));
  }

  chaseOrder(ref: OrderRef): Promise<void> {
    const chase = this.ops.chase?.bind(this.ops);
    if (!chase || this.capabilities.chase !== 'native')
      return Promise.reject(
        new ValidationError('capabilities.chase', 'a gateway with native chase (this venue chases by cancel-replace in the order manager)'),
      );
    return this.exchange.submit(this.entryMs, () => chase(ref));
  }

  cancelOrder(ref: OrderRef): Promise<CancelAck> {
    return this.exchange.submit(this.cancelMs, () => this.ops.cancel(ref));
  }

  cancelOrders(refs: readonly OrderRef[]): Promise<readonly BatchItem<CancelAck>[]> {
    return this.exchange.submit(this.cancelMs, () => refs.map((r) => item(r.clientOrderId, () => this.ops.cancel(r))));
  }

  cancelAll(symbol?: InstrumentSymbol): Promise<void> {
    return this.exchange.submit(this.cancelMs, () => this.ops.cancelAll(symbol));
  }

  queryOrder(symbol: InstrumentSymbol, clientOrderId: ClientOrderId): Promise<VenueOrder | undefined> {
    return now(() => this.ops.query(symbol, clientOrderId));
  }

  openOrders(symbol?: InstrumentSymbol): Promise<readonly VenueOrder[]> {
    return now(() => this.ops.openOrders(symbol));
  }

  fillsSince(symbol: InstrumentSymbol, since: number): Promise<readonly Fill[]> {
    return now(() => this.ops.fillsSince(symbol, since));
  }

  positions(symbol?: InstrumentSymbol): Promise<readonly Position[]> {
    return now(() => this.ops.positions(symbol));
  }

  balances(): Promise<AccountSnapshot> {
    return now(() => this.ops.balances());
  }

  setLeverage(req: LeverageRequest): Promise<void> {
    const f = this.ops.setLeverage?.bind(this.ops);
    if (!f) return Promise.reject(new ValidationError('capabilities.leverage', 'a contract gateway (spot has no leverage)'));
    return this.exchange.submit(this.entryMs, () => f(req));
  }

  setPositionMode(mode: PositionModeName): Promise<void> {
    const f = this.ops.setPositionMode?.bind(this.ops);
    if (!f) return Promise.reject(new ValidationError('capabilities.positionMode', 'a contract gateway (spot has no position mode)'));
    return this.exchange.submit(this.entryMs, () => f(mode));
  }

  attachTpSl(req: TpSlRequest): Promise<void> {
    const f = this.ops.attachTpSl?.bind(this.ops);
    if (!f) return Promise.reject(new ValidationError('capabilities.tpsl', 'a contract gateway (spot has no TP/SL)'));
    return this.exchange.submit(this.entryMs, () => f(req));
  }
}

/** Trailing and plan orders pass through with the entry / cancel latency; present only where the venue has them. */
function protectiveCalls(g: SimulatedGateway): Pick<ExchangeGateway, 'placeProtectiveOrder' | 'cancelProtectiveOrder' | 'protectiveStops'> {
  const { ops, exchange } = g;
  const place = ops.placeProtectiveOrder?.bind(ops);
  const cancel = ops.cancelProtectiveOrder?.bind(ops);
  const list = ops.protectiveStops?.bind(ops);
  return {
    ...(place ? { placeProtectiveOrder: (req) => exchange.submit(exchange.model.latency.orderEntryMs, () => place(req)) } : {}),
    ...(cancel
      ? { cancelProtectiveOrder: (symbol, ref) => exchange.submit(exchange.model.latency.cancelMs, () => cancel(symbol, ref)) }
      : {}),
    ...(list ? { protectiveStops: (symbol) => now(() => list(symbol)) } : {}),
  };
}

function item<T>(clientOrderId: ClientOrderId, f: () => T): BatchItem<T> {
  try {
    return { ok: true, value: f() };
  } catch (e) {
    return { ok: false, clientOrderId, error: asPerpetua(e) as PerpetuaError };
  }
}

function now<T>(f: () => T): Promise<T> {
  try {
    return Promise.resolve(f());
  } catch (e) {
    return Promise.reject(e);
  }
}
