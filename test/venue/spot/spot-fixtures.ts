/** Instruments and a venue factory for the spot venue tests (round numbers so fees are easy by hand). */
import { VirtualClock } from '../../../src/core/clock.js';
import { D } from '../../../src/core/decimal.js';
import { spotSymbol } from '../../../src/core/ids.js';
import type { SpotInstrument } from '../../../src/domain/instrument.js';
import { SpotVenue, type SpotVenueOptions } from '../../../src/venue/spot/spot-venue.js';

/** BTCUSDT-like: tick 0.01, step 0.0001, maker 0.1 %, taker 0.2 %, min 0.0001 BTC / 1 USDT, max 1 000 000 USDT. */
export function btcUsdt(overrides: Partial<SpotInstrument> = {}): SpotInstrument {
  return {
    kind: 'spot',
    symbol: spotSymbol('BTCUSDT'),
    status: '1',
    baseAsset: 'BTC',
    quoteAsset: 'USDT',
    baseAssetPrecision: 4,
    quotePrecision: 2,
    quoteAssetPrecision: 2,
    baseCommissionPrecision: 8,
    quoteCommissionPrecision: 8,
    tick: D('0.01'),
    step: D('0.0001'),
    orderTypes: ['LIMIT', 'MARKET', 'LIMIT_MAKER'],
    isSpotTradingAllowed: true,
    isMarginTradingAllowed: false,
    permissions: ['SPOT'],
    minQuoteAmount: D('1'),
    minQuantity: D('0.0001'),
    minQuoteAmountMarket: D('1'),
    maxQuoteAmount: D('1000000'),
    maxQuoteAmountMarket: D('1000000'),
    makerCommission: D('0.001'),
    takerCommission: D('0.002'),
    tradeSideType: 1,
    apiTradable: true,
    ...overrides,
  };
}

export function ethUsdt(overrides: Partial<SpotInstrument> = {}): SpotInstrument {
  return btcUsdt({ symbol: spotSymbol('ETHUSDT'), baseAsset: 'ETH', ...overrides });
}

export interface Harness {
  readonly clock: VirtualClock;
  readonly venue: SpotVenue;
}

export function harness(opts: Partial<SpotVenueOptions> = {}, instruments: SpotInstrument[] = [btcUsdt()]): Harness {
  const clock = new VirtualClock(1_700_000_000_000);
  const venue = new SpotVenue({ clock, instruments, ...opts });
  return { clock, venue };
}

/** Funds every named account with 1000 USDT and 10 BTC. */
export function fund(venue: SpotVenue, ...accounts: string[]): void {
  for (const a of accounts) {
    venue.deposit(a, 'USDT', '1000');
    venue.deposit(a, 'BTC', '10');
  }
}

export const str = (d: { toFixed(): string }): string => d.toFixed();
