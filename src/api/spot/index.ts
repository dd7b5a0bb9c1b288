/** Spot catalogue: entries, request/response schemas, inferred types and domain mappers. */
export * from './catalogue.js';
export * from './common.js';
export * from './params.js';
export * from './market.js';
export * from './account.js';
export * from './orders.js';
export * from './stp-groups.js';
export * from './to-spot-instrument.js';
