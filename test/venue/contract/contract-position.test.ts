import { expect } from 'chai';
import { Decimal } from '../../../src/core/decimal.js';
import { positionId } from '../../../src/core/ids.js';
import { OpenType, PositionType } from '../../../src/domain/contract-enums.js';
import { ContractPosition } from '../../../src/venue/contract/contract-position.js';
import { ContractSpec } from '../../../src/venue/contract/contract-spec.js';
import { testInstrument } from './contract-test-kit.js';

const spec = new ContractSpec(testInstrument());
const pos = (type: PositionType): ContractPosition => new ContractPosition(positionId(1), spec, type, OpenType.ISOLATED, 10, 0);

describe('ContractPosition', () => {
  it('averages_entries_and_realises_exact_pnl_on_close', () => {
    const p = pos(PositionType.LONG);
    p.open(400, 500000); // 400 @ 50000.0
    p.open(600, 500100); // 600 @ 50010.0
    // hold cost 400·500000 + 600·500100 = 200,000,000 + 300,060,000 = 500,060,000 tick·lots
    expect(p.holdCost).to.equal(500_060_000n);
    expect(p.holdAvgPrice().toString()).to.equal('50006');
    // close 500 @ 51000.0: removed = 500,060,000·500/1000 = 250,030,000; value 255,000,000
    // realised units 4,970,000 → money 4,970,000 · (0.1·1·0.0001) = 49.7
    const units = p.close(500, 510000);
    expect(units).to.equal(4_970_000n);
    expect(spec.money(units).toString()).to.equal('49.7');
    expect(p.holdLots).to.equal(500);
    expect(p.holdAvgPrice().toString()).to.equal('50006');
  });

  it('keeps_open_average_apart_from_hold_average_after_a_reopen', () => {
    const p = pos(PositionType.SHORT);
    p.open(10, 1000); // 10 @ 100.0
    p.close(5, 900); // short profits: removed 5000, value 4500 → +500 units
    p.open(5, 1100); // 5 @ 110.0
    // open avg (10·100 + 5·110)/15 = 103.333…; hold avg (5000 + 5500)/10 ticks = 105.0
    expect(p.openAvgPrice().toDecimalPlaces(4).toString()).to.equal('103.3333');
    expect(p.holdAvgPrice().toString()).to.equal('105');
  });

  it('releases_margin_pro_rata_and_all_of_it_on_the_last_close', () => {
    const p = pos(PositionType.LONG);
    p.open(3, 1000);
    p.im = new Decimal(10);
    p.oim = new Decimal(10);
    // 10·1/3 = 3.33333333 (floored to 8 places)
    expect(p.releaseMargin(1, 8).toString()).to.equal('3.33333333');
    p.close(1, 1000);
    expect(p.releaseMargin(2, 8).toString()).to.equal('6.66666667');
    expect(p.im.isZero()).to.equal(true);
  });

  it('refuses_to_close_more_than_held', () => {
    const p = pos(PositionType.LONG);
    p.open(1, 1000);
    expect(() => p.close(2, 1000)).to.throw(RangeError);
  });
});
