import { expect } from 'chai';
import { roundToTick, toUnits, truncateToStep } from '../../src/core/decimal.js';

describe('decimal helpers', () => {
  it('rounds_prices_to_tick_in_the_direction_asked', () => {
    expect(roundToTick('100.037', '0.01', 'down').toFixed()).to.equal('100.03');
    expect(roundToTick('100.031', '0.01', 'up').toFixed()).to.equal('100.04');
    expect(roundToTick('100.035', '0.01', 'nearest').toFixed()).to.equal('100.04');
  });
  it('truncates_quantities_to_step', () => {
    expect(truncateToStep('1.23999', '0.001').toFixed()).to.equal('1.239');
  });
  it('exact_conversion_rejects_off_tick_values', () => {
    expect(toUnits('0.3', '0.1')).to.equal(3);
    expect(() => toUnits('0.35', '0.1')).to.throw(RangeError, /not a multiple/);
  });
});
