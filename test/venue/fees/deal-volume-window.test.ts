import { expect } from 'chai';
import { Decimal } from '../../../src/core/decimal.js';
import { type DealEntry, DealVolumeWindow } from '../../../src/venue/fees/deal-volume-window.js';

const e = (time: number, symbol: string, amount: number, fee = 0) => ({
  time,
  symbol,
  amount: new Decimal(amount),
  fee: new Decimal(fee),
  saved: new Decimal(0),
});

/** An entry's figure as whole units of 10^-scale, worked out here apart from the module. */
const units = (d: Decimal) => ({ units: d.mul(new Decimal(10).pow(d.decimalPlaces())).toNumber(), scale: d.decimalPlaces() });

/** Records through the Decimal entry point or the units one (the fee model's usual path). */
const recorders = {
  decimals: (w: DealVolumeWindow, x: DealEntry) => w.record('a', x),
  units: (w: DealVolumeWindow, x: DealEntry) => {
    const [a, f, s] = [units(x.amount), units(x.fee), units(x.saved)];
    w.recordUnits('a', x.time, x.symbol, {
      amount: a.units,
      amountScale: a.scale,
      fee: f.units,
      feeScale: f.scale,
      saved: s.units,
      savedScale: s.scale,
    });
  },
};

for (const [via, put] of Object.entries(recorders))
  describe(`DealVolumeWindow (fills recorded in ${via})`, () => {
    it('sums_a_window_with_exclusive_or_inclusive_start_and_inclusive_end', () => {
      const w = new DealVolumeWindow(1_000_000);
      for (const [t, a] of [
        [10, 1],
        [20, 2],
        [30, 4],
        [40, 8],
      ] as const)
        put(w, e(t, 'X', a));
      expect(w.totals('a', { from: 10, to: 30 }).amount.toFixed()).to.equal('6'); // 20, 30
      expect(w.totals('a', { from: 10, to: 30, fromInclusive: true }).amount.toFixed()).to.equal('7');
      expect(w.totals('a', { from: 0, to: 100 }).count).to.equal(4);
      expect(w.totals('b', { from: 0, to: 100 }).count).to.equal(0);
    });

    it('filters_by_contract', () => {
      const w = new DealVolumeWindow(1_000_000);
      put(w, e(1, 'X', 5));
      put(w, e(2, 'Y', 7));
      expect(w.totals('a', { from: 0, to: 10, symbol: (s) => s === 'Y' }).amount.toFixed()).to.equal('7');
    });

    it('keeps_window_sums_exact_after_pruning_old_entries', () => {
      const w = new DealVolumeWindow(100);
      // 1000 fills of 1 at t = 0..999: only the last 100 ms are guaranteed; sums over them stay exact
      for (let t = 0; t < 1000; t++) put(w, e(t, 'X', 1, 0.5));
      const r = w.totals('a', { from: 899, to: 999 });
      expect([r.amount.toFixed(), r.fee.toFixed(), r.count]).to.deep.equal(['100', '50', 100]);
    });

    it('places_a_late_entry_in_time_order', () => {
      const w = new DealVolumeWindow(1_000_000);
      put(w, e(10, 'X', 1));
      put(w, e(30, 'X', 4));
      put(w, e(20, 'X', 2));
      expect(w.totals('a', { from: 15, to: 25 }).amount.toFixed()).to.equal('2');
      expect(w.totals('a', { from: 25, to: 35 }).amount.toFixed()).to.equal('4');
    });
  });
