/** `perpetua record`: polled market data → a record store (config, recorder, command). */
export * from './record-config.js';
export * from './trade-window.js';
export * from './kline-gate.js';
export * from './snapshot-record-mapper.js';
export * from './recorder.js';
export * from './record-progress.js';
