import { expect } from 'chai';
import { ExchangeError } from '../../src/core/errors.js';
import { BACKTEST_ACCOUNT } from '../../src/backtest/spot-sim-venue.js';
import { spotCrowdMaker } from '../../src/venue/market/crowd-accounts.js';
import { book, diff, kit, SYMBOL, trade } from './support/exchange-kit.js';

describe('simulated exchange: fill model', () => {
  it('fills_an_order_with_5_lots_ahead_only_after_5_lots_traded_at_its_price', async () => {
    const k = kit('neutral', { latency: { orderEntryMs: 0, cancelMs: 0, responseMs: 0 } });
    k.at(
      1_000,
      book(
        1_000,
        1,
        [
          [100, 5],
          [99, 10],
        ],
        [[102, 10]],
      ),
    );
    await k.place('buy', 100, 3); // joins the back of 100: 5 lots ahead
    k.at(1_001, trade(1_001, 'sell', 100, 4)); // 4 of the 5 ahead
    expect(k.fills()).to.deep.equal([]);
    k.at(1_002, trade(1_002, 'sell', 100, 1)); // the fifth: queue cleared, nothing for us yet
    expect(k.fills()).to.deep.equal([]);
    k.at(1_003, trade(1_003, 'sell', 100, 2)); // now ours: 2 of 3
    expect(k.fills()).to.deep.equal([['buy', 100, 2]]);
    k.at(1_004, trade(1_004, 'sell', 100, 5)); // the last lot; 4 lots of that print went elsewhere
    expect(k.fills()).to.deep.equal([
      ['buy', 100, 2],
      ['buy', 100, 1],
    ]);
    expect(k.exchange.restingCount).to.equal(0);
  });

  it('fills_at_once_from_the_front_of_the_queue_when_optimistic', async () => {
    const k = kit('optimistic');
    k.at(1_000, book(1_000, 1, [[100, 5]], [[102, 10]]));
    await k.place('buy', 100, 3);
    k.at(1_001, trade(1_001, 'sell', 100, 2));
    expect(k.fills()).to.deep.equal([['buy', 100, 2]]);
  });

  it('waits_behind_the_displayed_size_plus_half_when_pessimistic', async () => {
    const k = kit('pessimistic', { latency: { orderEntryMs: 0, cancelMs: 0, responseMs: 0 } });
    k.at(1_000, book(1_000, 1, [[100, 4]], [[102, 10]]));
    await k.place('buy', 100, 1); // ahead = ceil(4 · 1.5) = 6
    k.at(1_001, trade(1_001, 'sell', 100, 6));
    expect(k.fills()).to.deep.equal([]);
    k.at(1_002, trade(1_002, 'sell', 100, 1));
    expect(k.fills()).to.deep.equal([['buy', 100, 1]]);
  });

  it('fills_when_a_trade_goes_through_its_price', async () => {
    const k = kit('neutral', { latency: { orderEntryMs: 0, cancelMs: 0, responseMs: 0 } });
    k.at(1_000, book(1_000, 1, [[100, 50]], [[102, 10]]));
    await k.place('buy', 100, 3); // 50 ahead …
    k.at(1_001, trade(1_001, 'sell', 99, 2)); // … but a print at 99 means the level at 100 was gone
    expect(k.fills()).to.deep.equal([['buy', 100, 2]]); // neutral: at most the print's size
  });

  it('fills_when_the_recorded_book_crosses_its_price', async () => {
    const k = kit('neutral', { latency: { orderEntryMs: 0, cancelMs: 0, responseMs: 0 } });
    k.at(1_000, book(1_000, 1, [[100, 50]], [[102, 10]]));
    await k.place('buy', 101, 3);
    k.at(
      1_001,
      diff(
        1_001,
        2,
        [],
        [
          [101, 4],
          [102, 0],
        ],
      ),
    ); // the ask comes down to our bid
    expect(k.fills()).to.deep.equal([['buy', 101, 3]]);
  });

  it('moves_the_queue_up_when_the_level_is_cancelled_in_front', async () => {
    const k = kit('neutral', { latency: { orderEntryMs: 0, cancelMs: 0, responseMs: 0 } });
    k.at(1_000, book(1_000, 1, [[100, 10]], [[102, 10]]));
    await k.place('buy', 100, 2); // 10 ahead, 0 behind
    k.at(1_001, diff(1_001, 2, [[100, 4]], [])); // 6 cancelled, all of them ahead of us: 10 − 6·10/10 = 4
    k.at(1_002, trade(1_002, 'sell', 100, 5)); // 4 ahead, then 1 for us
    expect(k.fills()).to.deep.equal([['buy', 100, 1]]);
  });
});

