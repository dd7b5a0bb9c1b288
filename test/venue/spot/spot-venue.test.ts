import { expect } from 'chai';
import type { SpotOrderType, SpotSide, SpotStpMode } from '../../../src/domain/spot-enums.js';
import type { SpotVenueEvent } from '../../../src/venue/spot/spot-events.js';
import type { SpotOrderView } from '../../../src/venue/spot/spot-order.js';
import type { SpotOrderRequest, SpotPlaceViewResult, SpotVenue } from '../../../src/venue/spot/spot-venue.js';
import { btcUsdt, fund, harness, str } from './spot-fixtures.js';

const SYMBOL = 'BTCUSDT';

function place(
  venue: SpotVenue,
  accountId: string,
  side: SpotSide,
  type: SpotOrderType,
  extra: Partial<SpotOrderRequest> = {},
): SpotPlaceViewResult {
  return venue.placeOrder({ accountId, symbol: SYMBOL, side, type, ...extra });
}

function limit(
  venue: SpotVenue,
  accountId: string,
  side: SpotSide,
  quantity: string,
  price: string,
  extra: Partial<SpotOrderRequest> = {},
): SpotOrderView {
  const r = place(venue, accountId, side, 'LIMIT', { quantity, price, ...extra });
  if (!r.ok) throw new Error(`unexpected rejection ${r.code} ${r.msg}`);
  return r.order;
}

function ok(r: SpotPlaceViewResult): SpotOrderView {
  if (!r.ok) throw new Error(`unexpected rejection ${r.code} ${r.msg}`);
  return r.order;
}

function bal(venue: SpotVenue, account: string, asset: string): [string, string] {
  const b = venue.balance(account, asset);
  return [str(b.free), str(b.locked)];
}

function view(venue: SpotVenue, account: string, orderId: string): SpotOrderView {
  const r = venue.getOrder(account, SYMBOL, { orderId });
  if (!r.ok) throw new Error(`order ${orderId} not found`);
  return venue.orderView(r.order);
}

function expectClean(venue: SpotVenue): void {
  expect(venue.checkInvariants()).to.deep.equal([]);
}

