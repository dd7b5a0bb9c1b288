/**
 * exchangeInfo symbol entry → SpotInstrument.
 *
 * Tick and step: MEXC gives no tick size; the precisions ARE the grid. Checked against the captured
 * fixtures: BTCUSDT has quotePrecision 2 and baseAssetPrecision 8, and its book shows prices with two
 * decimals ("87900.00") and quantities with eight ("5.12181600"); METALUSDT (5 / 2) trades at "0.16254"
 * for "1570.54", RARIUSDT (4) at "0.2389", AOUSDT (3) at "5.372". So tick = 10^-quotePrecision and
 * step = 10^-baseAssetPrecision. quoteAssetPrecision (equal to quotePrecision in every sample) is the
 * precision of quote AMOUNTS, not of prices, and baseSizePrecision is the minimum quantity, not the step
 * (BTCUSDT: 0.000001 minimum, 0.00000001 step).
 */
import { D, Decimal, stepOfPrecision } from '../../core/decimal.js';
import { spotSymbol } from '../../core/ids.js';
import { SPOT_ORDER_TYPES, TradeSideType, type SpotOrderType } from '../../domain/spot-enums.js';
import type { PercentPriceBySide, SpotInstrument } from '../../domain/instrument.js';
import type { SpotExchangeInfo, SpotSymbolInfo } from './market.js';

const KNOWN_ORDER_TYPES: ReadonlySet<string> = new Set(SPOT_ORDER_TYPES);
const UNBOUNDED = new Decimal(Infinity);

/**
 * @param apiTradableSymbols the defaultSymbols (or selfSymbols) list. Without it, `apiTradable` falls back
 *   to `isSpotTradingAllowed`, which the doc defines as "API spot trading allowed".
 *
 * Missing optional fields take the least surprising value: quote/commission precisions fall back to the
 * matching main precision, minimums to 0, maximums to unbounded, commissions to 0, tradeSideType to ALL.
 * Order types the domain does not know are dropped.
 */
export function toSpotInstrument(entry: SpotSymbolInfo, apiTradableSymbols?: ReadonlySet<string>): SpotInstrument {
  const quoteAssetPrecision = entry.quoteAssetPrecision ?? entry.quotePrecision;
  const minQuoteAmount = entry.quoteAmountPrecision ?? D(0);
  const maxQuoteAmount = entry.maxQuoteAmount ?? UNBOUNDED;
  const percentPriceBySide = percentPriceBySideOf(entry);
  return {
    kind: 'spot',
    symbol: spotSymbol(entry.symbol),
    status: entry.status,
    baseAsset: entry.baseAsset,
    quoteAsset: entry.quoteAsset,
    baseAssetPrecision: entry.baseAssetPrecision,
    quotePrecision: entry.quotePrecision,
    quoteAssetPrecision,
    baseCommissionPrecision: entry.baseCommissionPrecision ?? entry.baseAssetPrecision,
    quoteCommissionPrecision: entry.quoteCommissionPrecision ?? quoteAssetPrecision,
    tick: stepOfPrecision(entry.quotePrecision),
    step: stepOfPrecision(entry.baseAssetPrecision),
    orderTypes: (entry.orderTypes ?? []).filter((t): t is SpotOrderType => KNOWN_ORDER_TYPES.has(t)),
    isSpotTradingAllowed: entry.isSpotTradingAllowed ?? false,
    isMarginTradingAllowed: entry.isMarginTradingAllowed ?? false,
    permissions: entry.permissions ?? [],
    ...(percentPriceBySide ? { percentPriceBySide } : {}),
    minQuoteAmount,
    minQuantity: entry.baseSizePrecision ?? D(0),
    minQuoteAmountMarket: entry.quoteAmountPrecisionMarket ?? minQuoteAmount,
    maxQuoteAmount,
    maxQuoteAmountMarket: entry.maxQuoteAmountMarket ?? maxQuoteAmount,
    makerCommission: entry.makerCommission ?? D(0),
    takerCommission: entry.takerCommission ?? D(0),
    tradeSideType: entry.tradeSideType ?? TradeSideType.ALL,
    ...(entry.fullName !== undefined ? { fullName: entry.fullName } : {}),
    ...(entry.st !== undefined ? { st: entry.st } : {}),
    apiTradable: apiTradableSymbols ? apiTradableSymbols.has(entry.symbol) : (entry.isSpotTradingAllowed ?? false),
  };
}

/** Every symbol of an exchangeInfo answer. */
export function toSpotInstruments(info: SpotExchangeInfo, apiTradableSymbols?: ReadonlySet<string>): SpotInstrument[] {
  return info.symbols.map((s) => toSpotInstrument(s, apiTradableSymbols));
}

/** The PERCENT_PRICE_BY_SIDE filter of a symbol entry, if it has one. */
export function percentPriceBySideOf(entry: SpotSymbolInfo): PercentPriceBySide | undefined {
  for (const f of entry.filters ?? []) {
    if (f.filterType === 'PERCENT_PRICE_BY_SIDE' && f.bidMultiplierUp !== undefined && f.askMultiplierDown !== undefined) {
      return { bidMultiplierUp: f.bidMultiplierUp, askMultiplierDown: f.askMultiplierDown };
    }
  }
  return undefined;
}
