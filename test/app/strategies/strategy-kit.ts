/** A TradingStateView of plain objects and a runner around a strategy, for strategy unit tests. */
export { PlainState, started } from '../../../src/strategy/plain-trading-state.js';
