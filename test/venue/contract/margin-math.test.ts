import { expect } from 'chai';
import { Decimal } from '../../../src/core/decimal.js';
import { PositionType } from '../../../src/domain/contract-enums.js';
import {
  bankruptcyPrice,
  initialMargin,
  isBreached,
  liquidationPrice,
  marginRatio,
  maintenanceMargin,
  unrealisedPnl,
} from '../../../src/venue/contract/margin-math.js';

const d = (v: string | number): Decimal => new Decimal(v);

// Long 0.1 BTC (1000 contracts × 0.0001) bought at 50000: C = 5000, 10x → im = 500, mmr 0.004.
const long = { positionType: PositionType.LONG, qty: d('0.1'), costValue: d(5000), im: d(500) };
const short = { positionType: PositionType.SHORT, qty: d('0.1'), costValue: d(5000), im: d(500) };

describe('margin-math', () => {
  it('computes_initial_margin_rounded_as_told', () => {
    // 1000 / 3 = 333.333333333… → floor 333.33333333, ceil 333.33333334 (8 places)
    expect(initialMargin(d(1000), 3, 8, 'floor').toString()).to.equal('333.33333333');
    expect(initialMargin(d(1000), 3, 8, 'ceil').toString()).to.equal('333.33333334');
    // 5000 / 10 = 500 exactly either way
    expect(initialMargin(d(5000), 10, 8, 'ceil').toString()).to.equal('500');
  });

  it('computes_unrealised_pnl_for_both_directions', () => {
    // long at 50500: 0.1·50500 − 5000 = 50; short: 5000 − 5050 = −50
    expect(unrealisedPnl(long, d(50500)).toString()).to.equal('50');
    expect(unrealisedPnl(short, d(50500)).toString()).to.equal('-50');
  });

  it('computes_the_long_liquidation_price_by_hand', () => {
    // (C − im) / (Q·(1 − mmr)) = 4500 / (0.1 · 0.996) = 4500 / 0.0996 = 45180.7228915662650602…
    const p = liquidationPrice(long, d('0.004'))!;
    expect(p.toDecimalPlaces(6).toString()).to.equal('45180.722892');
    // At the liquidation price im + upnl equals maintenance: 500 + 0.1·p − 5000 = 0.004·0.1·p
    const lhs = d(500).add(unrealisedPnl(long, p));
    expect(
      lhs
        .sub(maintenanceMargin(d('0.1'), p, d('0.004')))
        .abs()
        .lt('1e-20'),
    ).to.equal(true);
  });

  it('computes_the_short_liquidation_price_by_hand', () => {
    // (C + im) / (Q·(1 + mmr)) = 5500 / 0.1004 = 54780.8764940239043824…
    expect(liquidationPrice(short, d('0.004'))!.toDecimalPlaces(6).toString()).to.equal('54780.876494');
  });

  it('computes_bankruptcy_prices', () => {
    // long (5000 − 500)/0.1 = 45000; short (5000 + 500)/0.1 = 55000
    expect(bankruptcyPrice(long).toString()).to.equal('45000');
    expect(bankruptcyPrice(short).toString()).to.equal('55000');
    expect(bankruptcyPrice({ ...long, im: d(6000) }).toString()).to.equal('0');
  });

  it('detects_breach_at_and_beyond_the_liquidation_price', () => {
    // 45180.8: balance 500 + 4518.08 − 5000 = 18.08 > mm 0.004·4518.08 = 18.07232
    expect(isBreached(long, d('45180.8'), d('0.004'))).to.equal(false);
    // 45180.7: balance 18.07 ≤ mm 18.07228
    expect(isBreached(long, d('45180.7'), d('0.004'))).to.equal(true);
    expect(isBreached(short, d('54780.8'), d('0.004'))).to.equal(false);
    expect(isBreached(short, d('54780.9'), d('0.004'))).to.equal(true);
  });

  it('reports_margin_ratio_as_maintenance_over_balance', () => {
    // at 50000: mm = 0.004·5000 = 20, balance = 500 → 0.04
    expect(marginRatio(long, d(50000), d('0.004')).toString()).to.equal('0.04');
    // balance gone: 1
    expect(marginRatio(long, d(40000), d('0.004')).toString()).to.equal('1');
  });

  it('returns_no_liquidation_price_for_a_fully_margined_long', () => {
    expect(liquidationPrice({ ...long, im: d(5000) }, d('0.004'))).to.equal(undefined);
  });
});
