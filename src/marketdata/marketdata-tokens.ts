/** DI identifiers of the market-data layer. */
import type { ServiceIdentifier } from 'inversify';
import type { MarketDataSource } from './market-data-source.js';

export const MARKETDATA_TOKENS = {
  MarketDataSource: Symbol.for('perpetua.MarketDataSource') as ServiceIdentifier<MarketDataSource>,
} as const;
