/**
 * What a TradingRuntime is built from (the container modules and the backtest wire these): the venues
 * it trades on, its strategies, the execution policy and the services every part of the runtime reads.
 */
import type { Clock } from '../core/clock.js';
import type { Decimal } from '../core/decimal.js';
import type { InstrumentSymbol, StrategyId } from '../core/ids.js';
import type { ClientLogger } from '../client/catalogue-client.js';
import type { InstrumentRegistry } from '../domain/instrument-registry.js';
import type { PositionModeName } from '../domain/intent.js';
import type { InstrumentKind } from '../domain/order.js';
import type { ClientIdCodec } from '../domain/client-id-codec.js';
import type { ExchangeGateway } from '../execution/exchange-gateway.js';
import type { ImmediateAccountReads } from '../execution/immediate-account-reads.js';
import type { OrderManager } from '../execution/order-manager.js';
import type { MarketDataSource } from '../marketdata/market-data-source.js';
import type { RunJournal } from '../persistence/run-journal.js';
import type { RiskEngine } from '../risk/risk-engine.js';
import type { RiskLimits } from '../risk/risk-rule.js';
import type { Strategy } from '../strategy/strategy.js';

export interface ExecutionVenue {
  readonly kind: InstrumentKind;
  readonly gateway: ExchangeGateway;
  readonly orders: OrderManager;
  /** The account reads of a venue held in this process, answered at once (VenueReconciler; the order manager holds them too). */
  readonly reads?: ImmediateAccountReads;
}

export interface RuntimeStrategy {
  readonly id: StrategyId;
  readonly name: string;
  readonly instruments: readonly InstrumentSymbol[];
  readonly strategy: Strategy;
}

export interface ExecutionPolicy {
  readonly cancelOnExit: boolean;
  readonly reconcileIntervalMs: number;
  readonly maxSnapshotAgeMs: number;
  /** Upper bound on a chase's reprices. */
  readonly chaseMaxReprices: number;
  /** Default cap of a chase that names none, basis points beyond the order's price. */
  readonly chasePriceCapBps?: Decimal;
  /** How long start-up waits for the first snapshot of every symbol before starting the strategies. */
  readonly firstSnapshotTimeoutMs: number;
}

export interface TradingRuntimeOptions {
  readonly clock: Clock;
  readonly logger: ClientLogger;
  readonly mode: string;
  readonly configHash: string;
  readonly instruments: InstrumentRegistry;
  readonly market: MarketDataSource;
  readonly venues: readonly ExecutionVenue[];
  readonly journal: RunJournal;
  readonly risk: RiskEngine;
  readonly limits: RiskLimits;
  readonly codec: ClientIdCodec;
  readonly strategies: readonly RuntimeStrategy[];
  readonly policy: ExecutionPolicy;
  readonly valuationAsset: string;
  /**
   * Reads one symbol's price for valuation (spot last price, contract fair price). Assets the account
   * holds but no strategy trades are priced with it after each reconciliation, so equity (and the kill
   * switches that need it) values every held asset. Absent: only streamed instruments price the account.
   */
  readonly valuationPrice?: (symbol: InstrumentSymbol) => Promise<Decimal>;
  /** False when the venue is new (an embedded emulator without persistence): nothing to resume. */
  readonly resume: boolean;
  /** The contract account's position mode, when read at start-up. */
  readonly positionMode?: PositionModeName;
}

/** The run's account of one kind (spot or contract), when the config trades that kind. */
export function venueOfKind(o: TradingRuntimeOptions, kind: InstrumentKind): ExecutionVenue | undefined {
  // A loop, not find(): asked on every snapshot, and the callback was a closure made per call.
  const venues = o.venues;
  for (let i = 0; i < venues.length; i++) if (venues[i]!.kind === kind) return venues[i];
  return undefined;
}

/** The run's instruments of one kind (a list the registry keeps until an instrument is added or replaced). */
export function symbolsOfKind(o: TradingRuntimeOptions, kind: InstrumentKind): readonly InstrumentSymbol[] {
  return o.instruments.symbolsOf(kind);
}
