import { expect } from 'chai';
import { D } from '../../../src/core/decimal.js';
import type { Intent } from '../../../src/domain/intent.js';
import type { MarketSnapshot } from '../../../src/domain/snapshot.js';
import { avellanedaStoikov, IntensityEstimator, onTick, VolatilityEstimator } from '../../../strategies/avellaneda-stoikov.js';
import { PerpAsMaker, perpAsMakerParams } from '../../../strategies/perp-as-maker.js';
import { BTC_USDT, contractInstrument, position, S1, snapshot } from '../../domain/support/builders.js';
import { PlainState, started } from './strategy-kit.js';

type Quotes = Extract<Intent, { kind: 'desired-quotes' }>;
const shown = (intents: readonly Intent[]): string[] =>
  (intents[0] as Quotes).quotes.map((q) => `${q.slot} ${q.side} ${q.price.toFixed()} ${q.quantity.toFixed()} ${q.timeInForce}`);
const NOW = 1_000_000;
// Two snapshots give one σ² observation (taken as it is), and k stays at its prior (no trades): worked values below.
const params = (over: Record<string, unknown> = {}) =>
  perpAsMakerParams.parse({ size: '10', maxInventory: '30', gamma: 0.1, horizonSeconds: 10, priorK: 1.5, warmupSamples: 1, ...over });
const book = (mid: number, pollTime: number, extra: Partial<MarketSnapshot> = {}): MarketSnapshot => ({
  ...snapshot(BTC_USDT, { bids: [[mid - 0.1, 100]], asks: [[mid + 0.1, 100]], pollTime }),
  ...extra,
});

async function maker(state: PlainState, over: Record<string, unknown> = {}) {
  state.instruments = [contractInstrument()];
  const { runner, startIntents } = await started(S1, new PerpAsMaker(params(over), [BTC_USDT]), state, NOW);
  return { runner, startIntents };
}

describe('Avellaneda–Stoikov arithmetic', () => {
  it('computes_the_reservation_price_and_spread', () => {
    // γσ²τ = 0.1·0.5·10 = 0.5; r = 100 − 2·0.5 = 99; δ = 0.5 + (2/0.1)·ln(1 + 0.1/1.5) = 0.5 + 20·0.0645385 = 1.7907704
    const x = avellanedaStoikov({ mid: 100, q: 2, gamma: 0.1, sigma2: 0.5, horizonSec: 10, k: 1.5, fundingShift: 0 });
    expect(x.reservation).to.be.closeTo(99, 1e-12);
    expect(x.spread).to.be.closeTo(1.7907704, 1e-7);
    expect(x.bid).to.be.closeTo(98.1046148, 1e-7);
    expect(x.ask).to.be.closeTo(99.8953852, 1e-7);
  });

  it('estimates_the_variance_per_second_with_exponential_forgetting', () => {
    const v = new VolatilityEstimator(2);
    v.add(0, 100);
    v.add(1000, 101); // (1)²/1 s = 1: the first observation
    v.add(3000, 99); // (−2)²/2 s = 2, weight 1 − 0.5^(2/2) = 0.5 → 1 + 0.5·(2 − 1) = 1.5
    expect(v.variancePerSec).to.be.closeTo(1.5, 1e-12);
    expect(v.samples).to.equal(2);
  });

  it('estimates_k_as_one_over_the_mean_trade_depth', () => {
    // prior k 0.5 → mean depth 2; a trade 4 from the mid with half-life 1 trade: 2 + 0.5·(4 − 2) = 3 → k = 1/3
    const k = new IntensityEstimator(1, 0.5, 0.1);
    k.addTrade(104, 100);
    expect(k.k).to.be.closeTo(1 / 3, 1e-12);
    // a trade at the mid (depth 0): 3 + 0.5·(0 − 3) = 1.5 → k = 1/1.5 (the one-tick floor applies to the mean only)
    k.addTrade(100, 100);
    expect(k.k).to.be.closeTo(1 / 1.5, 1e-12);
  });

  it('rounds_quotes_away_from_the_reservation_price', () => {
    expect(onTick(99.854615, D('0.1'), 'down').toFixed()).to.equal('99.8');
    expect(onTick(102.145385, D('0.1'), 'up').toFixed()).to.equal('102.2');
    expect(onTick(99.8, D('0.1'), 'down').toFixed()).to.equal('99.8');
  });
});

