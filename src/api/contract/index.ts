/** Public surface of the contract catalogue. */
export * from './catalogue.js';
export * from './account.js';
export * from './account-schemas.js';
export * from './analysis.js';
export * from './market.js';
export * from './market-maker.js';
export * from './market-schemas.js';
export * from './order-queries.js';
export * from './order-schemas.js';
export * from './orders.js';
export * from './plan-orders.js';
export * from './positions.js';
export * from './stop-orders.js';
export * from './to-contract-instrument.js';
export * from './track-orders.js';
export { contractEnvelopeSchema, venueId, page, list, oneOrMany, type ContractEnvelope, type Page } from './response-primitives.js';
export { klineIntervalSeconds, klinePoints, KLINE_MAX_POINTS, DAY_MS } from './params.js';
