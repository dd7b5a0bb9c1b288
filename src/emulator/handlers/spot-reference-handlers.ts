/**
 * Spot endpoints answered from configuration and account settings alone (no engine): ping, time,
 * defaultSymbols, exchangeInfo, KYC status, UID, selfSymbols and the platform-token deduction switch
 * (offline symbols and tradeFee: spot-account-ext-handlers.ts). Shapes follow the captures (exchangeInfo: `status` "1",
 * `tradeSideType` a number, PERCENT_PRICE_BY_SIDE filter; defaultSymbols: code 0, msg "success").
 */
import type { SpotInstrument } from '../../domain/instrument.js';
import { spotInstrumentOf, type EmulatorContext } from '../emulator-context.js';
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
    // spot-api.md §2.1 names it; the live answer lists the exchange's sector ("concept plate") ids. The
    // emulator groups symbols into no sectors, so the list is empty rather than copied from the capture.
    conceptPlateIds: [],
  };
}

export function spotReferenceHandlers(ctx: EmulatorContext): Record<string, EndpointHandler> {
  const apiSymbols = (): string[] => [...ctx.spotInstruments.values()].filter((i) => i.apiTradable).map((i) => i.symbol);
  return {
    'spot.ping': () => ({}),
    'spot.serverTime': (c: ApiCall) => ({ serverTime: c.now }),
    'spot.defaultSymbols': () => apiSymbols(),
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
    'spot.enablePlatformDeduct': (c: ApiCall<{ platformDeductEnable: string }>) => ({
      platformDeductEnable: ctx.accountSettings.setPlatformDeduct(c.account!.id, c.params.platformDeductEnable === 'true'),
    }),
    'spot.platformDeductStatus': (c: ApiCall) => ({ platformDeductEnable: c.account!.settings.platformDeduct }),
  };
}
