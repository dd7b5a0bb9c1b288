import { expect } from 'chai';
import { D } from '../../../src/core/decimal.js';
import { clientOrderId } from '../../../src/core/ids.js';
import type { Intent } from '../../../src/domain/intent.js';
import type { Order } from '../../../src/domain/order.js';
import { gridLines, intervalQuantities, reanchoredBounds } from '../../../strategies/grid-levels.js';
import { SpotGrid, spotGridParams } from '../../../strategies/spot-grid.js';
import { BTCUSDT, fill, order, S1, snapshot, spotInstrument } from '../../domain/support/builders.js';
import { PlainState, started } from './strategy-kit.js';

const params = (over: Record<string, unknown> = {}) =>
  spotGridParams.parse({ lower: '99000', upper: '101000', levels: 5, totalInvestment: '4000', ...over });
const book = (bid: number, ask: number) => snapshot(BTCUSDT, { bids: [[bid, 1]], asks: [[ask, 1]] });
type Quotes = Extract<Intent, { kind: 'desired-quotes' }>;
const shown = (intents: readonly Intent[]): string[] =>
  (intents[0] as Quotes).quotes.map((q) => `${q.slot} ${q.side} ${q.price.toFixed()} ${q.quantity.toFixed()}`);

async function grid(state: PlainState, over: Record<string, unknown> = {}) {
  state.instruments = [spotInstrument()];
  const strategy = new SpotGrid(params(over));
  return { strategy, runner: (await started(S1, strategy, state)).runner };
}

/** The order behind a slot, as the order manager would hold it after a complete fill. */
const filled = (slot: string, side: 'buy' | 'sell', price: string, qty: string, fees: Record<string, string> = {}): Order =>
  order({
    symbol: BTCUSDT,
    slot,
    side,
    price: D(price),
    quantity: D(qty),
    filledQty: D(qty),
    avgFillPrice: D(price),
    status: 'filled',
    clientOrderId: clientOrderId(`c-${slot}-${price}`),
    fees: Object.fromEntries(Object.entries(fees).map(([k, v]) => [k, D(v)])),
  });
const filledEvent = (o: Order) => ({
  type: 'OrderFilled' as const,
  ts: 0,
  strategyId: S1,
  clientOrderId: o.clientOrderId,
  symbol: BTCUSDT,
  fill: fill(o, o.filledQty, o.avgFillPrice!),
});

describe('grid levels', () => {
  it('spaces_arithmetic_lines_evenly', () => {
    // (101000 − 99000) / 4 = 500
    expect(gridLines(D(99000), D(101000), 5, 'arithmetic', D('0.01')).map((d) => d.toFixed())).to.deep.equal([
      '99000',
      '99500',
      '100000',
      '100500',
      '101000',
    ]);
  });

  it('spaces_geometric_lines_by_a_constant_ratio', () => {
    // 100 · 4^(k/4) = 100, 141.421356…, 200, 282.842712…, 400; lines below the middle round down, above it up
    expect(gridLines(D(100), D(400), 5, 'geometric', D('0.01')).map((d) => d.toFixed())).to.deep.equal([
      '100',
      '141.42',
      '200',
      '282.85',
      '400',
    ]);
  });

  it('refuses_levels_that_round_onto_the_same_tick', () => {
    expect(() => gridLines(D('100'), D('100.02'), 5, 'arithmetic', D('0.01'))).to.throw(
      /levels: expected a count whose lines stay a tick apart/,
    );
  });

  it('gives_every_interval_the_same_share_of_the_budget', () => {
    // 4000 / 4 intervals = 1000 USDT each: 1000 / 99000 = 0.01010101… → 0.010101 (step 1e-6), 1000 / 100500 → 0.00995
    const q = intervalQuantities([D(99000), D(99500), D(100000), D(100500), D(101000)], D(4000), D('0.000001'));
    expect(q.map((d) => d.toFixed())).to.deep.equal(['0.010101', '0.01005', '0.01', '0.00995']);
    // the buys never spend more than the budget: 999.999 + 999.975 + 1000 + 999.975 ≤ 4000
    expect(q.reduce((s, x, i) => s.plus(x.mul([99000, 99500, 100000, 100500][i]!)), D(0)).lte(4000)).to.equal(true);
  });

  it('re_centres_the_bounds_on_the_mid', () => {
    expect(reanchoredBounds(D(99000), D(101000), D(98000), 'arithmetic')).to.deep.equal({ lower: D(97000), upper: D(99000) });
    // ratio 4 → half-ratio 2 around 300: 150 … 600
    const g = reanchoredBounds(D(100), D(400), D(300), 'geometric');
    expect([g.lower.toFixed(), g.upper.toFixed()]).to.deep.equal(['150', '600']);
  });
});

