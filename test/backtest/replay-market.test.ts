import { expect } from 'chai';
import { spotInstrumentSchema, toSpotInstrument } from '../../src/emulator/config/instrument-schemas.js';
import { ReplayMarket, type ReplayInstrument } from '../../src/backtest/replay-market.js';

/** One spot instrument of a replay with a tick of 10^-quotePrecision. */
function replayed(symbol: string, quotePrecision: number): ReplayInstrument {
  const instrument = toSpotInstrument(
    spotInstrumentSchema.parse({
      symbol,
      baseAsset: symbol.replace('USDT', ''),
      quoteAsset: 'USDT',
      baseAssetPrecision: 0,
      quotePrecision,
      minQuantity: '1',
      minQuoteAmount: '1',
      maxQuoteAmount: '100000000',
      makerCommission: '0',
      takerCommission: '0',
    }),
  );
  return new ReplayMarket([{ instrument, source: { market: 'spot', symbol } }]).instruments[0]!;
}

describe('replay market', () => {
  it('converts_each_price_at_the_tick_of_its_own_instrument_whoever_converted_it_first', () => {
    // Prices as Decimals are memoised per tick and shared by instruments and runs (a memo per
    // instrument cost most of a ReplayMarket's making): a price in ticks must come out at the
    // instrument's own tick whichever instrument converted those ticks first, also for two prices
    // that take turns in one memo slot (2^14 ticks apart) and for a market made later (the next run).
    const cases: [number, string, string][] = [
      [12_345, '123.45', '1234.5'],
      [12_345.5, '123.455', '1234.55'],
      [12_345 + 16_384, '287.29', '2872.9'],
      [7, '0.07', '0.7'],
      [12_345, '123.45', '1234.5'],
    ];
    for (const round of [0, 1]) {
      const dime = replayed('AUSDT', 1);
      const cent = replayed('BUSDT', 2);
      const cent2 = replayed('CUSDT', 2);
      for (const [ticks, atCent, atDime] of round === 0 ? cases : [...cases].reverse()) {
        expect(dime.price(ticks).toString(), `${ticks} ticks of 0.1`).to.equal(atDime);
        expect(cent.price(ticks).toString(), `${ticks} ticks of 0.01`).to.equal(atCent);
        expect(cent2.price(ticks).toString(), `${ticks} ticks of 0.01, another instrument`).to.equal(atCent);
      }
    }
  });
});
