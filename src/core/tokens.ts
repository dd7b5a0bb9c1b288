/**
 * DI service identifiers (ARCHITECTURE rule 9). Each layer adds its tokens here so the container
 * modules and the classes agree on one symbol per service.
 */
import type { ServiceIdentifier } from 'inversify';
import type { Clock } from './clock.js';
import type { RiskRule, RiskLimits } from '../risk/risk-rule.js';
import type { RiskEngine } from '../risk/risk-engine.js';
import type { ExchangeGateway } from '../execution/exchange-gateway.js';
import type { OrderJournal } from '../execution/order-journal.js';
import type { OrderManager, OrderManagerConfig } from '../execution/order-manager.js';
import type { ClientIdCodec } from '../execution/client-id-codec.js';
import type { MarketDataSource } from '../marketdata/market-data-source.js';
import type { InstrumentLookup } from '../domain/instrument-registry.js';
import type { StrategyClass } from '../strategy/strategy.js';
import type { StrategyRegistry } from '../strategy/strategy-registry.js';
import type { InstrumentSymbol, StrategyId } from './ids.js';

export const TOKENS = {
  Clock: Symbol.for('perpetua.Clock') as ServiceIdentifier<Clock>,
  // runtime-core (strategy / risk / execution)
  /** Every strategy class the app offers (multi-bound: one binding per class). */
  StrategyClass: Symbol.for('perpetua.StrategyClass') as ServiceIdentifier<StrategyClass>,
  StrategyRegistry: Symbol.for('perpetua.StrategyRegistry') as ServiceIdentifier<StrategyRegistry>,
  /** Validated parameters of the strategy being created (bound in its child container). */
  StrategyParams: Symbol.for('perpetua.StrategyParams') as ServiceIdentifier<unknown>,
  /** Id of the strategy being created (bound in its child container). */
  StrategyId: Symbol.for('perpetua.StrategyId') as ServiceIdentifier<StrategyId>,
  RiskRules: Symbol.for('perpetua.RiskRules') as ServiceIdentifier<readonly RiskRule[]>,
  RiskLimits: Symbol.for('perpetua.RiskLimits') as ServiceIdentifier<RiskLimits>,
  RiskEngine: Symbol.for('perpetua.RiskEngine') as ServiceIdentifier<RiskEngine>,
  ExchangeGateway: Symbol.for('perpetua.ExchangeGateway') as ServiceIdentifier<ExchangeGateway>,
  OrderJournal: Symbol.for('perpetua.OrderJournal') as ServiceIdentifier<OrderJournal>,
  OrderManager: Symbol.for('perpetua.OrderManager') as ServiceIdentifier<OrderManager>,
  OrderManagerConfig: Symbol.for('perpetua.OrderManagerConfig') as ServiceIdentifier<OrderManagerConfig>,
  ClientIdCodec: Symbol.for('perpetua.ClientIdCodec') as ServiceIdentifier<ClientIdCodec>,
  MarketDataSource: Symbol.for('perpetua.MarketDataSource') as ServiceIdentifier<MarketDataSource>,
  Instruments: Symbol.for('perpetua.Instruments') as ServiceIdentifier<InstrumentLookup>,
  // app (config, runtime wiring)
  /** Symbols the strategy being created trades (bound in its child container, from config). */
  StrategyInstruments: Symbol.for('perpetua.StrategyInstruments') as ServiceIdentifier<readonly InstrumentSymbol[]>,
} as const;
