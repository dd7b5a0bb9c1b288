import { D, type DecimalLike } from '../../src/core/decimal.js';
import type { Intent } from '../../src/domain/intent.js';
import type { OrderOptions, QuoteInput } from '../../src/strategy/intent-factory.js';
import { IntentFactory } from '../../src/strategy/intent-factory.js';
import { DEFAULT_RISK_LIMITS, type RiskLimits, type RiskState } from '../../src/risk/risk-rule.js';
import { account, balance, BTC_USDT, BTCUSDT, S1, snapshot } from '../domain/support/builders.js';

export const NOW = 1_000_000;
export const f = new IntentFactory(S1);

/** Spot BTCUSDT: book 99.99 / 100.01, last 100, 10 000 USDT and 10 BTC free. */
export function spotState(over: Partial<RiskState> = {}): RiskState {
  return {
    now: NOW,
    snapshot: snapshot(BTCUSDT, { bids: [['99.99', '5']], asks: [['100.01', '5']], last: '100', pollTime: NOW }),
    account: account('spot', balance('USDT', '10000'), balance('BTC', '10')),
    positions: [],
    strategyPositions: [],
    openOrders: [],
    leverage: {},
    limits: DEFAULT_RISK_LIMITS,
    metrics: { rejectTimes: [] },
    ...over,
  };
}

/** Contract BTC_USDT: fair 100, book 99.9 / 100.1, 10 000 USDT, one-way mode, leverage 10. */
export function contractState(over: Partial<RiskState> = {}): RiskState {
  return {
    now: NOW,
    snapshot: snapshot(BTC_USDT, { bids: [['99.9', '500']], asks: [['100.1', '500']], last: '100', fair: '100', pollTime: NOW }),
    account: account('contract', balance('USDT', '10000')),
    positions: [],
    strategyPositions: [],
    openOrders: [],
    positionMode: 'one-way',
    leverage: { 'BTC_USDT|net': 10, 'BTC_USDT|long': 10, 'BTC_USDT|short': 10 },
    limits: DEFAULT_RISK_LIMITS,
    metrics: { rejectTimes: [] },
    ...over,
  };
}

export const limits = (over: Partial<RiskLimits>): RiskLimits => ({ ...DEFAULT_RISK_LIMITS, ...over });

export const spotBuy = (price: DecimalLike, qty: DecimalLike, opts: OrderOptions = {}): Intent => f.limit(BTCUSDT, 'buy', price, qty, opts);
export const spotSell = (price: DecimalLike, qty: DecimalLike, opts: OrderOptions = {}): Intent =>
  f.limit(BTCUSDT, 'sell', price, qty, opts);
export const cBuy = (price: DecimalLike, qty: DecimalLike, opts: OrderOptions = {}): Intent => f.limit(BTC_USDT, 'buy', price, qty, opts);
export const cSell = (price: DecimalLike, qty: DecimalLike, opts: OrderOptions = {}): Intent => f.limit(BTC_USDT, 'sell', price, qty, opts);
export const quotes = (sym: typeof BTCUSDT | typeof BTC_USDT, qs: QuoteInput[]): Intent => f.quotes(sym, qs);
export { D };
