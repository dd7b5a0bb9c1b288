/**
 * A snapshot written before the fee model kept traded amounts in whole units has Series with Decimal
 * running totals only (`times`, `cum`, `base`). Restored into today's graph, the restore writes those
 * fields and deletes the unit ones it did not write, and the series goes on in Decimals: the same
 * window sums, and new fills added to them. The old class is stood in for by a class of the same name
 * with the old fields, encoded by the real codec functions.
 */
import { expect } from 'chai';
import { Decimal } from '../../../src/core/decimal.js';
import { decodeGraph, encodeGraph, graphCodec, restoreGraph } from '../../../src/emulator/engine/object-graph.js';
import { Series } from '../../../src/venue/fees/deal-volume-window.js';

const d = (v: string) => new Decimal(v);
const totals = (amount: string, fee: string, saved: string) => ({ amount: d(amount), fee: d(fee), saved: d(saved) });

const Old = {
  Series: class Series {
    times = [10, 20];
    cum = [totals('5', '0.003', '0'), totals('12.5', '0.0075', '0.001')];
    base = totals('1', '0.0001', '0');
  },
};

class Root {
  series: object | undefined;
  created: object | undefined;
}

describe('restoring a snapshot written before the fee model kept units', () => {
  it('goes_on_in_decimals_with_the_same_sums_for_a_series_in_place_and_a_created_one', () => {
    const oldRoot = new Root();
    oldRoot.series = new Old.Series();
    oldRoot.created = new Old.Series();
    const data = encodeGraph(oldRoot, graphCodec([Root, Old.Series]), new Set());

    const root = new Root();
    root.series = new Series();
    const codec = graphCodec([Root, Series]);
    restoreGraph(root, decodeGraph(data, codec), codec);

    for (const s of [root.series, root.created] as Series[]) {
      expect(s).to.be.instanceOf(Series);
      expect(s.amount).to.equal(undefined);
      expect(s.cum).to.have.length(2);
      const r = s.range(0, 2);
      expect([r.amount.toFixed(), r.fee.toFixed(), r.saved.toFixed(), r.count]).to.deep.equal(['11.5', '0.0074', '0.001', 2]);
      s.push({ time: 30, symbol: 'X', amount: d('2.25'), fee: d('-0.0001'), saved: d('0.5') });
      s.push({ time: 15, symbol: 'X', amount: d('1'), fee: d('0'), saved: d('0') }); // late: between the two old ones
      const all = s.range(0, 4);
      expect([all.amount.toFixed(), all.fee.toFixed(), all.saved.toFixed(), all.count]).to.deep.equal(['14.75', '0.0073', '0.501', 4]);
      const last = s.range(2, 4);
      expect([last.amount.toFixed(), last.fee.toFixed(), last.count]).to.deep.equal(['9.75', '0.0044', 2]);
    }
  });
});