describe('PerpAsMaker', () => {
  it('sets_one_way_mode_and_leverage_at_start_and_waits_for_the_volatility_estimate', async () => {
    const { runner, startIntents } = await maker(new PlainState());
    expect(startIntents.map((i) => i.kind)).to.deep.equal(['set-position-mode', 'set-leverage']);
    // the first snapshot gives no Δmid yet
    expect(runner.onSnapshot(book(100, 0))).to.deep.equal([]);
  });

  it('quotes_around_the_mid_when_flat', async () => {
    const { runner } = await maker(new PlainState());
    runner.onSnapshot(book(100, 0));
    // σ² = 1²/1 s = 1; γσ²τ = 1; r = 101; δ = 1 + 20·ln(16/15) = 2.2907704; bid 99.854615 → 99.8, ask 102.145385 → 102.2
    expect(shown(runner.onSnapshot(book(101, 1000)))).to.deep.equal(['b0 buy 99.8 10 post-only', 'a0 sell 102.2 10 post-only']);
  });

  it('skews_against_the_inventory_and_never_prices_through_the_book', async () => {
    const state = new PlainState();
    state.positionList = [position(BTC_USDT, '20', '100')];
    const { runner } = await maker(state);
    runner.onSnapshot(book(100, 0));
    // q = 20/10 = 2: r = 101 − 2·1 = 99; bid 97.854615 → 97.8; ask 100.145385 → 100.2 would cross the bid 100.9:
    // post-only would be refused, so it rests one tick over the best bid, 101.0
    expect(shown(runner.onSnapshot(book(101, 1000)))).to.deep.equal(['b0 buy 97.8 10 post-only', 'a0 sell 101 10 post-only']);
  });

  it('withdraws_the_side_that_would_pass_the_inventory_limit', async () => {
    const state = new PlainState();
    state.positionList = [position(BTC_USDT, '-30', '100')];
    const { runner } = await maker(state);
    runner.onSnapshot(book(100, 0));
    // q = −3: r = 104, bid 102.854615 → 102.8 would cross the ask 101.1 → 101.0; no ask at −maxInventory
    expect(shown(runner.onSnapshot(book(101, 1000)))).to.deep.equal(['b0 buy 101 10 post-only']);
  });

  it('moves_the_quotes_down_before_a_settlement_longs_pay', async () => {
    const { runner } = await maker(new PlainState());
    runner.onSnapshot(book(100, 0));
    // 10 min before settlement, rate 0.1 %: shift 0.001·101 = 0.101 → r = 100.899; bid 99.753615 → 99.7, ask 102.044385 → 102.1
    const soon = { fundingRate: { rate: D('0.001'), nextSettleTime: NOW + 10 * 60_000 } };
    expect(shown(runner.onSnapshot(book(101, 1000, soon)))).to.deep.equal(['b0 buy 99.7 10 post-only', 'a0 sell 102.1 10 post-only']);
  });

  it('asks_for_hedged_mode_and_quotes_opening_legs_when_flat', async () => {
    const { runner, startIntents } = await maker(new PlainState(), { positionMode: 'hedged' });
    expect(startIntents.map((i) => (i.kind === 'set-position-mode' ? `mode ${i.mode}` : i.kind))).to.deep.equal([
      'mode hedged',
      'set-leverage',
    ]);
    runner.onSnapshot(book(100, 0));
    // The same prices as one-way when flat (q = 0); the bid opens a long, the ask a short.
    const intents = runner.onSnapshot(book(101, 1000));
    expect(shown(intents)).to.deep.equal(['b0 buy 99.8 10 post-only', 'a0 sell 102.2 10 post-only']);
    expect((intents[0] as Quotes).quotes.map((q) => q.positionSide)).to.deep.equal(['long', 'short']);
  });

  it('closes_the_opposite_leg_first_in_hedged_mode_and_skews_by_the_net_of_both_legs', async () => {
    const state = new PlainState();
    state.positionList = [position(BTC_USDT, '20', '100', 'long'), position(BTC_USDT, '-10', '100', 'short')];
    const { runner } = await maker(state, { positionMode: 'hedged' });
    runner.onSnapshot(book(100, 0));
    // q = (20 − 10)/10 = 1: r = 101 − 1·1 = 100; δ/2 = 1.1453852: bid 98.8546148 → 98.8, ask 101.1453852 → 101.2.
    // The bid buys the short leg back (it holds a lot), the ask sells the long leg: gross exposure falls.
    const intents = runner.onSnapshot(book(101, 1000));
    expect(shown(intents)).to.deep.equal(['b0 buy 98.8 10 post-only', 'a0 sell 101.2 10 post-only']);
    expect((intents[0] as Quotes).quotes.map((q) => q.positionSide)).to.deep.equal(['short', 'long']);
  });

  it('ignores_funding_outside_the_window', async () => {
    const { runner } = await maker(new PlainState());
    runner.onSnapshot(book(100, 0));
    const later = { fundingRate: { rate: D('0.001'), nextSettleTime: NOW + 60 * 60_000 } };
    expect(shown(runner.onSnapshot(book(101, 1000, later)))).to.deep.equal(['b0 buy 99.8 10 post-only', 'a0 sell 102.2 10 post-only']);
  });
});
