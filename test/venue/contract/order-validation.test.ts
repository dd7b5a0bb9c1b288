import { expect } from 'chai';
import { Decimal } from '../../../src/core/decimal.js';
import { ContractOrderType, ContractSide, OpenType, PositionMode, PositionType } from '../../../src/domain/contract-enums.js';
import { ContractSpec } from '../../../src/venue/contract/contract-spec.js';
import { priceBand, validateOrderRequest } from '../../../src/venue/contract/order-validation.js';
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

  it('ignores_the_price_of_market_orders_but_keeps_it_for_display', () => {
    const r = validateOrderRequest({ ...base, type: ContractOrderType.MARKET, price: '12.3' }, spec, PositionMode.HEDGED, undefined);
    expect(r.ok && r.value.priceTicks).to.equal(0);
    expect(r.ok && r.value.displayPrice.toString()).to.equal('12.3');
  });
});
