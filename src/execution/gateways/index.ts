/** ExchangeGateway implementations over the MEXC-style REST APIs (the real venue or the emulator). */
export * from './mexc-spot-gateway.js';
export * from './mexc-contract-gateway.js';
export * from './spot-order-mapping.js';
export * from './contract-order-mapping.js';
export * from './order-rounding.js';
export * from './gateway-errors.js';
export * from './client-id-check.js';