describe('simulated exchange: what it keeps between calls', () => {
  it('follows_a_level_again_for_an_order_placed_after_the_last_one_left', async () => {
    const k = kit('neutral', { latency: { orderEntryMs: 0, cancelMs: 0, responseMs: 0 } });
    k.at(1_000, book(1_000, 1, [[100, 10]], [[102, 10]]));
    const first = await k.place('buy', 100, 2);
    await k.gateway.cancelOrder({ symbol: SYMBOL, clientOrderId: first.clientOrderId, venueOrderId: first.venueOrderId });
    expect(k.exchange.restingCount).to.equal(0);
    k.at(1_001, diff(1_001, 2, [[100, 8]], [])); // nobody of ours rests: nothing to follow
    await k.place('buy', 100, 2); // 8 ahead
    k.at(1_002, diff(1_002, 3, [[100, 4]], [])); // 4 cancelled, all ahead of us: 8 − 4·8/8 = 4
    k.at(1_003, trade(1_003, 'sell', 100, 5)); // 4 ahead, then 1 for us
    expect(k.fills()).to.deep.equal([['buy', 100, 1]]);
  });

  it('reports_balances_that_follow_our_orders_and_fills', async () => {
    const k = kit('neutral', { latency: { orderEntryMs: 0, cancelMs: 0, responseMs: 0 } });
    const fresh = (): Record<string, [string, string]> =>
      Object.fromEntries(k.venue.venue.balances(k.venue.account).map((b) => [b.asset, [b.free.toFixed(), b.locked.toFixed()]]));
    const reported = (): Record<string, [string, string]> =>
      Object.fromEntries(Object.values(k.venue.balances().balances).map((b) => [b.asset, [b.free.toFixed(), b.locked.toFixed()]]));
    k.at(1_000, book(1_000, 1, [[100, 1]], [[102, 10]]));
    expect(reported()).to.deep.equal(fresh());
    await k.place('buy', 100, 3); // locks 300 USDT
    expect(reported()).to.deep.equal(fresh());
    expect(reported().USDT).to.deep.equal(['999700', '300']);
    k.at(1_001, trade(1_001, 'sell', 100, 2)); // 1 ahead, then 1 for us
    expect(k.fills()).to.deep.equal([['buy', 100, 1]]);
    expect(reported()).to.deep.equal(fresh());
    expect(reported().USDT![1]).to.equal('200');
  });
});

describe('simulated exchange: taker orders', () => {
  it('walks_the_recorded_book_and_consumes_what_it_took', async () => {
    const k = kit('neutral', { latency: { orderEntryMs: 0, cancelMs: 0, responseMs: 0 } });
    k.at(
      1_000,
      book(
        1_000,
        1,
        [[98, 10]],
        [
          [100, 2],
          [101, 3],
          [103, 10],
        ],
      ),
    );
    await k.place('buy', 101, 4, 'ioc'); // 2 @ 100, 2 @ 101
    expect(k.fills()).to.deep.equal([
      ['buy', 100, 2],
      ['buy', 101, 2],
    ]);
    // The recording still shows 100 × 2 and 101 × 3, but we took them: 1 lot is left at 101.
    await k.place('buy', 101, 4, 'ioc');
    expect(k.fills().slice(2)).to.deep.equal([['buy', 101, 1]]);
    expect(k.market.instrument('TESTUSDT')!.book.visibleLots('sell', 101)).to.equal(0);
    // A new diff for 101 is the venue's word on that level again.
    k.at(1_001, diff(1_001, 2, [], [[101, 3]]));
    expect(k.market.instrument('TESTUSDT')!.book.visibleLots('sell', 101)).to.equal(3);
  });

  it('names_our_client_id_on_the_fills_an_order_takes_while_it_is_placed_and_on_later_maker_fills', async () => {
    // The record a user reads (fills.csv's clientOrderId): a taker's fills used to have none, as the client id
    // was only noted after the placement had already matched.
    const k = kit('neutral', { latency: { orderEntryMs: 0, cancelMs: 0, responseMs: 0 } });
    k.at(1_000, book(1_000, 1, [[98, 10]], [[100, 2]]));
    await k.place('buy', 100, 3, 'gtc', 'pptest_p_taker000001'); // takes 2 at once, rests 1
    k.at(1_001, trade(1_001, 'sell', 100, 1)); // the rest fills as a maker
    expect(k.venue.fills.map((f) => [f.liquidity, f.quantity.toNumber(), f.clientOrderId])).to.deep.equal([
      ['taker', 2, 'pptest_p_taker000001'],
      ['maker', 1, 'pptest_p_taker000001'],
    ]);
  });

  it('refuses_a_post_only_order_that_would_take', async () => {
    const k = kit('neutral', { latency: { orderEntryMs: 0, cancelMs: 0, responseMs: 0 } });
    k.at(1_000, book(1_000, 1, [[98, 10]], [[100, 2]]));
    let err: unknown;
    await k.place('buy', 100, 1, 'post-only').catch((e: unknown) => (err = e));
    // -2010 "Order would immediately match and take.", as the real client maps it
    expect(err).to.be.instanceOf(ExchangeError);
    expect((err as ExchangeError).venueCode).to.equal(-2010);
    expect(k.fills()).to.deep.equal([]);
  });

  it('takes_one_tick_worse_and_half_the_size_when_pessimistic', async () => {
    const k = kit('pessimistic', { latency: { orderEntryMs: 0, cancelMs: 0, responseMs: 0 } });
    k.at(
      1_000,
      book(
        1_000,
        1,
        [[98, 10]],
        [
          [100, 4],
          [101, 6],
        ],
      ),
    );
    // levels seen as 101 × 2 and 102 × 3; a limit of 102 takes 2 @ 101 and 3 @ 102, wants 6: 1 rests
    await k.place('buy', 102, 6);
    expect(k.fills()).to.deep.equal([
      ['buy', 101, 2],
      ['buy', 102, 3],
    ]);
  });
});

