/**
 * Spot endpoints answered from configuration and account settings alone (no engine): ping, time,
 * defaultSymbols, offline symbols, exchangeInfo, KYC status, UID, selfSymbols, tradeFee and the
 * platform-token deduction switch. Shapes follow the captures (exchangeInfo: `status` "1",
 * `tradeSideType` a number, PERCENT_PRICE_BY_SIDE filter; defaultSymbols: code 0, msg "success").
 */
import type { SpotInstrument } from '../../domain/instrument.js';
import { spotInstrumentOf, type EmulatorContext } from '../emulator-context.js';
import { SpotError } from '../http/wire-error.js';
import type { ApiCall, EndpointHandler } from './handler.js';

export function exchangeInfoSymbol(i: SpotInstrument): Record<string, unknown> {
  return {
    symbol: i.symbol,
    status: i.status,
    baseAsset: i.baseAsset,
    baseAssetPrecision: i.baseAssetPrecision,
    quoteAsset: i.quoteAsset,
    quotePrecision: i.quotePrecision,
    quoteAssetPrecision: i.quoteAssetPrecision,
    baseCommissionPrecision: i.baseCommissionPrecision,
    quoteCommissionPrecision: i.quoteCommissionPrecision,
    orderTypes: [...i.orderTypes],
    isSpotTradingAllowed: i.isSpotTradingAllowed,
    isMarginTradingAllowed: i.isMarginTradingAllowed,
    quoteAmountPrecision: i.minQuoteAmount.toFixed(),
    baseSizePrecision: i.minQuantity.toFixed(),
    permissions: [...i.permissions],
    filters: i.percentPriceBySide
      ? [
          {
            filterType: 'PERCENT_PRICE_BY_SIDE',
            bidMultiplierUp: i.percentPriceBySide.bidMultiplierUp.toFixed(),
            askMultiplierDown: i.percentPriceBySide.askMultiplierDown.toFixed(),
          },
        ]
      : [],
    maxQuoteAmount: i.maxQuoteAmount.toFixed(),
    makerCommission: i.makerCommission.toFixed(),
    takerCommission: i.takerCommission.toFixed(),
    quoteAmountPrecisionMarket: i.minQuoteAmountMarket.toFixed(),
    maxQuoteAmountMarket: i.maxQuoteAmountMarket.toFixed(),
    fullName: i.fullName ?? i.baseAsset,
    tradeSideType: i.tradeSideType,
    contractAddress: '',
    st: i.st ?? false,
  };
}

export function spotReferenceHandlers(ctx: EmulatorContext): Record<string, EndpointHandler> {
  const apiSymbols = (): string[] => [...ctx.spotInstruments.values()].filter((i) => i.apiTradable).map((i) => i.symbol);
  return {
    'spot.ping': () => ({}),
    'spot.serverTime': (c: ApiCall) => ({ serverTime: c.now }),
    'spot.defaultSymbols': () => apiSymbols(),
    'spot.offlineSymbols': () => ({ data: ctx.offlineSymbols.map((o) => ({ ...o })) }),
    'spot.exchangeInfo': (c: ApiCall<{ symbol?: string; symbols?: string }>) => {
      let list: SpotInstrument[];
      if (c.params.symbol !== undefined) list = [spotInstrumentOf(ctx, c.params.symbol)];
      else if (c.params.symbols !== undefined) list = c.params.symbols.split(',').map((s) => spotInstrumentOf(ctx, s));
      else list = [...ctx.spotInstruments.values()];
      return { timezone: 'CST', serverTime: c.now, rateLimits: [], exchangeFilters: [], symbols: list.map(exchangeInfoSymbol) };
    },
    'spot.kycStatus': (c: ApiCall) => ({ status: c.account!.kycStatus }),
    'spot.uid': (c: ApiCall) => ({ uid: c.account!.uid }),
    'spot.selfSymbols': () => apiSymbols(),
    'spot.tradeFee': (c: ApiCall<{ symbol: string }>) => {
      const i = spotInstrumentOf(ctx, c.params.symbol);
      // The venue answers rates as numbers in this endpoint.
      return { makerCommission: i.makerCommission.toNumber(), takerCommission: i.takerCommission.toNumber() };
    },
    'spot.enablePlatformDeduct': (c: ApiCall<{ platformDeductEnable: string }>) => {
      const acc = c.account!;
      acc.settings.platformDeduct = c.params.platformDeductEnable === 'true';
      return { platformDeductEnable: acc.settings.platformDeduct };
    },
    'spot.platformDeductStatus': (c: ApiCall) => ({ platformDeductEnable: c.account!.settings.platformDeduct }),
  };
}

/** Thrown by handlers of endpoints the emulator does not implement yet, in the venue's shape. */
export function spotNotSupported(what: string): EndpointHandler {
  return () => {
    throw SpotError.notSupported(what);
  };
}
