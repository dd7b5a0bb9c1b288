/** Live market data: pollers, snapshot assembly, the stale guard and a push source for benches. */
export * from './poll-config.js';
export * from './poll-budget.js';
export * from './backoff.js';
export * from './market-fetcher.js';
export * from './mexc-market-fetcher.js';
export * from './snapshot-records.js';
export * from './market-data-events.js';
export * from './instrument-poller.js';
export * from './polling-market-data-source.js';
export * from './stale-guard.js';
export * from './push-market-data-source.js';
