import { expect } from 'chai';
import { extremesInOrder, intraBarPath, pathPrices, syntheticBook } from '../../src/backtest/intra-bar-path.js';

describe('intra-bar path', () => {
  it('visits_the_nearer_extreme_first', () => {
    // open 100, high 110, low 97: the low is 3 away, the high 10 → low first
    expect(extremesInOrder(100, 110, 97, 105)).to.deep.equal([97, 110]);
    // open 100, high 102, low 90: the high is nearer
    expect(extremesInOrder(100, 102, 90, 95)).to.deep.equal([102, 90]);
    // a tie goes low first on an up bar, high first on a down bar
    expect(extremesInOrder(100, 105, 95, 101)).to.deep.equal([95, 105]);
    expect(extremesInOrder(100, 105, 95, 99)).to.deep.equal([105, 95]);
  });

  it('walks_open_extreme_extreme_close_in_steps', () => {
    expect(pathPrices({ open: 100, high: 110, low: 97, close: 105 })).to.deep.equal([100, 97, 110, 105]);
    // two steps per leg: 100 → 98.5≈99 → 97 → 103.5≈104 → 110 → 107.5≈108 → 105 (Math.round)
    expect(pathPrices({ open: 100, high: 110, low: 97, close: 105 }, 2)).to.deep.equal([100, 99, 97, 104, 110, 108, 105]);
  });

  it('spreads_the_points_over_the_bar_and_keeps_its_volume', () => {
    const pts = intraBarPath('spot:X', { openTime: 60_000, closeTime: 120_000, open: 100, high: 110, low: 97, close: 105, volumeLots: 10 });
    // 4 points over [60000, 119999]: 60000, 60000 + 59999/3 = 79999.67 → 79999, 99999, 119999
    expect(pts.map((p) => p.et)).to.deep.equal([60_000, 79_999, 99_999, 119_999]);
    // 10 lots / 4 = 2 each, the remaining 2 on the close
    expect(pts.map((p) => p.lots)).to.deep.equal([2, 2, 2, 4]);
    // falling to the low sells, rising to the high and back down: buy then sell; the open takes the first move's side
    expect(pts.map((p) => p.takerSide)).to.deep.equal(['sell', 'sell', 'buy', 'sell']);
  });

  it('lays_the_book_on_the_side_the_taker_hits', () => {
    const up = syntheticBook({ priceTicks: 100, takerSide: 'buy', levels: 2, levelLots: 5 });
    expect(up).to.deep.equal({
      bids: [
        [99, 5],
        [98, 5],
      ],
      asks: [
        [100, 5],
        [101, 5],
      ],
    });
    const down = syntheticBook({ priceTicks: 100, takerSide: 'sell', levels: 2, levelLots: 5 });
    expect(down).to.deep.equal({
      bids: [
        [100, 5],
        [99, 5],
      ],
      asks: [
        [101, 5],
        [102, 5],
      ],
    });
  });
});
