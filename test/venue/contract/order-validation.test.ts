import { expect } from 'chai';
import { Decimal } from '../../../src/core/decimal.js';
import { ContractOrderType, ContractSide, OpenType, PositionMode, PositionType } from '../../../src/domain/contract-enums.js';
import { ContractSpec } from '../../../src/venue/contract/contract-spec.js';
import fc from 'fast-check';
import { priceBand, validateOrderRequest, validateOrderTicks } from '../../../src/venue/contract/order-validation.js';
import * as reference from '../../reference/reference-order-validation.js';
import type { PlaceOrderRequest } from '../../../src/venue/contract/contract-requests.js';
import { SYMBOL, testInstrument } from './contract-test-kit.js';

const spec = new ContractSpec(testInstrument());
const base: PlaceOrderRequest = {
  symbol: SYMBOL,
  side: ContractSide.OPEN_LONG,
  type: ContractOrderType.LIMIT,
  openType: OpenType.ISOLATED,
  price: '50000',
  vol: 10,
  leverage: 10,
};

describe('order-validation', () => {
  it('converts_price_and_vol_to_ticks_and_lots', () => {
    const r = validateOrderRequest(base, spec, PositionMode.HEDGED, undefined);
    expect(r.ok && r.value.priceTicks).to.equal(500000);
    expect(r.ok && r.value.lots).to.equal(10);
  });

  it('derives_closing_and_the_position_type_per_mode', () => {
    const cases: [ContractSide, boolean, PositionMode, boolean, PositionType][] = [
      [ContractSide.OPEN_LONG, false, PositionMode.HEDGED, false, PositionType.LONG],
      [ContractSide.CLOSE_SHORT, false, PositionMode.HEDGED, true, PositionType.SHORT],
      [ContractSide.OPEN_SHORT, false, PositionMode.HEDGED, false, PositionType.SHORT],
      [ContractSide.CLOSE_LONG, false, PositionMode.HEDGED, true, PositionType.LONG],
      // one-way: a reduce-only buy reduces the short, a plain sell opens (or nets into) a short
      [ContractSide.OPEN_LONG, true, PositionMode.ONE_WAY, true, PositionType.SHORT],
      [ContractSide.OPEN_SHORT, false, PositionMode.ONE_WAY, false, PositionType.SHORT],
      [ContractSide.CLOSE_LONG, false, PositionMode.ONE_WAY, true, PositionType.LONG],
    ];
    for (const [side, reduceOnly, mode, closing, pt] of cases) {
      const r = validateOrderRequest({ ...base, side, reduceOnly }, spec, mode, undefined);
      expect(r.ok, `${side} ${mode}`).to.equal(true);
      if (r.ok) expect([r.value.closing, r.value.positionType], `${side} ${reduceOnly} ${mode}`).to.deep.equal([closing, pt]);
    }
  });

  it('refuses_parameter_errors_with_their_codes', () => {
    const bad: [Partial<PlaceOrderRequest>, number][] = [
      [{ side: 5 as ContractSide }, 600],
      [{ type: 7 as ContractOrderType }, 600],
      [{ openType: 3 as OpenType }, 600],
      [{ price: '0' }, 2015],
      [{ price: 'abc' }, 2015],
      [{ vol: 0 }, 2015],
      [{ leverage: 0 }, 2006],
      [{ leverage: 2.5 }, 2006],
      [{ positionMode: PositionMode.ONE_WAY }, 600],
      [{ reduceOnly: true }, 600],
      [{ stpMode: 9 as never }, 600],
    ];
    for (const [over, code] of bad) {
      const r = validateOrderRequest({ ...base, ...over }, spec, PositionMode.HEDGED, undefined);
      expect(r.ok ? 0 : r.code, JSON.stringify(over)).to.equal(code);
    }
  });

  it('refuses_an_open_type_the_contract_does_not_offer', () => {
    const isolatedOnly = new ContractSpec(testInstrument({ positionOpenType: 1 }));
    const r = validateOrderRequest({ ...base, openType: OpenType.CROSS }, isolatedOnly, PositionMode.HEDGED, undefined);
    expect(r.ok ? 0 : r.code).to.equal(2002);
  });

  it('bands_limit_prices_around_the_fair_price', () => {
    // 50000 · 1.1 = 55000 → 550000 ticks; 50000 · 0.9 = 45000 → 450000 ticks
    const band = priceBand(spec, new Decimal(50000))!;
    expect(band).to.deep.equal({ maxBuy: 550000, minSell: 450000 });
    expect(validateOrderRequest({ ...base, price: '55000.1' }, spec, PositionMode.HEDGED, band).ok).to.equal(false);
    expect(validateOrderRequest({ ...base, price: '55000' }, spec, PositionMode.HEDGED, band).ok).to.equal(true);
    expect(priceBand(spec, undefined)).to.equal(undefined);
  });

  it('bands_in_ticks_exactly_as_the_decimal_band_for_any_rate_and_fair_price', () => {
    // The band of a fair price on the tick grid is computed in integers (order-validation.ts bandInTicks),
    // any other in Decimal: both against the reference's Decimal band, over rates up to and past 1.
    const rates = ['0.1', '0.05', '0.0333', '0.00001', '1', '1.5', '0.123456789'];
    const ticks = ['0.1', '0.5', '0.00001', '25'];
    let inTicks = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...rates),
        fc.constantFrom(...rates),
        fc.constantFrom(...ticks),
        fc.oneof(fc.integer({ min: 1, max: 2_000_000 }), fc.integer({ min: 1, max: 2 ** 53 - 1 })),
        fc.constantFrom('on', 'off', 'on'),
        (bid, ask, tick, n, where) => {
          const s = new ContractSpec(
            testInstrument({ priceUnit: new Decimal(tick), bidLimitPriceRate: new Decimal(bid), askLimitPriceRate: new Decimal(ask) }),
          );
          const fair = new Decimal(tick).mul(n).add(where === 'off' ? new Decimal(tick).div(7).toDecimalPlaces(12) : 0);
          let want: unknown;
          try {
            want = reference.priceBand(s, fair);
          } catch (e) {
            want = (e as Error).message;
          }
          let got: unknown;
          try {
            got = priceBand(s, fair);
          } catch (e) {
            got = (e as Error).message;
          }
          expect(got, `fair ${fair.toString()} tick ${tick} rates ${bid} ${ask}`).to.deep.equal(want);
          if (where === 'on' && n < 1e9) inTicks++;
        },
      ),
      { numRuns: 3000 },
    );
    expect(inTicks).to.be.greaterThan(1000);
  });

  it('refuses_a_request_in_ticks_as_the_decimal_request_it_stands_for', () => {
    // Same checks and codes (one validation: the decimal path parses, then runs the integer checks).
    const fields = {
      symbol: SYMBOL,
      side: ContractSide.OPEN_LONG,
      type: ContractOrderType.LIMIT,
      openType: OpenType.ISOLATED,
      leverage: 10,
    };
    const band = priceBand(spec, new Decimal(50000));
    const cases: [number, number, Partial<PlaceOrderRequest>][] = [
      [500000, 10, {}],
      [0, 10, {}],
      [-5, 10, {}],
      [2.5, 10, {}],
      [500000, 0, {}],
      [500000, 1.5, {}],
      [500000, Number.NaN, {}],
      [550001, 10, {}],
      [550000, 10, {}],
      [449999, 10, { side: ContractSide.OPEN_SHORT }],
      [500000, 10, { leverage: 0 }],
      [0, 10, { leverage: 0 }],
      [500000, 10, { type: ContractOrderType.MARKET }],
      [123, 10, { type: ContractOrderType.MARKET }],
      [500000, 10, { side: 5 as ContractSide }],
      [500000, 10, { reduceOnly: true }],
    ];
    for (const [priceTicks, lots, over] of cases) {
      const req = { ...fields, ...over };
      const text = validateOrderRequest(
        { ...req, price: spec.tick.mul(priceTicks), vol: spec.lot.mul(lots) },
        spec,
        PositionMode.HEDGED,
        band,
      );
      const ticks = validateOrderTicks({ ...req, priceTicks, lots }, spec, PositionMode.HEDGED, band);
      expect(JSON.stringify(ticks), `${priceTicks} ${lots} ${JSON.stringify(over)}`).to.equal(JSON.stringify(text));
    }
  });

  it('ignores_the_price_of_market_orders_but_keeps_it_for_display', () => {
    const r = validateOrderRequest({ ...base, type: ContractOrderType.MARKET, price: '12.3' }, spec, PositionMode.HEDGED, undefined);
    expect(r.ok && r.value.priceTicks).to.equal(0);
    expect(r.ok && r.value.displayPrice.toString()).to.equal('12.3');
  });
});
