import { expect } from 'chai';
import { allocateTradeAtPrice, initialAhead, onDepthChange, type QueuedOrder } from '../../src/backtest/queue-position.js';
import { FILL_MODEL_PRESETS } from '../../src/backtest/fill-model.js';

const order = (ahead: number, remaining: number): QueuedOrder => ({ ahead, remaining, tradedSinceDepth: 0 });

describe('queue position', () => {
  it('starts_behind_the_displayed_size_per_model', () => {
    // displayed 10 lots: front → 0; displayed → 10; back-plus with extra 0.5 → ceil(10 · 1.5) = 15
    expect(initialAhead(FILL_MODEL_PRESETS.optimistic, 10)).to.equal(0);
    expect(initialAhead(FILL_MODEL_PRESETS.neutral, 10)).to.equal(10);
    expect(initialAhead(FILL_MODEL_PRESETS.pessimistic, 10)).to.equal(15);
  });

  it('fills_only_after_the_lots_ahead_traded', () => {
    const o = order(5, 3);
    // 4 lots trade: all eaten by the 5 ahead → no fill, 1 lot still ahead
    expect(allocateTradeAtPrice([o], 4)).to.deep.equal([0]);
    expect(o.ahead).to.equal(1);
    // 3 more: 1 clears the queue, 2 fill us
    expect(allocateTradeAtPrice([o], 3)).to.deep.equal([2]);
    expect(o.ahead).to.equal(0);
  });

  it('serves_two_orders_at_one_price_in_time_order', () => {
    // first: 2 crowd lots ahead, wants 3; second: 6 ahead (the same 2 + 4 that joined later), wants 5
    const a = order(2, 3);
    const b = order(6, 5);
    // 10 lots: 2 crowd → a gets 3 → 4 crowd (6 − 2 already taken) → b gets the last 1
    expect(allocateTradeAtPrice([a, b], 10)).to.deep.equal([3, 1]);
    expect(a.ahead).to.equal(0);
    expect(b.ahead).to.equal(0);
  });

  it('shares_cancellations_in_proportion_for_displayed_queues', () => {
    const o = order(6, 2);
    // level 10 → 5 with 1 lot traded: 4 cancelled; 6 of the 10 were ahead → 6 − 4·6/10 = 3.6 → 4
    o.tradedSinceDepth = 1;
    onDepthChange(o, FILL_MODEL_PRESETS.neutral, 10, 5);
    expect(o.ahead).to.equal(4);
    expect(o.tradedSinceDepth).to.equal(0);
  });

  it('never_moves_a_back_plus_queue_on_cancellations', () => {
    const o = order(15, 2);
    // pessimistic: level 10 → 8, all cancellations; only the cap ceil(8 · 1.5) = 12 applies
    onDepthChange(o, FILL_MODEL_PRESETS.pessimistic, 10, 8);
    expect(o.ahead).to.equal(12);
    const p = order(9, 2);
    onDepthChange(p, FILL_MODEL_PRESETS.pessimistic, 10, 8);
    expect(p.ahead).to.equal(9);
  });

  it('caps_the_queue_at_a_level_that_grew_behind_us', () => {
    const o = order(3, 1);
    // level 4 → 9: newcomers join behind; ahead stays 3
    onDepthChange(o, FILL_MODEL_PRESETS.neutral, 4, 9);
    expect(o.ahead).to.equal(3);
  });
});
