import { expect } from 'chai';
import fc from 'fast-check';
import { D } from '../../../src/core/decimal.js';
import { unitsToDecimal } from '../../../src/venue/ledger/ledger-units.js';
import { withinBand } from '../../../src/venue/spot/spot-filters.js';
import { compileSpotMarket, quoteOf } from '../../../src/venue/spot/spot-market.js';
import { btcUsdt } from './spot-fixtures.js';

describe('spot market (compiled numbers)', () => {
  it('states_quote_of_tick_lots_exactly_as_the_ledger_units_do', () => {
    const markets = [
      compileSpotMarket(btcUsdt()),
      // tick 0.00000001 × step 0.0000000001: one tick-lot is exactly one ledger unit (10^-18)
      compileSpotMarket(btcUsdt({ tick: D('0.00000001'), step: D('0.0000000001') })),
      compileSpotMarket(btcUsdt({ tick: D('0.37'), step: D('0.013') })),
    ];
    fc.assert(
      fc.property(fc.constantFrom(...markets), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (m, n) => {
        const viaUnits = unitsToDecimal(BigInt(n) * m.quoteUnitsPerTickLot, 18);
        const viaCount = quoteOf(m, n, 18);
        expect(viaCount.eq(viaUnits)).to.equal(true);
        expect([viaCount.toFixed(), viaCount.toString()]).to.deep.equal([viaUnits.toFixed(), viaUnits.toString()]);
      }),
      { numRuns: 500, seed: 7 },
    );
  });

  it('keeps_amount_limits_as_exact_tick_lot_bounds', () => {
    // min 1 USDT, max 1 000 000 USDT; one tick-lot is 0.01 × 0.0001 = 0.000001 USDT
    const m = compileSpotMarket(btcUsdt());
    expect([m.minTickLots, m.maxTickLots]).to.deep.equal([1_000_000, 1_000_000_000_000]);
    // min 1.0000005 USDT is not a whole number of tick-lots: the bound rounds up to 1 000 001
    const odd = compileSpotMarket(btcUsdt({ minQuoteAmount: D('1.0000005'), maxQuoteAmount: D('0') }));
    expect([odd.minTickLots, odd.maxTickLots]).to.deep.equal([1_000_001, Infinity]);
  });

  it('decides_the_price_band_in_numbers_exactly_as_in_bigint', () => {
    const bands = ['0.0015', '0.2', '1', '5', '0.123456789012345678'].map((x) =>
      compileSpotMarket(btcUsdt({ percentPriceBySide: { bidMultiplierUp: D(x), askMultiplierDown: D(x) } })),
    );
    // reference: buy p·den ≤ last·(den ± num) or last·num, in bigint
    const reference = (side: 'BUY' | 'SELL', p: number, last: number, b: { num: bigint; den: bigint; fractional: boolean }): boolean => {
      const lhs = BigInt(p) * b.den;
      if (side === 'BUY') return lhs <= BigInt(last) * (b.fractional ? b.den + b.num : b.num);
      return lhs >= BigInt(last) * (b.fractional ? b.den - b.num : b.num);
    };
    const ticks = fc.oneof(fc.integer({ min: 1, max: 20_000 }), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }));
    fc.assert(
      fc.property(fc.constantFrom(...bands), fc.constantFrom('BUY' as const, 'SELL' as const), ticks, ticks, (m, side, p, last) => {
        const band = side === 'BUY' ? m.bidBand! : m.askBand!;
        expect(withinBand(side, p, last, band)).to.equal(reference(side, p, last, band));
      }),
      { numRuns: 2000, seed: 8 },
    );
  });
});
