import { expect } from 'chai';
import { D } from '../../../src/core/decimal.js';
import { clientOrderId } from '../../../src/core/ids.js';
import type { Intent } from '../../../src/domain/intent.js';
import { SpotMarketMaker, spotMarketMakerParams } from '../../../strategies/spot-market-maker.js';
import { BTCUSDT, order, position, S1, snapshot, spotInstrument } from '../../domain/support/builders.js';
import { PlainState, started } from './strategy-kit.js';

const params = (over: Record<string, unknown> = {}) =>
  spotMarketMakerParams.parse({ orderSize: '0.001', maxInventory: '0.01', spreadBps: 10, skewBps: 5, requoteBps: 2, ...over });
// bid 99990 / ask 100010: mid 100000
const book = (bid: number, ask: number) => snapshot(BTCUSDT, { bids: [[bid, 1]], asks: [[ask, 1]], last: (bid + ask) / 2 });

async function maker(state: PlainState, over: Record<string, unknown> = {}) {
  state.instruments = [spotInstrument()];
  return (await started(S1, new SpotMarketMaker(params(over)), state)).runner;
}

const quote = (slot: string, side: 'buy' | 'sell', price: string) =>
  order({
    symbol: BTCUSDT,
    slot,
    side,
    price: D(price),
    quantity: D('0.001'),
    status: 'accepted',
    clientOrderId: clientOrderId(`c-${slot}`),
  });

describe('SpotMarketMaker', () => {
  it('declares_a_bid_and_an_ask_around_the_mid_as_desired_quotes', async () => {
    const runner = await maker(new PlainState());
    const [intent, ...rest] = runner.onSnapshot(book(99990, 100010));
    expect(rest).to.deep.equal([]);
    expect(intent!.kind).to.equal('desired-quotes');
    const quotes = (intent as Extract<Intent, { kind: 'desired-quotes' }>).quotes.map(
      (q) => `${q.slot} ${q.side} ${q.price.toFixed()} ${q.timeInForce}`,
    );
    // ±5 bp of 100000
    expect(quotes).to.deep.equal(['b0 buy 99950 post-only', 'a0 sell 100050 post-only']);
  });

  it('amends_resting_quotes_whose_target_moved_more_than_requote_bps', async () => {
    const state = new PlainState();
    state.orders = [quote('b0', 'buy', '99950'), quote('a0', 'sell', '100050')];
    const runner = await maker(state);
    // mid 100030: targets 100030 × 0.9995 = 99979.985 → 99979.98 and 100030 × 1.0005 = 100080.015 → 100080.02;
    // each is 29.98 / 100030 × 10⁴ ≈ 3.0 bp from its order, over the 2 bp threshold
    const intents = runner.onSnapshot(book(100020, 100040));
    expect(intents.map((i) => (i.kind === 'amend' ? `${i.clientOrderId} ${i.price!.toFixed()}` : i.kind))).to.deep.equal([
      'c-b0 99979.98',
      'c-a0 100080.02',
    ]);
  });

  it('leaves_quotes_alone_when_the_target_moved_less_than_requote_bps', async () => {
    const state = new PlainState();
    state.orders = [quote('b0', 'buy', '99950'), quote('a0', 'sell', '100050')];
    const runner = await maker(state);
    // mid 100010: bid target 99959.99, 9.99 / 100010 × 10⁴ ≈ 1.0 bp away
    expect(runner.onSnapshot(book(100000, 100020))).to.deep.equal([]);
  });

  it('waits_while_a_request_is_in_flight', async () => {
    const state = new PlainState();
    state.orders = [{ ...quote('b0', 'buy', '99950'), status: 'submitted' }];
    const runner = await maker(state);
    expect(runner.onSnapshot(book(100020, 100040))).to.deep.equal([]);
  });

  it('pulls_its_quotes_when_the_book_has_no_mid', async () => {
    const state = new PlainState();
    state.orders = [quote('b0', 'buy', '99950')];
    const runner = await maker(state);
    const [intent] = runner.onSnapshot(snapshot(BTCUSDT, { bids: [[99990, 1]] }));
    expect(intent).to.include({ kind: 'desired-quotes' });
    expect((intent as Extract<Intent, { kind: 'desired-quotes' }>).quotes).to.deep.equal([]);
  });

  it('unwinds_a_large_inventory_with_one_order_that_it_chases_once_accepted', async () => {
    const state = new PlainState();
    state.positionList = [position(BTCUSDT, '0.008', '99000')];
    const runner = await maker(state, { unwind: { atFraction: 0.8, capBps: 20, maxReprices: 7 } });
    // 0.008 ≥ 0.8 × 0.01: quotes pulled, one sell of the inventory at the best ask
    const [intent] = runner.onSnapshot(book(99990, 100010));
    const quotes = (intent as Extract<Intent, { kind: 'desired-quotes' }>).quotes.map(
      (q) => `${q.slot} ${q.side} ${q.price.toFixed()} ${q.quantity.toFixed()}`,
    );
    expect(quotes).to.deep.equal(['u sell 100010 0.008']);
    const unwind = order({
      symbol: BTCUSDT,
      slot: 'u',
      side: 'sell',
      price: D(100010),
      quantity: D('0.008'),
      status: 'accepted',
      clientOrderId: clientOrderId('c-u'),
    });
    state.orders = [unwind];
    const chase = runner.onExecution({
      type: 'OrderAccepted',
      ts: 0,
      strategyId: S1,
      clientOrderId: unwind.clientOrderId,
      symbol: BTCUSDT,
      venueOrderId: 'v1' as never,
    });
    // cap: never sell below mid × (1 − 20 bp) = 99800
    expect(chase).to.have.length(1);
    expect(chase[0]).to.include({ kind: 'chase', clientOrderId: 'c-u', maxReprices: 7 });
    expect((chase[0] as Extract<Intent, { kind: 'chase' }>).priceCap!.toFixed()).to.equal('99800');
  });

  it('rejects_params_with_resume_above_the_unwind_threshold', () => {
    const r = spotMarketMakerParams.safeParse({
      orderSize: '0.001',
      maxInventory: '0.01',
      unwind: { atFraction: 0.3, resumeFraction: 0.5 },
    });
    expect(r.success).to.equal(false);
  });
});
