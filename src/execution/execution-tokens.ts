/** DI identifiers of the execution layer. */
import type { ServiceIdentifier } from 'inversify';
import type { ExchangeGateway } from './exchange-gateway.js';
import type { OrderJournal } from './order-journal.js';
import type { OrderManager, OrderManagerConfig } from './order-manager.js';
import type { ClientIdCodec } from '../domain/client-id-codec.js';

export const EXECUTION_TOKENS = {
  ExchangeGateway: Symbol.for('perpetua.ExchangeGateway') as ServiceIdentifier<ExchangeGateway>,
  OrderJournal: Symbol.for('perpetua.OrderJournal') as ServiceIdentifier<OrderJournal>,
  OrderManager: Symbol.for('perpetua.OrderManager') as ServiceIdentifier<OrderManager>,
  OrderManagerConfig: Symbol.for('perpetua.OrderManagerConfig') as ServiceIdentifier<OrderManagerConfig>,
  ClientIdCodec: Symbol.for('perpetua.ClientIdCodec') as ServiceIdentifier<ClientIdCodec>,
} as const;
