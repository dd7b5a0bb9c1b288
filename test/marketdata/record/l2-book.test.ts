import { expect } from 'chai';
import { L2Book } from '../../../src/marketdata/record/l2-book.js';

describe('L2Book', () => {
  it('applies_a_snapshot_then_chained_diffs_with_absolute_quantities', () => {
    const b = new L2Book();
    expect(b.applyDiff(1, 2, undefined, [[100, 1]], [])).to.equal('no-snapshot');
    b.applySnapshot(
      10,
      [
        [100, 5],
        [99, 7],
      ],
      [
        [102, 3],
        [103, 4],
      ],
    );
    // The first diff must bracket the snapshot id: U 9 ≤ 11 ≤ u 12.
    expect(
      b.applyDiff(
        9,
        12,
        undefined,
        [
          [100, 0],
          [101, 2],
        ],
        [[102, 1]],
      ),
    ).to.equal('applied');
    expect(b.applyDiff(13, 13, undefined, [], [[104, 9]])).to.equal('applied');
    expect(b.top('buy', 5)).to.deep.equal([
      [101, 2],
      [99, 7],
    ]);
    expect(b.top('sell', 2)).to.deep.equal([
      [102, 1],
      [103, 4],
    ]);
    expect([b.bestBid(), b.bestAsk(), b.lastUpdateId, b.gaps]).to.deep.equal([101, 102, 13, 0]);
  });

  it('drops_stale_diffs_and_counts_gaps_but_still_applies_them', () => {
    const b = new L2Book();
    b.applySnapshot(10, [[100, 5]], [[102, 3]]);
    expect(b.applyDiff(5, 10, undefined, [[100, 1]], [])).to.equal('stale');
    expect(b.top('buy', 1)).to.deep.equal([[100, 5]]);
    // U 15 > 11: a gap after the snapshot.
    expect(b.applyDiff(15, 16, undefined, [[100, 4]], [])).to.equal('gap');
    expect([b.gaps, b.top('buy', 1)[0]]).to.deep.equal([1, [100, 4]]);
  });

  it('chains_futures_diffs_by_previous_final_id', () => {
    const b = new L2Book();
    b.applySnapshot(10, [], []);
    expect(b.applyDiff(8, 12, 7, [[100, 1]], [])).to.equal('applied');
    expect(b.applyDiff(20, 25, 12, [[100, 2]], [])).to.equal('applied');
    expect(b.applyDiff(26, 27, 24, [[100, 3]], [])).to.equal('gap');
  });

  it('reports_a_crossed_source_book', () => {
    const b = new L2Book();
    b.applySnapshot(1, [[100, 1]], [[101, 1]]);
    expect(b.isCrossed()).to.equal(false);
    b.applyDiff(2, 2, undefined, [[101, 1]], []);
    expect(b.isCrossed()).to.equal(true);
  });
});