describe('simulated exchange: latency', () => {
  it('puts_an_order_sent_at_t_on_the_book_at_t_plus_the_entry_latency', async () => {
    const k = kit('neutral', { queue: 'front', latency: { orderEntryMs: 100, cancelMs: 100, responseMs: 30 } });
    k.at(1_000, book(1_000, 1, [[100, 5]], [[102, 10]]));
    let acked = false;
    const ack = k.place('buy', 100, 3).then((a) => ((acked = true), a));
    expect(k.exchange.nextDueAt()).to.equal(1_100);
    k.at(1_099, trade(1_099, 'sell', 100, 2)); // not at the venue yet
    expect(k.fills()).to.deep.equal([]);
    k.at(1_100, trade(1_100, 'sell', 100, 2)); // the order arrived at 1100, before this print
    expect(k.fills()).to.deep.equal([['buy', 100, 2]]);
    await Promise.resolve();
    expect(acked).to.equal(false); // the answer is on its way back: 1100 + 30
    k.at(1_130);
    const a = await ack;
    expect(a.time).to.equal(1_100);
  });

  it('lets_a_fill_beat_a_cancel_still_on_its_way', async () => {
    const k = kit('optimistic', { latency: { orderEntryMs: 0, cancelMs: 50, responseMs: 0 } });
    k.at(1_000, book(1_000, 1, [[100, 5]], [[102, 10]]));
    const ack = await k.place('buy', 100, 3);
    const cancel = k.gateway.cancelOrder({ symbol: 'TESTUSDT' as never, clientOrderId: ack.clientOrderId, venueOrderId: ack.venueOrderId });
    k.at(1_020, trade(1_020, 'sell', 100, 3)); // fills before the cancel lands at 1050
    k.at(1_050);
    let err: unknown;
    await cancel.catch((e: unknown) => (err = e));
    expect(k.fills()).to.deep.equal([['buy', 100, 3]]);
    expect((err as Error).name).to.equal('OrderNotFound');
  });
});

describe('simulated exchange: memory over a long run', () => {
  const DAY = 86_400_000;
  const all = (k: ReturnType<typeof kit>, account: string) => k.venue.venue.allOrders(account, SYMBOL, { startTime: 0, limit: 1000 });

  it('forgets_a_crowd_level_taken_whole_and_keeps_one_partly_taken_until_cancelled', async () => {
    const k = kit('neutral', { latency: { orderEntryMs: 0, cancelMs: 0, responseMs: 0 } });
    k.at(1_000, book(1_000, 1, [[100, 5]], [[102, 10]]));
    // The whole recorded ask (10 at 102) is laid as a crowd order and taken whole.
    await k.place('buy', 102, 10, 'ioc');
    expect(k.fills()).to.deep.equal([['buy', 102, 10]]);
    expect(k.venue.crowdOrdersTracked, 'a level taken whole').to.equal(0);
    // A level taken in part is cancelled by the exchange, and forgotten with it.
    k.at(2_000, book(2_000, 2, [[100, 5]], [[103, 10]]));
    await k.place('buy', 103, 4, 'ioc');
    expect(k.venue.crowdOrdersTracked, 'a level taken in part').to.equal(0);
  });

  it('drops_closed_crowd_orders_at_the_sweep_and_ours_after_a_day', async () => {
    const k = kit('neutral', { latency: { orderEntryMs: 0, cancelMs: 0, responseMs: 0 } });
    k.at(1_000, book(1_000, 1, [[100, 5]], [[102, 10]]));
    await k.place('buy', 102, 4, 'ioc');
    const crowd = spotCrowdMaker(SYMBOL);
    expect(all(k, crowd), 'the crowd order laid for our taker, now closed').to.have.length(1);
    expect(all(k, BACKTEST_ACCOUNT)).to.have.length(1);
    // The sweep runs every 20,000 commands; called here directly at the times that matter.
    k.at(1_001);
    k.venue.venue.pruneHistory();
    expect(all(k, crowd), 'the crowd keeps no closed order').to.have.length(0);
    expect(all(k, BACKTEST_ACCOUNT), 'ours, a millisecond later').to.have.length(1);
    k.at(1_000 + DAY);
    k.venue.venue.pruneHistory();
    expect(all(k, BACKTEST_ACCOUNT), 'ours, a day later').to.have.length(1);
    k.at(1_001 + DAY);
    k.venue.venue.pruneHistory();
    expect(all(k, BACKTEST_ACCOUNT), 'ours, past a day').to.have.length(0);
  });
});
