import type { RiskRule } from '../risk-rule.js';

/**
 * Spot: the symbol must be in defaultSymbols (`apiTradable`; error 10007 otherwise). The
 * exchangeInfo flag isSpotTradingAllowed is NOT used: the real venue reports false for BTCUSDT,
 * which is API-tradable (fixture spot_GET_api_v3_exchangeInfo.json). Contract: `apiAllowed`.
 */
export const apiPermissionRule: RiskRule = (intent, instrument) => {
  if (!instrument || intent.kind === 'cancel' || intent.kind === 'cancel-all' || intent.kind === 'set-position-mode') return undefined;
  if (intent.kind === 'desired-quotes' && intent.quotes.length === 0) return undefined;
  if (instrument.kind === 'spot') {
    if (instrument.apiTradable) return undefined;
    return { rule: 'api-trading-permission', reason: `${instrument.symbol} is not in defaultSymbols: not tradable through the API` };
  }
  if (instrument.apiAllowed) return undefined;
  return { rule: 'api-trading-permission', reason: `${instrument.symbol} has apiAllowed=false: API trading is not allowed` };
};