describe('SpotVenue', () => {
  describe('limit orders', () => {
    it('rests_a_non_crossing_limit_and_locks_price_times_qty', () => {
      const { venue } = harness();
      fund(venue, 'alice');
      // 1.2345 × 99.99 = 123.437655 USDT locked; 1000 − 123.437655 = 876.562345 free
      const o = limit(venue, 'alice', 'BUY', '1.2345', '99.99');
      expect(o.status).to.equal('NEW');
      expect(o.isWorking).to.equal(true);
      expect(str(o.origQuoteOrderQty)).to.equal('123.437655');
      expect(bal(venue, 'alice', 'USDT')).to.deep.equal(['876.562345', '123.437655']);
      expectClean(venue);
    });

    it('fills_partially_across_levels_with_fees_in_the_received_asset', () => {
      const { venue } = harness();
      fund(venue, 'alice', 'bob', 'carol');
      const bob = limit(venue, 'bob', 'SELL', '0.5', '100');
      const carol = limit(venue, 'carol', 'SELL', '1', '101');
      const alice = limit(venue, 'alice', 'BUY', '1.2', '101');
      // fills: 0.5 @ 100 = 50; 0.7 @ 101 = 70.7 → cummulativeQuoteQty 120.7
      expect(alice.status).to.equal('FILLED');
      expect(str(alice.executedQty)).to.equal('1.2');
      expect(str(alice.cummulativeQuoteQty)).to.equal('120.7');
      // alice locked 1.2 × 101 = 121.2, paid 120.7, got 0.5 back (0.5 × (101 − 100)) → 1000 − 120.7
      expect(bal(venue, 'alice', 'USDT')).to.deep.equal(['879.3', '0']);
      // taker fee 0.2 % of base received: 0.5·0.002 + 0.7·0.002 = 0.0024 → 10 + 1.2 − 0.0024
      expect(bal(venue, 'alice', 'BTC')).to.deep.equal(['11.1976', '0']);
      // bob maker fee 0.1 % of 50 = 0.05 → 1049.95; his 0.5 BTC lock is spent → 9.5 free
      expect(bal(venue, 'bob', 'USDT')).to.deep.equal(['1049.95', '0']);
      expect(bal(venue, 'bob', 'BTC')).to.deep.equal(['9.5', '0']);
      expect(view(venue, 'bob', bob.orderId).status).to.equal('FILLED');
      // carol: 70.7 − 0.0707 = 70.6293 → 1070.6293; 0.3 BTC still locked for the rest of her order
      expect(bal(venue, 'carol', 'USDT')).to.deep.equal(['1070.6293', '0']);
      expect(bal(venue, 'carol', 'BTC')).to.deep.equal(['9', '0.3']);
      const c = view(venue, 'carol', carol.orderId);
      expect([c.status, str(c.executedQty), str(c.cummulativeQuoteQty)]).to.deep.equal(['PARTIALLY_FILLED', '0.7', '70.7']);
      expect(venue.ledger.feesCollected('BTC')).to.equal(2_400_000_000_000_000n); // 0.0024 · 10^18
      expect(venue.ledger.feesCollected('USDT')).to.equal(120_700_000_000_000_000n); // 0.1207 · 10^18
      expect(str(venue.lastPrice(SYMBOL)!)).to.equal('101');
      expectClean(venue);
    });

    it('records_own_trades_for_both_sides', () => {
      const { venue } = harness();
      fund(venue, 'alice', 'bob');
      const bob = limit(venue, 'bob', 'SELL', '0.5', '100', { newClientOrderId: 'bob-1' });
      const alice = limit(venue, 'alice', 'BUY', '0.5', '100', { newClientOrderId: 'alice-1' });
      const [a] = venue.myTrades('alice', SYMBOL).map((t) => venue.ownTradeView(t));
      const [b] = venue.myTrades('bob', SYMBOL).map((t) => venue.ownTradeView(t));
      expect(a!.id).to.equal(b!.id);
      // alice: taker buyer, fee 0.5 · 0.002 = 0.001 BTC; bob: maker seller, fee 50 · 0.001 = 0.05 USDT
      expect([
        a!.orderId,
        str(a!.price),
        str(a!.qty),
        str(a!.quoteQty),
        str(a!.commission),
        a!.commissionAsset,
        a!.isBuyer,
        a!.isMaker,
        a!.isSelfTrade,
        a!.clientOrderId,
      ]).to.deep.equal([alice.orderId, '100', '0.5', '50', '0.001', 'BTC', true, false, false, 'alice-1']);
      expect([b!.orderId, str(b!.commission), b!.commissionAsset, b!.isBuyer, b!.isMaker, b!.clientOrderId]).to.deep.equal([
        bob.orderId,
        '0.05',
        'USDT',
        false,
        true,
        'bob-1',
      ]);
    });

    it('gives_a_taker_sell_the_better_maker_price', () => {
      const { venue } = harness();
      fund(venue, 'alice', 'bob');
      limit(venue, 'bob', 'BUY', '1', '101');
      const o = limit(venue, 'alice', 'SELL', '1', '100');
      // fills at the maker's 101: alice receives 101 − 0.2 % (0.202) = 100.798
      expect(str(o.cummulativeQuoteQty)).to.equal('101');
      expect(bal(venue, 'alice', 'USDT')).to.deep.equal(['1100.798', '0']);
      expect(bal(venue, 'alice', 'BTC')).to.deep.equal(['9', '0']);
      expectClean(venue);
    });

    it('rests_the_remainder_of_a_crossing_limit_as_partially_filled', () => {
      const { venue } = harness();
      fund(venue, 'alice', 'bob');
      limit(venue, 'bob', 'SELL', '0.5', '100');
      const o = limit(venue, 'alice', 'BUY', '2', '100');
      expect([o.status, str(o.executedQty), o.isWorking]).to.deep.equal(['PARTIALLY_FILLED', '0.5', true]);
      // still holds 1.5 × 100 = 150 for the rest: 1000 − 50 paid − 150 locked = 800 free
      expect(bal(venue, 'alice', 'USDT')).to.deep.equal(['800', '150']);
      expect(venue.openOrders('alice').map((x) => x.orderId)).to.deep.equal([o.orderId]);
      expectClean(venue);
    });
  });

  describe('cancel', () => {
    it('releases_the_lock_exactly_on_cancel', () => {
      const { venue } = harness();
      fund(venue, 'alice');
      const o = limit(venue, 'alice', 'BUY', '1.2345', '99.99');
      const r = venue.cancelOrder('alice', SYMBOL, { orderId: o.orderId });
      expect(r.ok).to.equal(true);
      const c = view(venue, 'alice', o.orderId);
      expect([c.status, c.cancelReason, c.isWorking]).to.deep.equal(['CANCELED', '', false]);
      expect(bal(venue, 'alice', 'USDT')).to.deep.equal(['1000', '0']);
      expect(venue.book(SYMBOL)!.size).to.equal(0);
      expectClean(venue);
    });

    it('ends_a_partially_filled_order_partially_canceled', () => {
      const { venue } = harness();
      fund(venue, 'alice', 'bob');
      const o = limit(venue, 'alice', 'BUY', '2', '100');
      limit(venue, 'bob', 'SELL', '0.5', '100');
      // alice is maker: fee 0.1 % of 0.5 BTC = 0.0005 → 10.4995 BTC; paid 50, 150 still locked
      expect(bal(venue, 'alice', 'USDT')).to.deep.equal(['800', '150']);
      expect(bal(venue, 'alice', 'BTC')).to.deep.equal(['10.4995', '0']);
      venue.cancelOrder('alice', SYMBOL, { clientOrderId: undefined, orderId: o.orderId });
      expect(view(venue, 'alice', o.orderId).status).to.equal('PARTIALLY_CANCELED');
      expect(bal(venue, 'alice', 'USDT')).to.deep.equal(['950', '0']);
      // bob is taker: 50 − 0.2 % (0.1) = 49.9
      expect(bal(venue, 'bob', 'USDT')).to.deep.equal(['1049.9', '0']);
      expectClean(venue);
    });

    it('cancels_by_client_order_id', () => {
      const { venue } = harness();
      fund(venue, 'alice');
      const o = limit(venue, 'alice', 'SELL', '1', '120', { newClientOrderId: 'c-1' });
      const r = venue.cancelOrder('alice', SYMBOL, { clientOrderId: 'c-1' });
      expect(r.ok && r.order.orderId).to.equal(o.orderId);
      expect(bal(venue, 'alice', 'BTC')).to.deep.equal(['10', '0']);
    });

    it('cancels_all_open_orders_of_one_symbol_only', () => {
      const { venue } = harness({}, [btcUsdt(), btcUsdt({ symbol: 'ETHUSDT' as never, baseAsset: 'ETH' })]);
      fund(venue, 'alice');
      limit(venue, 'alice', 'BUY', '1', '90');
      limit(venue, 'alice', 'BUY', '1', '91');
      const eth = ok(venue.placeOrder({ accountId: 'alice', symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '10' }));
      const r = venue.cancelAllOrders('alice', SYMBOL);
      expect(r.ok && r.orders.map((o) => o.status)).to.deep.equal(['CANCELED', 'CANCELED']);
      expect(venue.openOrders('alice').map((o) => o.orderId)).to.deep.equal([eth.orderId]);
      // only the ETH order's 10 USDT stays locked
      expect(bal(venue, 'alice', 'USDT')).to.deep.equal(['990', '10']);
      expectClean(venue);
    });

    it('rejects_cancel_of_unknown_or_closed_orders_with_minus_2011', () => {
      const { venue } = harness();
      fund(venue, 'alice', 'bob');
      expect(venue.cancelOrder('alice', SYMBOL, { orderId: 'nope' })).to.deep.include({ ok: false, code: -2011 });
      const o = limit(venue, 'alice', 'BUY', '1', '100');
      limit(venue, 'bob', 'SELL', '1', '100');
      expect(venue.cancelOrder('alice', SYMBOL, { orderId: o.orderId })).to.deep.include({ ok: false, code: -2011 });
      // another account cannot cancel it either
      const p = limit(venue, 'alice', 'BUY', '1', '99');
      expect(venue.cancelOrder('bob', SYMBOL, { orderId: p.orderId })).to.deep.include({ ok: false, code: -2011 });
      expect(venue.cancelOrder('alice', SYMBOL, {})).to.deep.include({ ok: false, code: 700004 });
    });
  });

  describe('market orders', () => {
    it('buys_by_quote_amount_and_fills_when_the_rest_cannot_buy_a_step', () => {
      const { venue } = harness();
      fund(venue, 'alice', 'bob', 'carol');
      limit(venue, 'bob', 'SELL', '0.5', '100');
      limit(venue, 'carol', 'SELL', '1', '101');
      const o = ok(place(venue, 'alice', 'BUY', 'MARKET', { quoteOrderQty: '100' }));
      // 0.5 @ 100 = 50; 50 left buys floor(50 / (101 · 0.0001)) = 4950 steps = 0.495 @ 101 = 49.995;
      // 0.005 left < 0.0101 (one step at 101) → FILLED
      expect([o.status, str(o.executedQty), str(o.origQty), str(o.cummulativeQuoteQty), str(o.origQuoteOrderQty)]).to.deep.equal([
        'FILLED',
        '0.995',
        '0.995',
        '99.995',
        '100',
      ]);
      expect(bal(venue, 'alice', 'USDT')).to.deep.equal(['900.005', '0']);
      // fee 0.2 % of 0.995 = 0.00199 → 10 + 0.995 − 0.00199
      expect(bal(venue, 'alice', 'BTC')).to.deep.equal(['10.99301', '0']);
      expectClean(venue);
    });

    it('ends_a_quote_buy_partially_canceled_when_liquidity_runs_out', () => {
      const { venue } = harness();
      fund(venue, 'alice', 'bob');
      limit(venue, 'bob', 'SELL', '0.5', '100');
      const o = ok(place(venue, 'alice', 'BUY', 'MARKET', { quoteOrderQty: '80' }));
      // 50 spent, 30 left and the asks are gone
      expect([o.status, str(o.executedQty), str(o.cummulativeQuoteQty)]).to.deep.equal(['PARTIALLY_CANCELED', '0.5', '50']);
      expect(bal(venue, 'alice', 'USDT')).to.deep.equal(['950', '0']);
      expectClean(venue);
    });

    it('sells_by_quote_amount', () => {
      const { venue } = harness();
      fund(venue, 'alice', 'bob', 'carol');
      limit(venue, 'bob', 'BUY', '1', '100');
      limit(venue, 'carol', 'BUY', '1', '99');
      const o = ok(place(venue, 'alice', 'SELL', 'MARKET', { quoteOrderQty: '150' }));
      // 1 @ 100 = 100; 50 left → floor(50 / 0.0099) = 5050 steps = 0.505 @ 99 = 49.995; 0.005 left → FILLED
      expect([o.status, str(o.executedQty), str(o.cummulativeQuoteQty)]).to.deep.equal(['FILLED', '1.505', '149.995']);
      // fee 0.2 % of 149.995 = 0.29999 → 1000 + 149.995 − 0.29999
      expect(bal(venue, 'alice', 'USDT')).to.deep.equal(['1149.69501', '0']);
      expect(bal(venue, 'alice', 'BTC')).to.deep.equal(['8.495', '0']);
      expectClean(venue);
    });

    it('ends_a_market_buy_by_quantity_partially_canceled_when_the_book_is_thin', () => {
      const { venue } = harness();
      fund(venue, 'alice', 'bob');
      limit(venue, 'bob', 'SELL', '0.5', '100');
      const o = ok(place(venue, 'alice', 'BUY', 'MARKET', { quantity: '1' }));
      expect([o.status, str(o.executedQty), str(o.origQty), str(o.price)]).to.deep.equal(['PARTIALLY_CANCELED', '0.5', '1', '0']);
      expect(bal(venue, 'alice', 'USDT')).to.deep.equal(['950', '0']);
      expectClean(venue);
    });

    it('cancels_a_market_order_that_finds_no_liquidity', () => {
      const { venue } = harness();
      fund(venue, 'alice');
      const o = ok(place(venue, 'alice', 'SELL', 'MARKET', { quantity: '1' }));
      expect([o.status, str(o.executedQty)]).to.deep.equal(['CANCELED', '0']);
      expect(bal(venue, 'alice', 'BTC')).to.deep.equal(['10', '0']);
    });

    it('refuses_a_market_buy_whose_cost_exceeds_the_free_quote', () => {
      const { venue } = harness();
      fund(venue, 'alice', 'bob');
      venue.deposit('bob', 'BTC', '20');
      limit(venue, 'bob', 'SELL', '20', '100');
      // 20 × 100 = 2000 > 1000 free
      expect(place(venue, 'alice', 'BUY', 'MARKET', { quantity: '20' })).to.deep.include({ ok: false, code: 10101 });
      // 10 × 100 = 1000: exactly affordable
      expect(ok(place(venue, 'alice', 'BUY', 'MARKET', { quantity: '10' })).status).to.equal('FILLED');
      expect(bal(venue, 'alice', 'USDT')).to.deep.equal(['0', '0']);
      expectClean(venue);
    });
  });

  describe('time in force types', () => {
    it('rejects_a_limit_maker_that_would_take', () => {
      const { venue } = harness();
      fund(venue, 'alice', 'bob');
      limit(venue, 'bob', 'SELL', '1', '100');
      expect(place(venue, 'alice', 'BUY', 'LIMIT_MAKER', { quantity: '1', price: '100' })).to.deep.include({ ok: false, code: -2010 });
      expect(bal(venue, 'alice', 'USDT')).to.deep.equal(['1000', '0']);
      const o = ok(place(venue, 'alice', 'BUY', 'LIMIT_MAKER', { quantity: '1', price: '99.99' }));
      expect([o.status, o.isWorking]).to.deep.equal(['NEW', true]);
      expectClean(venue);
    });

    it('kills_a_fill_or_kill_that_cannot_fill_completely_without_any_fill', () => {
      const { venue } = harness();
      fund(venue, 'alice', 'bob');
      limit(venue, 'bob', 'SELL', '0.5', '100');
      const o = ok(place(venue, 'alice', 'BUY', 'FILL_OR_KILL', { quantity: '1', price: '100' }));
      expect([o.status, str(o.executedQty)]).to.deep.equal(['CANCELED', '0']);
      expect(venue.myTrades('alice', SYMBOL)).to.have.length(0);
      expect(venue.book(SYMBOL)!.bestAskLots()).to.equal(5000);
      expect(bal(venue, 'alice', 'USDT')).to.deep.equal(['1000', '0']);
      const f = ok(place(venue, 'alice', 'BUY', 'FILL_OR_KILL', { quantity: '0.5', price: '100' }));
      expect(f.status).to.equal('FILLED');
      expectClean(venue);
    });

    it('cancels_the_remainder_of_an_immediate_or_cancel', () => {
      const { venue } = harness();
      fund(venue, 'alice', 'bob');
      limit(venue, 'bob', 'SELL', '0.5', '100');
      limit(venue, 'bob', 'SELL', '0.5', '100.5');
      const o = ok(place(venue, 'alice', 'BUY', 'IMMEDIATE_OR_CANCEL', { quantity: '1', price: '100' }));
      expect([o.status, str(o.executedQty), o.isWorking]).to.deep.equal(['PARTIALLY_CANCELED', '0.5', false]);
      // locked 100 for the whole order; 50 paid, the other 50 released
      expect(bal(venue, 'alice', 'USDT')).to.deep.equal(['950', '0']);
      expect(venue.openOrders('alice')).to.have.length(0);
      const none = ok(place(venue, 'alice', 'BUY', 'IMMEDIATE_OR_CANCEL', { quantity: '1', price: '100' }));
      expect(none.status).to.equal('CANCELED');
      expectClean(venue);
    });
  });

  describe('self-trade prevention', () => {
    function stp(mode: SpotStpMode, grouped = true) {
      const h = harness();
      fund(h.venue, 'a1', 'a2', 'x');
      if (grouped) {
        h.venue.stpGroups.join('a1', 'G');
        h.venue.stpGroups.join('a2', 'G');
      }
      const maker = limit(h.venue, 'a1', 'SELL', '1', '100');
      const taker = ok(place(h.venue, 'a2', 'BUY', 'LIMIT', { quantity: '1', price: '100', stpMode: mode }));
      return { ...h, maker: view(h.venue, 'a1', maker.orderId), taker };
    }

    it('cancels_the_maker_with_cancel_maker', () => {
      const { venue, maker, taker } = stp('cancel_maker');
      expect([maker.status, maker.cancelReason]).to.deep.equal(['CANCELED', 'stp_cancel']);
      expect([taker.status, taker.isWorking]).to.deep.equal(['NEW', true]);
      expect(bal(venue, 'a1', 'BTC')).to.deep.equal(['10', '0']);
      expectClean(venue);
    });

    it('cancels_the_taker_with_cancel_taker', () => {
      const { venue, maker, taker } = stp('cancel_taker');
      expect([maker.status, maker.isWorking]).to.deep.equal(['NEW', true]);
      expect([taker.status, taker.cancelReason]).to.deep.equal(['CANCELED', 'stp_cancel']);
      expect(bal(venue, 'a2', 'USDT')).to.deep.equal(['1000', '0']);
      expectClean(venue);
    });

    it('cancels_both_with_cancel_both', () => {
      const { venue, maker, taker } = stp('cancel_both');
      expect([maker.status, maker.cancelReason, taker.status, taker.cancelReason]).to.deep.equal([
        'CANCELED',
        'stp_cancel',
        'CANCELED',
        'stp_cancel',
      ]);
      expect(venue.book(SYMBOL)!.size).to.equal(0);
      expectClean(venue);
    });

    it('trades_when_stp_mode_is_empty_even_inside_a_group', () => {
      const { maker, taker } = stp('');
      expect([maker.status, taker.status]).to.deep.equal(['FILLED', 'FILLED']);
    });

    it('trades_when_the_accounts_share_no_group', () => {
      const { maker, taker } = stp('cancel_both', false);
      expect([maker.status, taker.status]).to.deep.equal(['FILLED', 'FILLED']);
    });

    it('flags_a_self_trade_of_an_account_outside_any_group', () => {
      const { venue } = harness();
      fund(venue, 'a1');
      limit(venue, 'a1', 'SELL', '1', '100');
      limit(venue, 'a1', 'BUY', '1', '100', { stpMode: 'cancel_maker' });
      const trades = venue.myTrades('a1', SYMBOL).map((t) => [t.isSelfTrade, t.isMaker, t.isBuyer]);
      expect(trades).to.deep.equal([
        [true, true, false],
        [true, false, true],
      ]);
      // maker 0.1 % of 100 USDT = 0.1 and taker 0.2 % of 1 BTC = 0.002 are still charged
      expect(bal(venue, 'a1', 'USDT')).to.deep.equal(['999.9', '0']);
      expect(bal(venue, 'a1', 'BTC')).to.deep.equal(['9.998', '0']);
      expectClean(venue);
    });

    it('keeps_trading_against_others_after_removing_own_makers', () => {
      const { venue } = harness();
      fund(venue, 'a1', 'a2', 'x');
      venue.stpGroups.join('a1', 'G');
      venue.stpGroups.join('a2', 'G');
      limit(venue, 'a1', 'SELL', '0.5', '100');
      limit(venue, 'x', 'SELL', '0.5', '100');
      const t = ok(place(venue, 'a2', 'BUY', 'IMMEDIATE_OR_CANCEL', { quantity: '1', price: '100', stpMode: 'cancel_maker' }));
      // own 0.5 removed, 0.5 bought from x, rest cancelled
      expect([t.status, str(t.executedQty)]).to.deep.equal(['PARTIALLY_CANCELED', '0.5']);
      expect(venue.openOrders('a1')).to.have.length(0);
      expectClean(venue);
    });

    it('uses_a_pluggable_group_predicate', () => {
      const { venue } = harness({ sameStpGroup: (a, b) => a.startsWith('desk-') && b.startsWith('desk-') });
      fund(venue, 'desk-1', 'desk-2');
      const m = limit(venue, 'desk-1', 'SELL', '1', '100');
      limit(venue, 'desk-2', 'BUY', '1', '100', { stpMode: 'cancel_maker' });
      expect(view(venue, 'desk-1', m.orderId).cancelReason).to.equal('stp_cancel');
    });
  });

  describe('rejections', () => {
    const reject = (r: SpotPlaceViewResult | { ok: boolean }) => (r.ok ? 'accepted' : (r as { code: number }).code);

    it('rejects_an_unknown_symbol_with_minus_1121', () => {
      const { venue } = harness();
      fund(venue, 'a');
      expect(
        reject(venue.placeOrder({ accountId: 'a', symbol: 'NOPEUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '1' })),
      ).to.equal(-1121);
    });

    it('rejects_a_symbol_not_tradable_through_the_api_with_10007', () => {
      const { venue } = harness({}, [btcUsdt({ apiTradable: false })]);
      fund(venue, 'a');
      expect(reject(place(venue, 'a', 'BUY', 'LIMIT', { quantity: '1', price: '100' }))).to.equal(10007);
    });

    it('rejects_a_paused_or_closed_symbol_with_30016', () => {
      for (const instr of [btcUsdt({ status: '2' }), btcUsdt({ tradeSideType: 4 })]) {
        const { venue } = harness({}, [instr]);
        fund(venue, 'a');
        expect(reject(place(venue, 'a', 'BUY', 'LIMIT', { quantity: '1', price: '100' }))).to.equal(30016);
      }
    });

    it('rejects_a_side_the_symbol_does_not_allow_with_30001', () => {
      const { venue } = harness({}, [btcUsdt({ tradeSideType: 2 })]);
      fund(venue, 'a');
      expect(reject(place(venue, 'a', 'SELL', 'LIMIT', { quantity: '1', price: '100' }))).to.equal(30001);
      expect(reject(place(venue, 'a', 'BUY', 'LIMIT', { quantity: '1', price: '100' }))).to.equal('accepted');
    });

    it('rejects_order_types_the_symbol_does_not_offer', () => {
      const { venue } = harness({}, [btcUsdt({ orderTypes: ['LIMIT'] })]);
      fund(venue, 'a');
      expect(reject(place(venue, 'a', 'BUY', 'MARKET', { quantity: '1' }))).to.equal(30019);
      expect(reject(place(venue, 'a', 'BUY', 'LIMIT_MAKER', { quantity: '1', price: '100' }))).to.equal(30041);
      expect(reject(place(venue, 'a', 'BUY', 'IMMEDIATE_OR_CANCEL', { quantity: '1', price: '100' }))).to.equal('accepted');
    });

    it('rejects_missing_or_conflicting_parameters', () => {
      const { venue } = harness();
      fund(venue, 'a');
      expect(reject(place(venue, 'a', 'BUY', 'LIMIT', { quantity: '1' }))).to.equal(700004);
      expect(reject(place(venue, 'a', 'BUY', 'LIMIT', { price: '100' }))).to.equal(700004);
      expect(reject(place(venue, 'a', 'BUY', 'LIMIT', { quantity: '0', price: '100' }))).to.equal(700004);
      expect(reject(place(venue, 'a', 'BUY', 'LIMIT', { quantity: 'abc', price: '100' }))).to.equal(700004);
      expect(reject(place(venue, 'a', 'BUY', 'MARKET', {}))).to.equal(700004);
      expect(reject(place(venue, 'a', 'BUY', 'MARKET', { quantity: '1', quoteOrderQty: '100' }))).to.equal(-1128);
      expect(reject(place(venue, 'a', 'BUY', 'LIMIT', { quantity: '1', price: '100', stpMode: 'bogus' as SpotStpMode }))).to.equal(-1128);
    });

    it('rejects_price_off_tick_quantity_off_step_and_amount_off_scale_with_400', () => {
      const { venue } = harness();
      fund(venue, 'a');
      const p = place(venue, 'a', 'BUY', 'LIMIT', { quantity: '1', price: '100.001' });
      expect(p).to.deep.include({ ok: false, code: 400, msg: 'price scale is invalid' });
      const q = place(venue, 'a', 'BUY', 'LIMIT', { quantity: '1.00001', price: '100' });
      expect(q).to.deep.include({ ok: false, code: 400, msg: 'quantity scale is invalid' });
      const a = place(venue, 'a', 'BUY', 'MARKET', { quoteOrderQty: '10.001' });
      expect(a).to.deep.include({ ok: false, code: 400, msg: 'amount scale is invalid' });
    });

    it('rejects_below_minimum_quantity_or_amount_with_30002', () => {
      const { venue } = harness({}, [btcUsdt({ minQuantity: btcUsdt().step.mul(10) })]);
      fund(venue, 'a');
      // min quantity 0.001: 0.0009 refused
      expect(reject(place(venue, 'a', 'BUY', 'LIMIT', { quantity: '0.0009', price: '10000' }))).to.equal(30002);
      // 0.001 × 999.99 = 0.99999 < 1 USDT minimum
      expect(reject(place(venue, 'a', 'BUY', 'LIMIT', { quantity: '0.001', price: '999.99' }))).to.equal(30002);
      expect(reject(place(venue, 'a', 'BUY', 'LIMIT', { quantity: '0.001', price: '1000' }))).to.equal('accepted');
      expect(reject(place(venue, 'a', 'BUY', 'MARKET', { quoteOrderQty: '0.99' }))).to.equal(30002);
    });

    it('rejects_above_maximum_amount_with_30003', () => {
      const { venue } = harness();
      fund(venue, 'a');
      venue.deposit('a', 'USDT', '5000000');
      // 10001 × 100 = 1 000 100 > 1 000 000
      expect(reject(place(venue, 'a', 'BUY', 'LIMIT', { quantity: '10001', price: '100' }))).to.equal(30003);
      expect(reject(place(venue, 'a', 'BUY', 'MARKET', { quoteOrderQty: '1000000.01' }))).to.equal(30003);
    });

    it('rejects_prices_outside_the_fractional_percent_price_band_with_30087', () => {
      const band = { bidMultiplierUp: btcUsdt().step.mul(50), askMultiplierDown: btcUsdt().step.mul(50) }; // 0.005
      const { venue } = harness({}, [btcUsdt({ percentPriceBySide: band })]);
      fund(venue, 'a');
      // no last price yet: nothing to compare with
      expect(reject(place(venue, 'a', 'BUY', 'LIMIT', { quantity: '0.1', price: '200' }))).to.equal('accepted');
      venue.cancelAllOrders('a', SYMBOL);
      venue.setReferencePrice(SYMBOL, '100');
      // buy ≤ 100 · 1.005 = 100.5; sell ≥ 100 · 0.995 = 99.5
      expect(reject(place(venue, 'a', 'BUY', 'LIMIT', { quantity: '0.1', price: '100.51' }))).to.equal(30087);
      expect(reject(place(venue, 'a', 'BUY', 'LIMIT', { quantity: '0.1', price: '100.5' }))).to.equal('accepted');
      venue.cancelAllOrders('a', SYMBOL);
      expect(reject(place(venue, 'a', 'SELL', 'IMMEDIATE_OR_CANCEL', { quantity: '0.1', price: '99.49' }))).to.equal(30087);
      expect(reject(place(venue, 'a', 'SELL', 'FILL_OR_KILL', { quantity: '0.1', price: '99.5' }))).to.equal('accepted');
      // LIMIT_MAKER and MARKET are not subject to the band (spec names LIMIT, IOC, FOK)
      expect(reject(place(venue, 'a', 'BUY', 'LIMIT_MAKER', { quantity: '0.1', price: '99' }))).to.equal('accepted');
    });

    it('applies_multipliers_of_one_or_more_literally', () => {
      const { venue } = harness({}, [
        btcUsdt({ percentPriceBySide: { bidMultiplierUp: btcUsdt().step.mul(11000), askMultiplierDown: btcUsdt().step.mul(10000) } }),
      ]);
      fund(venue, 'a');
      venue.setReferencePrice(SYMBOL, '100');
      // bid multiplier 1.1: buy ≤ 110; ask multiplier 1: sell ≥ 100
      expect(reject(place(venue, 'a', 'BUY', 'LIMIT', { quantity: '0.1', price: '110.01' }))).to.equal(30087);
      expect(reject(place(venue, 'a', 'BUY', 'LIMIT', { quantity: '0.1', price: '99' }))).to.equal('accepted');
      expect(reject(place(venue, 'a', 'SELL', 'LIMIT', { quantity: '0.1', price: '99.99' }))).to.equal(30087);
      expect(reject(place(venue, 'a', 'SELL', 'LIMIT', { quantity: '0.1', price: '100' }))).to.equal('accepted');
    });

    it('rejects_a_buy_without_funds_with_10101_and_a_sell_without_base_with_30005', () => {
      const { venue } = harness();
      fund(venue, 'a');
      // 10.01 × 100 = 1001 > 1000
      expect(reject(place(venue, 'a', 'BUY', 'LIMIT', { quantity: '10.01', price: '100' }))).to.equal(10101);
      expect(reject(place(venue, 'a', 'SELL', 'LIMIT', { quantity: '10.0001', price: '100' }))).to.equal(30005);
      expect(reject(place(venue, 'a', 'BUY', 'MARKET', { quoteOrderQty: '1000.01' }))).to.equal(10101);
      expect(reject(place(venue, 'nobody', 'BUY', 'LIMIT', { quantity: '1', price: '100' }))).to.equal(10101);
      expectClean(venue);
    });

    it('rejects_the_501st_open_order_with_30029', () => {
      const { venue } = harness();
      fund(venue, 'a', 'b');
      // 500 × (0.01 × 100) = 500 USDT locked
      for (let i = 0; i < 500; i++) limit(venue, 'a', 'BUY', '0.01', '100');
      expect(reject(place(venue, 'a', 'BUY', 'LIMIT', { quantity: '0.01', price: '100' }))).to.equal(30029);
      // an order that never rests is not capped
      limit(venue, 'b', 'SELL', '0.01', '101');
      expect(reject(place(venue, 'a', 'BUY', 'IMMEDIATE_OR_CANCEL', { quantity: '0.01', price: '101' }))).to.equal('accepted');
      expectClean(venue);
    });

    it('rejects_a_client_id_already_used_by_an_open_order', () => {
      const { venue } = harness();
      fund(venue, 'a', 'b');
      const first = limit(venue, 'a', 'BUY', '1', '100', { newClientOrderId: 'x' });
      expect(place(venue, 'a', 'BUY', 'LIMIT', { quantity: '1', price: '99', newClientOrderId: 'x' })).to.deep.include({
        ok: false,
        code: -2010,
      });
      // another account may use it
      expect(reject(place(venue, 'b', 'BUY', 'LIMIT', { quantity: '1', price: '99', newClientOrderId: 'x' }))).to.equal('accepted');
      venue.cancelOrder('a', SYMBOL, { orderId: first.orderId });
      const second = limit(venue, 'a', 'BUY', '1', '98', { newClientOrderId: 'x' });
      const q = venue.getOrder('a', SYMBOL, { clientOrderId: 'x' });
      expect(q.ok && q.order.orderId).to.equal(second.orderId);
    });

    it('answers_queries_for_unknown_orders_with_minus_2013', () => {
      const { venue } = harness();
      fund(venue, 'a', 'b');
      const o = limit(venue, 'a', 'BUY', '1', '100');
      expect(venue.getOrder('a', SYMBOL, { orderId: 'zzz' })).to.deep.include({ ok: false, code: -2013 });
      expect(venue.getOrder('b', SYMBOL, { orderId: o.orderId })).to.deep.include({ ok: false, code: -2013 });
      expect(venue.getOrder('a', SYMBOL, {})).to.deep.include({ ok: false, code: 700004 });
      expect(venue.getOrder('a', 'NOPE', { orderId: o.orderId })).to.deep.include({ ok: false, code: -1121 });
    });

    it('validates_without_changing_anything_in_test_order', () => {
      const { venue } = harness();
      fund(venue, 'a');
      expect(venue.testOrder({ accountId: 'a', symbol: SYMBOL, side: 'BUY', type: 'LIMIT', quantity: '1', price: '100' })).to.deep.equal({
        ok: true,
      });
      expect(
        venue.testOrder({ accountId: 'a', symbol: SYMBOL, side: 'BUY', type: 'LIMIT', quantity: '1', price: '100.001' }),
      ).to.deep.include({ code: 400 });
      expect(venue.openOrders('a')).to.have.length(0);
      expect(bal(venue, 'a', 'USDT')).to.deep.equal(['1000', '0']);
    });
  });

  describe('funds', () => {
    it('deposits_and_withdraws_free_funds_only', () => {
      const { venue } = harness();
      expect(venue.deposit('a', 'USDT', '100.5').ok).to.equal(true);
      limit(venue, 'a', 'BUY', '1', '100');
      expect(venue.withdraw('a', 'USDT', '0.6')).to.deep.include({ ok: false, code: 10101 });
      expect(venue.withdraw('a', 'USDT', '0.5').ok).to.equal(true);
      expect(bal(venue, 'a', 'USDT')).to.deep.equal(['0', '100']);
      expect(venue.deposit('a', 'USDT', '-1')).to.deep.include({ ok: false, code: 700004 });
      expect(venue.deposit('a', 'USDT', '0.0000000000000000001')).to.deep.include({ ok: false, code: 400 });
      expectClean(venue);
    });

    it('charges_per_account_fee_overrides', () => {
      const { venue } = harness();
      fund(venue, 'a', 'b');
      venue.setAccountFees('a', { taker: '0' });
      venue.setAccountFees('b', { maker: '0.0005' }, SYMBOL);
      limit(venue, 'b', 'SELL', '1', '100');
      limit(venue, 'a', 'BUY', '1', '100');
      // a pays no taker fee; b pays 0.05 % of 100 = 0.05
      expect(bal(venue, 'a', 'BTC')).to.deep.equal(['11', '0']);
      expect(bal(venue, 'b', 'USDT')).to.deep.equal(['1099.95', '0']);
      expect(venue.feeRates('b', SYMBOL)!.maker.toFixed()).to.equal('0.0005');
    });
  });

  describe('queries', () => {
    it('lists_open_orders_per_symbol_and_all_orders_in_a_time_window', () => {
      const { venue, clock } = harness();
      fund(venue, 'a');
      const t0 = clock.now();
      const first = limit(venue, 'a', 'BUY', '1', '90');
      venue.cancelOrder('a', SYMBOL, { orderId: first.orderId });
      clock.advanceBy(2 * 86_400_000);
      const second = limit(venue, 'a', 'BUY', '1', '91');
      expect(venue.openOrders('a', SYMBOL).map((o) => o.orderId)).to.deep.equal([second.orderId]);
      expect(venue.openOrders('a', 'ETHUSDT')).to.deep.equal([]);
      // default window: the last 24 hours
      expect(venue.allOrders('a', SYMBOL).map((o) => o.orderId)).to.deep.equal([second.orderId]);
      expect(venue.allOrders('a', SYMBOL, { startTime: t0 }).map((o) => o.orderId)).to.deep.equal([first.orderId, second.orderId]);
      expect(venue.allOrders('a', SYMBOL, { startTime: t0, endTime: t0 }).map((o) => o.orderId)).to.deep.equal([first.orderId]);
      expect(venue.allOrders('a', SYMBOL, { startTime: t0, limit: 1 }).map((o) => o.orderId)).to.deep.equal([second.orderId]);
      const q = venue.getOrder('a', SYMBOL, { orderId: first.orderId });
      expect(q.ok && venue.orderView(q.order).time).to.equal(t0);
    });

    it('filters_own_trades_by_order', () => {
      const { venue } = harness();
      fund(venue, 'a', 'b');
      limit(venue, 'b', 'SELL', '1', '100');
      const o1 = limit(venue, 'a', 'BUY', '0.4', '100');
      limit(venue, 'a', 'BUY', '0.6', '100');
      expect(venue.myTrades('a', SYMBOL)).to.have.length(2);
      expect(venue.myTrades('a', SYMBOL, { orderId: o1.orderId }).map((t) => t.lots)).to.deep.equal([4000]);
      expect(venue.myTrades('b', SYMBOL, { limit: 1 })).to.have.length(1);
    });

    it('reports_depth_in_decimals', () => {
      const { venue } = harness();
      fund(venue, 'a');
      limit(venue, 'a', 'BUY', '1', '99');
      limit(venue, 'a', 'BUY', '0.5', '99');
      limit(venue, 'a', 'SELL', '2', '101');
      const d = venue.depth(SYMBOL, 5)!;
      expect(d.bids.map(([p, q]) => [str(p), str(q)])).to.deep.equal([['99', '1.5']]);
      expect(d.asks.map(([p, q]) => [str(p), str(q)])).to.deep.equal([['101', '2']]);
    });

    it('forgets_closed_orders_and_trades_past_retention', () => {
      const { venue, clock } = harness({ orderRetentionMs: 1000, tradeRetentionMs: 2000 });
      fund(venue, 'a', 'b');
      const open = limit(venue, 'a', 'BUY', '1', '90');
      const closed = limit(venue, 'a', 'BUY', '1', '91', { newClientOrderId: 'c' });
      venue.cancelOrder('a', SYMBOL, { orderId: closed.orderId });
      limit(venue, 'b', 'SELL', '0.1', '90');
      clock.advanceBy(1500);
      venue.pruneHistory();
      expect(venue.getOrder('a', SYMBOL, { orderId: closed.orderId })).to.deep.include({ code: -2013 });
      expect(venue.getOrder('a', SYMBOL, { clientOrderId: 'c' })).to.deep.include({ code: -2013 });
      expect(venue.getOrder('a', SYMBOL, { orderId: open.orderId }).ok).to.equal(true);
      expect(venue.myTrades('a', SYMBOL)).to.have.length(1);
      clock.advanceBy(1000);
      venue.pruneHistory();
      expect(venue.myTrades('a', SYMBOL)).to.have.length(0);
      expectClean(venue);
    });
  });

  describe('events', () => {
    it('emits_accepted_trade_status_and_balance_events_in_order', () => {
      const { venue, clock } = harness();
      fund(venue, 'alice', 'bob', 'carol');
      limit(venue, 'bob', 'SELL', '0.5', '100');
      limit(venue, 'carol', 'SELL', '1', '101');
      const seen: SpotVenueEvent[] = [];
      venue.subscribe((e) => seen.push(e));
      clock.advanceBy(5);
      limit(venue, 'alice', 'BUY', '1.2', '101');
      const kinds = seen.map((e) =>
        e.type === 'balanceChanged'
          ? `${e.type}:${e.accountId}:${e.asset}`
          : e.type === 'trade'
            ? e.type
            : `${e.type}:${e.order.accountId}`,
      );
      expect(kinds.slice(0, 6)).to.deep.equal([
        'orderAccepted:alice',
        'trade',
        'orderFilled:bob',
        'trade',
        'orderPartiallyFilled:carol',
        'orderFilled:alice',
      ]);
      expect(kinds.slice(6).sort()).to.deep.equal(
        [
          'balanceChanged:alice:BTC',
          'balanceChanged:alice:USDT',
          'balanceChanged:bob:BTC',
          'balanceChanged:bob:USDT',
          'balanceChanged:carol:BTC',
          'balanceChanged:carol:USDT',
        ].sort(),
      );
      const t = seen[1]!;
      if (t.type !== 'trade') throw new Error('expected a trade');
      expect([
        str(t.price),
        str(t.qty),
        str(t.quoteQty),
        t.takerSide,
        t.isBuyerMaker,
        t.makerAccountId,
        t.takerAccountId,
        t.time,
      ]).to.deep.equal(['100', '0.5', '50', 'BUY', false, 'bob', 'alice', clock.now()]);
      expect([str(t.takerCommission), t.takerCommissionAsset, str(t.makerCommission), t.makerCommissionAsset]).to.deep.equal([
        '0.001',
        'BTC',
        '0.05',
        'USDT',
      ]);
      const aliceUsdt = seen.find((e) => e.type === 'balanceChanged' && e.accountId === 'alice' && e.asset === 'USDT');
      expect(aliceUsdt && aliceUsdt.type === 'balanceChanged' && [str(aliceUsdt.free), str(aliceUsdt.locked)]).to.deep.equal([
        '879.3',
        '0',
      ]);
    });

    it('emits_a_cancel_event_with_the_stp_reason', () => {
      const { venue } = harness();
      fund(venue, 'a1', 'a2');
      venue.stpGroups.join('a1', 'G');
      venue.stpGroups.join('a2', 'G');
      limit(venue, 'a1', 'SELL', '1', '100');
      const seen: SpotVenueEvent[] = [];
      venue.subscribe((e) => seen.push(e));
      limit(venue, 'a2', 'BUY', '1', '100', { stpMode: 'cancel_maker' });
      const cancels = seen
        .filter((e) => e.type === 'orderCanceled')
        .map((e) => e.type === 'orderCanceled' && [e.order.accountId, e.order.cancelReason]);
      expect(cancels).to.deep.equal([['a1', 'stp_cancel']]);
    });

    it('delivers_events_after_the_command_so_listeners_may_call_the_venue', () => {
      const { venue } = harness();
      fund(venue, 'mm', 'taker');
      limit(venue, 'mm', 'SELL', '1', '100');
      let requoted = false;
      const order: string[] = [];
      venue.subscribe((e) => {
        order.push(e.type);
        if (e.type === 'trade' && !requoted) {
          requoted = true;
          // the market maker re-quotes from inside the callback
          expect(venue.checkInvariants()).to.deep.equal([]);
          limit(venue, 'mm', 'SELL', '1', '100.5');
        }
      });
      limit(venue, 'taker', 'BUY', '1', '100');
      expect(venue.book(SYMBOL)!.bestAsk()).to.equal(10050);
      // the re-quote's own acceptance is delivered after the first command's events
      expect(order.indexOf('orderAccepted', 1)).to.be.greaterThan(order.indexOf('trade'));
      expectClean(venue);
    });

    it('stops_delivering_after_unsubscribe', () => {
      const { venue } = harness();
      const seen: string[] = [];
      const off = venue.subscribe((e) => seen.push(e.type));
      venue.deposit('a', 'USDT', '1');
      off();
      venue.deposit('a', 'USDT', '1');
      expect(seen).to.deep.equal(['balanceChanged']);
    });
  });

  describe('determinism', () => {
    it('produces_the_same_ids_and_outputs_for_the_same_inputs', () => {
      const run = () => {
        const { venue, clock } = harness({ orderIdPrefix: 'C02__', tradeIdPrefix: 'T' });
        fund(venue, 'a', 'b');
        const out: unknown[] = [];
        venue.subscribe((e) => out.push(JSON.parse(JSON.stringify(e, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)))));
        for (let i = 0; i < 20; i++) {
          clock.advanceBy(7);
          limit(venue, i % 2 ? 'a' : 'b', i % 3 ? 'BUY' : 'SELL', `0.${(i % 9) + 1}`, `${100 + (i % 5)}`);
        }
        return out;
      };
      const first = run();
      expect(first.length).to.be.greaterThan(40);
      expect(run()).to.deep.equal(first);
      expect((first[0] as { order: { orderId: string } }).order.orderId).to.equal('C02__1');
    });
  });
});