describe('SpotGrid', () => {
  it('refuses_a_lower_bound_at_or_above_the_upper_one', () => {
    const r = spotGridParams.safeParse({ lower: '101000', upper: '99000', totalInvestment: '1000' });
    expect(r.success).to.equal(false);
    expect(r.error!.issues[0]!.path).to.deep.equal(['lower']);
  });

  it('starts_with_buys_below_the_market_only', async () => {
    const { runner } = await grid(new PlainState());
    // mid 100250: lines 99000, 99500, 100000 are below the ask 100260 (buys of intervals 0–2); interval 3's buy
    // at 100500 is above the ask and would take: it waits until the market rises past it
    const out = runner.onSnapshot(book(100240, 100260));
    expect(shown(out)).to.deep.equal(['b0 buy 99000 0.010101', 'b1 buy 99500 0.01005', 'b2 buy 100000 0.01']);
    expect((out[0] as Quotes).quotes.every((q) => q.timeInForce === 'post-only')).to.equal(true);
  });

  it('re_places_a_filled_buy_as_a_sell_one_level_up_and_books_the_round_trip', async () => {
    const state = new PlainState();
    const { strategy, runner } = await grid(state);
    runner.onSnapshot(book(100240, 100260));
    // interval 1 bought 0.01005 at 99500, paying 0.5 USDT fee
    const buy = filled('b1', 'buy', '99500', '0.01005', { USDT: '0.5' });
    state.orders = [buy];
    runner.onExecution(filledEvent(buy));
    state.orders = [];
    // market at 99700: the sell of interval 1 rests at 100000 (one level up); intervals 0 and 2 keep buying
    expect(shown(runner.onSnapshot(book(99690, 99710)))).to.deep.equal(['b0 buy 99000 0.010101', 's1 sell 100000 0.01005']);
    const sell = filled('s1', 'sell', '100000', '0.01005', { USDT: '0.5' });
    state.orders = [sell];
    runner.onExecution(filledEvent(sell));
    // profit = 0.01005 × (100000 − 99500) − 0.5 − 0.5 = 5.025 − 1 = 4.025
    expect(strategy.report()).to.include({ 'BTCUSDT.gridProfit': '4.0250', 'BTCUSDT.roundTrips': '1', 'BTCUSDT.inventoryBase': '0' });
    state.orders = [];
    // and the buy of interval 1 is back
    expect(shown(runner.onSnapshot(book(100240, 100260)))).to.deep.equal([
      'b0 buy 99000 0.010101',
      'b1 buy 99500 0.01005',
      'b2 buy 100000 0.01',
    ]);
  });

  it('sells_what_arrived_when_the_fee_was_taken_in_base', async () => {
    const state = new PlainState();
    const { runner } = await grid(state);
    runner.onSnapshot(book(100240, 100260));
    const buy = filled('b2', 'buy', '100000', '0.01', { BTC: '0.00001' });
    state.orders = [buy];
    runner.onExecution(filledEvent(buy));
    state.orders = [];
    // 0.01 − 0.00001 = 0.00999 to sell at 100500
    expect(shown(runner.onSnapshot(book(100240, 100260)))).to.include('s2 sell 100500 0.00999');
  });

  it('reports_the_inventory_pnl_apart_from_the_grid_profit', async () => {
    const state = new PlainState();
    const { strategy, runner } = await grid(state);
    runner.onSnapshot(book(100240, 100260));
    const buy = filled('b2', 'buy', '100000', '0.01');
    state.orders = [buy];
    runner.onExecution(filledEvent(buy));
    state.orders = [];
    runner.onSnapshot(book(99790, 99810));
    // 0.01 BTC bought for 1000 USDT, worth 0.01 × 99800 = 998 at the mid: −2; nothing realised
    expect(strategy.report()).to.include({
      'BTCUSDT.gridProfit': '0.0000',
      'BTCUSDT.inventoryBase': '0.01',
      'BTCUSDT.inventoryPnl': '-2.0000',
    });
  });

  it('declares_what_is_left_of_a_partly_filled_order', async () => {
    const state = new PlainState();
    const { runner } = await grid(state);
    state.orders = [
      order({
        symbol: BTCUSDT,
        slot: 'b0',
        side: 'buy',
        price: D(99000),
        quantity: D('0.010101'),
        filledQty: D('0.004'),
        status: 'partially-filled',
      }),
    ];
    expect(shown(runner.onSnapshot(book(100240, 100260)))).to.include('b0 buy 99000 0.006101');
  });

  it('pulls_every_order_and_stops_at_the_bounds_when_asked', async () => {
    const state = new PlainState();
    const { strategy, runner } = await grid(state, { atBounds: 'stop' });
    runner.onSnapshot(book(100240, 100260));
    const out = runner.onSnapshot(book(98890, 98910));
    expect(shown(out)).to.deep.equal([]);
    expect(runner.onSnapshot(book(100240, 100260))).to.deep.equal([]);
    expect(strategy.report()['BTCUSDT.bounds']).to.equal('99000-101000 (stopped)');
  });

  it('waits_outside_the_bounds_by_default', async () => {
    const state = new PlainState();
    const { runner } = await grid(state);
    // mid 98900 is below the grid: every buy still rests (all below the ask)
    expect(shown(runner.onSnapshot(book(98890, 98910)))).to.deep.equal([]);
    expect(shown(runner.onSnapshot(book(101090, 101110)))).to.deep.equal([
      'b0 buy 99000 0.010101',
      'b1 buy 99500 0.01005',
      'b2 buy 100000 0.01',
      'b3 buy 100500 0.00995',
    ]);
  });

  it('re_anchors_on_the_mid_and_sells_the_base_it_holds_on_the_new_lines_above', async () => {
    const state = new PlainState();
    const { strategy, runner } = await grid(state, { atBounds: 'reanchor' });
    runner.onSnapshot(book(100240, 100260));
    // interval 0 bought 0.010101 at 99000 (cost 999.999), then the mid fell to 98000, under the lower bound
    const buy = filled('b0', 'buy', '99000', '0.010101');
    state.orders = [buy];
    runner.onExecution(filledEvent(buy));
    state.orders = [];
    const out = runner.onSnapshot(book(97990, 98010));
    // new bounds 97000–99000 (same 2000 width), lines 97000, 97500, 98000, 98500, 99000. Buys of 1000 USDT each:
    // 1000/97000 = 0.010309, 1000/97500 = 0.010256, 1000/98000 = 0.010204, 1000/98500 = 0.010152.
    // The 0.010101 BTC held covers no new interval's quantity (all larger), so it stays loose inventory.
    expect(shown(out)).to.deep.equal(['b0 buy 97000 0.010309', 'b1 buy 97500 0.010256', 'b2 buy 98000 0.010204']);
    expect(strategy.report()).to.include({
      'BTCUSDT.reanchors': '1',
      'BTCUSDT.bounds': '97000-99000',
      'BTCUSDT.inventoryBase': '0.010101',
    });
  });

  it('re_anchored_base_becomes_a_sell_when_it_covers_an_interval', async () => {
    const state = new PlainState();
    // a grid of 3 lines 99000 / 100000 / 101000, 2000 USDT: intervals of 1000 USDT
    const { strategy, runner } = await grid(state, { atBounds: 'reanchor', levels: 3, totalInvestment: '2000' });
    runner.onSnapshot(book(100490, 100510));
    for (const [slot, price, qty] of [
      ['b0', '99000', '0.010101'],
      ['b1', '100000', '0.01'],
    ] as const) {
      const buy = filled(slot, 'buy', price, qty);
      state.orders = [buy];
      runner.onExecution(filledEvent(buy));
    }
    state.orders = [];
    // mid 102000 is above: new bounds 101000–103000, lines 101000, 102000, 103000; quantities 1000/101000 = 0.009900,
    // 1000/102000 = 0.009803. Held 0.020101 BTC (cost 1999.999, 99.4974… per BTC): interval 1 (above the mid) sells
    // 0.009803 at 103000; the rest, 0.010298, stays loose. Interval 0 buys at 101000.
    expect(shown(runner.onSnapshot(book(101990, 102010)))).to.deep.equal(['b0 buy 101000 0.0099', 's1 sell 103000 0.009803']);
    expect(strategy.report()).to.include({ 'BTCUSDT.inventoryBase': '0.020101' });
  });
});
