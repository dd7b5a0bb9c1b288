import { expect } from 'chai';
import {
  ContractOrderErrorCode,
  ContractOrderState,
  ContractStpMode,
  DealOpenFlag,
  DealSide,
  OpenType,
} from '../../../src/domain/contract-enums.js';
import type { TradeExecuted } from '../../../src/venue/contract/contract-events.js';
import { dec, makeKit, order, placed, S, T, SYMBOL, type Kit } from './contract-test-kit.js';

const money = (v: { toString(): string }): string => v.toString();

/** alice 10 000 USDT, mm 1 000 000 USDT, both hedged. */
function arrange(opts: Parameters<typeof makeKit>[0] = {}): Kit {
  const kit = makeKit(opts);
  kit.venue.deposit('alice', 'USDT', 10000);
  kit.venue.deposit('mm', 'USDT', 1000000);
  return kit;
}

function assertClean(kit: Kit): void {
  expect(kit.problems).to.deep.equal([]);
  expect(kit.venue.checkInvariants()).to.deep.equal([]);
}

describe('ContractVenue orders', () => {
  it('opens_long_10x_isolated_booking_margin_and_taker_fee', () => {
    const kit = arrange();
    const { venue } = kit;
    const ask = placed(venue, 'mm', { side: S.OPEN_SHORT, vol: 1000, price: 50000 });
    // mm's resting order margin: ceil(1000·0.0001·50000 / 10) + 5000·max(taker 0.0006, maker 0.0002) = 500 + 3 = 503
    expect(money(ask.orderMargin)).to.equal('503');

    const buy = placed(venue, 'alice', { side: S.OPEN_LONG, vol: 1000, price: 50000 });

    // notional = 1000 · 0.0001 · 50000 = 5000; IM = 5000 / 10 = 500; taker fee = 5000 · 0.0006 = 3
    expect(buy.state).to.equal(ContractOrderState.COMPLETED);
    expect(money(buy.dealVol)).to.equal('1000');
    expect(money(buy.dealAvgPrice)).to.equal('50000');
    expect(money(buy.usedMargin)).to.equal('500');
    expect(money(buy.takerFee)).to.equal('3');
    const [pos] = venue.openPositions('alice');
    expect(money(pos!.holdVol)).to.equal('1000');
    expect(money(pos!.holdAvgPrice)).to.equal('50000');
    expect(money(pos!.im)).to.equal('500');
    expect(money(pos!.oim)).to.equal('500');
    // liquidation: (5000 − 500) / (0.1 · (1 − 0.004)) = 45180.7228… → shown rounded up to the tick
    expect(money(pos!.liquidatePrice!)).to.equal('45180.8');
    // alice: 10000 − 500 − 3 = 9497 free; cash = 9497 + 500 = 9997 (mark = last trade 50000, no PnL)
    const asset = venue.asset('alice', 'USDT')!;
    expect(money(asset.availableBalance)).to.equal('9497');
    expect(money(asset.positionMargin)).to.equal('500');
    expect(money(asset.cashBalance)).to.equal('9997');
    expect(money(asset.equity)).to.equal('9997');
    // mm (maker): frozen 503 released, IM 500 and maker fee 5000 · 0.0002 = 1 booked → 1000000 − 501
    expect(money(venue.asset('mm', 'USDT')!.availableBalance)).to.equal('999499');
    expect(money(venue.getOrder('mm', ask.orderId)!.makerFee)).to.equal('1');
    // venue fee income 3 + 1
    expect(money(venue.feeIncomeOf('USDT'))).to.equal('4');
    const trade = kit.events.find((e): e is TradeExecuted => e.type === 'TradeExecuted')!.trade;
    expect(trade.takerSide).to.equal(DealSide.BUY);
    expect(trade.openFlag).to.equal(DealOpenFlag.BOTH_OPEN);
    expect(trade.selfTrade).to.equal(false);
    expect(money(trade.price)).to.equal('50000');
    assertClean(kit);
  });

  it('fills_a_taker_across_levels_at_the_volume_weighted_price', () => {
    const kit = arrange();
    const { venue } = kit;
    placed(venue, 'mm', { side: S.OPEN_SHORT, vol: 400, price: 50000 });
    placed(venue, 'mm', { side: S.OPEN_SHORT, vol: 600, price: 50010 });
    const buy = placed(venue, 'alice', { side: S.OPEN_LONG, vol: 1000, price: 50010 });
    // notional = 0.0001·(400·50000 + 600·50010) = 2000 + 3000.6 = 5000.6 → avg 50006
    // IM per fill: 200 + 300.06 = 500.06; fee 5000.6 · 0.0006 = 3.00036
    expect(money(buy.dealAvgPrice)).to.equal('50006');
    expect(money(buy.usedMargin)).to.equal('500.06');
    expect(money(buy.takerFee)).to.equal('3.00036');
    // 10000 − 500.06 − 3.00036 = 9496.93964
    expect(money(venue.asset('alice', 'USDT')!.availableBalance)).to.equal('9496.93964');
    expect(money(venue.openPositions('alice')[0]!.holdAvgPrice)).to.equal('50006');
    assertClean(kit);
  });

  it('partially_fills_a_resting_order_at_the_maker_rate', () => {
    const kit = arrange();
    const { venue } = kit;
    const bid = placed(venue, 'alice', { side: S.OPEN_LONG, vol: 1000, price: 49990 });
    // ceil(1000·0.0001·49990/10) + 4999·0.0006 = 499.9 + 2.9994 = 502.8994
    expect(money(bid.orderMargin)).to.equal('502.8994');
    expect(money(venue.asset('alice', 'USDT')!.availableBalance)).to.equal('9497.1006');
    placed(venue, 'mm', { side: S.OPEN_SHORT, vol: 300, price: 49990, type: T.IOC });
    const after = venue.getOrder('alice', bid.orderId)!;
    // 300 lots: notional 1499.7, IM 149.97, maker fee 1499.7·0.0002 = 0.29994
    // remaining 700: 349.93 + 3499.3·0.0006 = 352.02958 still frozen
    expect(after.state).to.equal(ContractOrderState.UNCOMPLETED);
    expect(money(after.dealVol)).to.equal('300');
    expect(money(after.makerFee)).to.equal('0.29994');
    expect(money(after.usedMargin)).to.equal('149.97');
    expect(money(after.orderMargin)).to.equal('352.02958');
    // 10000 − 352.02958 − 149.97 − 0.29994 = 9497.70048
    expect(money(venue.asset('alice', 'USDT')!.availableBalance)).to.equal('9497.70048');
    expect(money(venue.asset('alice', 'USDT')!.frozenBalance)).to.equal('352.02958');
    assertClean(kit);
  });

  it('rejects_post_only_that_would_take_and_rests_one_that_would_not', () => {
    const kit = arrange();
    const { venue } = kit;
    placed(venue, 'mm', { side: S.OPEN_SHORT, vol: 10, price: 50000 });
    const r = order(venue, 'alice', { side: S.OPEN_LONG, vol: 10, price: 50000, type: T.POST_ONLY, externalOid: 'po-1' });
    expect(r.ok).to.equal(false);
    if (r.ok) return;
    expect(r.errorCode).to.equal(ContractOrderErrorCode.PARAMETER);
    expect(r.order!.state).to.equal(ContractOrderState.INVALID);
    // the invalid record can be found by its client id
    expect(venue.getOrderByExternalOid('alice', SYMBOL, 'po-1')!.state).to.equal(ContractOrderState.INVALID);
    const ok = placed(venue, 'alice', { side: S.OPEN_LONG, vol: 10, price: 49999.9, type: T.POST_ONLY });
    expect(ok.state).to.equal(ContractOrderState.UNCOMPLETED);
    assertClean(kit);
  });

  it('cancels_an_unfillable_fok_without_trading_and_fills_a_fillable_one', () => {
    const kit = arrange();
    const { venue } = kit;
    const ask = placed(venue, 'mm', { side: S.OPEN_SHORT, vol: 500, price: 50000 });
    const fok = placed(venue, 'alice', { side: S.OPEN_LONG, vol: 1000, price: 50000, type: T.FOK });
    expect(fok.state).to.equal(ContractOrderState.CANCELLED);
    expect(fok.cancelReason).to.equal('fok_unfilled');
    expect(money(fok.dealVol)).to.equal('0');
    expect(money(venue.getOrder('mm', ask.orderId)!.dealVol)).to.equal('0');
    const fok2 = placed(venue, 'alice', { side: S.OPEN_LONG, vol: 500, price: 50000, type: T.FOK });
    expect(fok2.state).to.equal(ContractOrderState.COMPLETED);
    assertClean(kit);
  });

  it('cancels_the_ioc_remainder_after_a_partial_fill', () => {
    const kit = arrange();
    const { venue } = kit;
    placed(venue, 'mm', { side: S.OPEN_SHORT, vol: 500, price: 50000 });
    const ioc = placed(venue, 'alice', { side: S.OPEN_LONG, vol: 1000, price: 50000, type: T.IOC });
    expect(ioc.state).to.equal(ContractOrderState.CANCELLED);
    expect(ioc.cancelReason).to.equal('ioc_remainder');
    expect(money(ioc.dealVol)).to.equal('500');
    // only the 500 filled were charged: IM 250, fee 2500 · 0.0006 = 1.5
    expect(money(venue.asset('alice', 'USDT')!.availableBalance)).to.equal('9748.5');
    assertClean(kit);
  });

  it('walks_the_book_with_a_market_order_within_the_fair_price_band', () => {
    const kit = arrange();
    const { venue } = kit;
    venue.setFairPrice(SYMBOL, 50000);
    placed(venue, 'mm', { side: S.OPEN_SHORT, vol: 500, price: 50000 });
    placed(venue, 'mm', { side: S.OPEN_SHORT, vol: 300, price: 50100 });
    // band top = 50000 · 1.1 = 55000; a level above it is out of reach
    placed(venue, 'mm', { side: S.OPEN_SHORT, vol: 300, price: 55000 });
    const mkt = placed(venue, 'alice', { side: S.OPEN_LONG, vol: 1000, type: T.MARKET });
    // 500 @ 50000 + 300 @ 50100 + 200 @ 55000 = 2500 + 1503 + 1100 = 5103 notional; avg 51030
    expect(money(mkt.dealVol)).to.equal('1000');
    expect(money(mkt.dealAvgPrice)).to.equal('51030');
    expect(mkt.state).to.equal(ContractOrderState.COMPLETED);
    assertClean(kit);
  });

  it('converts_a_type_6_market_order_to_a_limit_at_the_best_opposite_price', () => {
    const kit = arrange();
    const { venue } = kit;
    placed(venue, 'mm', { side: S.OPEN_SHORT, vol: 500, price: 50000 });
    placed(venue, 'mm', { side: S.OPEN_SHORT, vol: 500, price: 50010 });
    const o = placed(venue, 'alice', { side: S.OPEN_LONG, vol: 1000, type: T.MARKET_TO_LIMIT });
    // takes 500 at 50000, the other 500 rests as a bid at 50000 (the price it was converted to)
    expect(money(o.price)).to.equal('50000');
    expect(money(o.dealVol)).to.equal('500');
    expect(o.state).to.equal(ContractOrderState.UNCOMPLETED);
    expect(money(venue.bestBid(SYMBOL)!)).to.equal('50000');
    assertClean(kit);
  });

  it('refuses_limit_prices_outside_the_fair_price_band', () => {
    const kit = arrange();
    const { venue } = kit;
    venue.setFairPrice(SYMBOL, 50000);
    // buys ≤ 50000·1.1 = 55000, sells ≥ 50000·0.9 = 45000
    const high = order(venue, 'alice', { side: S.OPEN_LONG, vol: 1, price: '55000.1' });
    expect(high.ok ? 0 : high.code).to.equal(2007);
    expect(order(venue, 'alice', { side: S.OPEN_LONG, vol: 1, price: 55000 }).ok).to.equal(true);
    const low = order(venue, 'alice', { side: S.OPEN_SHORT, vol: 1, price: '44999.9' });
    expect(low.ok ? 0 : low.code).to.equal(2007);
    assertClean(kit);
  });

  it('refuses_malformed_orders_with_parameter_codes_and_no_record', () => {
    const kit = arrange();
    const { venue } = kit;
    const cases: [Parameters<typeof order>[2], number][] = [
      [{ side: S.OPEN_LONG, vol: 1, price: '50000.05' }, 2015], // off tick
      [{ side: S.OPEN_LONG, vol: '1.5', price: 50000 }, 2015], // off lot
      [{ side: S.OPEN_LONG, vol: 200000, price: 50000 }, 600], // above maxVol 100000
      [{ side: S.OPEN_LONG, vol: 1, price: 50000, leverage: 126 }, 2006],
      [{ side: S.OPEN_LONG, vol: 1, price: 50000, leverage: null }, 600], // leverage required when opening
    ];
    for (const [args, code] of cases) {
      const r = order(venue, 'alice', args);
      expect(r.ok, JSON.stringify(args)).to.equal(false);
      if (!r.ok) {
        expect(r.code, JSON.stringify(args)).to.equal(code);
        expect(r.order).to.equal(undefined);
      }
    }
    const unknown = venue.placeOrder('alice', {
      symbol: 'ETH_USDT',
      side: S.OPEN_LONG,
      vol: 1,
      price: 1,
      type: T.LIMIT,
      openType: 1,
      leverage: 10,
    });
    expect(unknown.ok ? 0 : unknown.code).to.equal(1001);
    expect(venue.historyOrders('alice').totalCount).to.equal(0);
    assertClean(kit);
  });

  it('rejects_orders_the_balance_cannot_margin', () => {
    const kit = arrange();
    const { venue } = kit;
    // 1000 @ 50000 at 1x needs 5000 + 3 = 5003; 2000 needs 10006 > 10000
    const r = order(venue, 'alice', { side: S.OPEN_LONG, vol: 2000, price: 50000, leverage: 1 });
    expect(r.ok).to.equal(false);
    if (!r.ok) {
      expect(r.code).to.equal(2005);
      expect(r.errorCode).to.equal(ContractOrderErrorCode.INSUFFICIENT_BALANCE);
      expect(r.order!.state).to.equal(ContractOrderState.INVALID);
    }
    expect(order(venue, 'alice', { side: S.OPEN_LONG, vol: 1998, price: 50000, leverage: 1 }).ok).to.equal(true);
    assertClean(kit);
  });

  it('margins_new_orders_against_the_balance_less_the_cross_unrealised_loss_to_the_last_order', () => {
    // Alice holds 1000 long cross at 50,000 (1x); each mark below leaves availableOpen = free + min(0, unrealised).
    // A resting buy of v at P (1x) reserves v·P·0.0001·(1 + 0.0006): the largest v within it is accepted, v + 1 refused.
    for (const [fair, price] of [
      [49_000, 45_000],
      [49_999.9, 45_000],
      [51_000, 46_000],
    ] as const) {
      const kit = arrange();
      const { venue } = kit;
      placed(venue, 'mm', { side: S.OPEN_SHORT, vol: 1000, price: 50000 });
      placed(venue, 'alice', { side: S.OPEN_LONG, vol: 1000, price: 50000, leverage: 1, openType: OpenType.CROSS });
      venue.setFairPrice(SYMBOL, fair);
      const available = venue.asset('alice', 'USDT')!.availableOpen;
      const perVol = dec(price).mul('0.0001').mul('1.0006');
      const v = available.div(perVol).floor().toNumber();
      expect(v, `${fair}`).to.be.greaterThan(100);
      const over = order(venue, 'alice', { side: S.OPEN_LONG, vol: v + 1, price, leverage: 1, openType: OpenType.CROSS });
      expect(over.ok ? 0 : over.errorCode, `${fair}: ${v + 1}`).to.equal(ContractOrderErrorCode.INSUFFICIENT_BALANCE);
      expect(
        order(venue, 'alice', { side: S.OPEN_LONG, vol: v, price, leverage: 1, openType: OpenType.CROSS }).ok,
        `${fair}: ${v}`,
      ).to.equal(true);
      assertClean(kit);
    }
  });

  it('enforces_max_num_orders_per_position_mode', () => {
    const kit = arrange();
    const { venue } = kit;
    // hedged limit 5
    for (let i = 0; i < 5; i++) placed(venue, 'alice', { side: S.OPEN_LONG, vol: 1, price: 49000 + i });
    const sixth = order(venue, 'alice', { side: S.OPEN_LONG, vol: 1, price: 48000 });
    expect(sixth.ok ? 0 : sixth.code).to.equal(600);
    // orders that never rest (IOC, FOK, market) are not limited: they are not open afterwards
    expect(order(venue, 'alice', { side: S.OPEN_LONG, vol: 1, price: 48000, type: T.IOC }).ok).to.equal(true);
    // one-way limit 3
    venue.openAccount('bob', 2);
    venue.deposit('bob', 'USDT', 10000);
    for (let i = 0; i < 3; i++) placed(venue, 'bob', { side: S.OPEN_LONG, vol: 1, price: 49000 + i, positionMode: 2 });
    const fourth = order(venue, 'bob', { side: S.OPEN_LONG, vol: 1, price: 48000 });
    expect(fourth.ok ? 0 : fourth.code).to.equal(600);
    assertClean(kit);
  });

  it('refuses_a_duplicate_external_oid_among_open_orders_only', () => {
    const kit = arrange();
    const { venue } = kit;
    const first = placed(venue, 'alice', { side: S.OPEN_LONG, vol: 1, price: 49000, externalOid: 'x1' });
    const dup = order(venue, 'alice', { side: S.OPEN_LONG, vol: 1, price: 49000, externalOid: 'x1' });
    expect(dup.ok).to.equal(false);
    venue.cancelOrders('alice', [first.orderId]);
    expect(order(venue, 'alice', { side: S.OPEN_LONG, vol: 1, price: 49000, externalOid: 'x1' }).ok).to.equal(true);
    assertClean(kit);
  });

  it('answers_cancel_with_2040_for_unknown_and_2041_for_final_orders', () => {
    const kit = arrange();
    const { venue } = kit;
    const open = placed(venue, 'alice', { side: S.OPEN_LONG, vol: 1, price: 49000 });
    const done = placed(venue, 'alice', { side: S.OPEN_LONG, vol: 1, price: 48000 });
    venue.cancelOrders('alice', [done.orderId]);
    const theirs = placed(venue, 'mm', { side: S.OPEN_LONG, vol: 1, price: 47000 });
    const res = venue.cancelOrders('alice', [open.orderId, done.orderId, '999999', theirs.orderId]);
    expect(res.map((r) => r.errorCode)).to.deep.equal([0, 2041, 2040, 2040]);
    expect(res.map((r) => r.errorMsg)).to.deep.equal(['success', 'order state cannot be cancelled', 'order not exist', 'order not exist']);
    expect(venue.getOrder('alice', open.orderId)!.state).to.equal(ContractOrderState.CANCELLED);
    expect(venue.getOrder('mm', theirs.orderId)!.state).to.equal(ContractOrderState.UNCOMPLETED);
    // all margin back: nothing frozen
    expect(money(venue.asset('alice', 'USDT')!.frozenBalance)).to.equal('0');
    expect(money(venue.asset('alice', 'USDT')!.availableBalance)).to.equal('10000');
    assertClean(kit);
  });

  it('cancels_by_external_oid_and_cancels_all_per_symbol_or_everything', () => {
    const kit = arrange();
    const { venue } = kit;
    placed(venue, 'alice', { side: S.OPEN_LONG, vol: 1, price: 49000, externalOid: 'e1' });
    placed(venue, 'alice', { side: S.OPEN_LONG, vol: 1, price: 48000, externalOid: 'e2' });
    const r = venue.cancelWithExternal('alice', [
      { symbol: SYMBOL, externalOid: 'e1' },
      { symbol: SYMBOL, externalOid: 'nope' },
    ]);
    expect(r.map((x) => x.errorCode)).to.deep.equal([0, 2040]);
    expect(venue.cancelWithExternal('alice', [{ symbol: SYMBOL, externalOid: 'e1' }])[0]!.errorCode).to.equal(2041);
    placed(venue, 'alice', { side: S.OPEN_LONG, vol: 1, price: 47000 });
    expect(venue.cancelAll('alice', 'ETH_USDT')).to.equal(0);
    expect(venue.cancelAll('alice', '')).to.equal(2);
    expect(venue.openOrders('alice').totalCount).to.equal(0);
    assertClean(kit);
  });

  it('amends_price_and_vol_re_reserving_margin', () => {
    const kit = arrange();
    const { venue } = kit;
    const bid = placed(venue, 'alice', { side: S.OPEN_LONG, vol: 1000, price: 49990 });
    const r = venue.changeLimitOrder('alice', { orderId: bid.orderId, price: 49980, vol: 800 });
    expect(r.ok).to.equal(true);
    const after = venue.getOrder('alice', bid.orderId)!;
    // ceil(800·0.0001·49980/10) + 3998.4·0.0006 = 399.84 + 2.39904 = 402.23904
    expect(money(after.orderMargin)).to.equal('402.23904');
    expect(money(after.price)).to.equal('49980');
    expect(money(after.vol)).to.equal('800');
    expect(money(venue.asset('alice', 'USDT')!.availableBalance)).to.equal('9597.76096');
    assertClean(kit);
  });

  it('amends_into_the_book_and_takes_liquidity', () => {
    const kit = arrange();
    const { venue } = kit;
    placed(venue, 'mm', { side: S.OPEN_SHORT, vol: 500, price: 50000 });
    const bid = placed(venue, 'alice', { side: S.OPEN_LONG, vol: 1000, price: 49990 });
    const r = venue.changeLimitOrder('alice', { orderId: bid.orderId, price: 50000, vol: 1000 });
    expect(r.ok).to.equal(true);
    const after = venue.getOrder('alice', bid.orderId)!;
    // 500 taken at 50000: fee 2500·0.0006 = 1.5; 500 rest at 50000: 250 + 1.5 = 251.5 frozen
    expect(money(after.dealVol)).to.equal('500');
    expect(money(after.takerFee)).to.equal('1.5');
    expect(money(after.orderMargin)).to.equal('251.5');
    assertClean(kit);
  });

  it('refuses_an_amend_the_balance_cannot_carry_and_leaves_the_order_alone', () => {
    const kit = arrange();
    const { venue } = kit;
    const bid = placed(venue, 'alice', { side: S.OPEN_LONG, vol: 1000, price: 49990, leverage: 5 });
    // 10x the size at 5x needs ~10000 + fee > 10000
    const r = venue.changeLimitOrder('alice', { orderId: bid.orderId, price: 49990, vol: 10000 });
    expect(r.ok ? 0 : r.code).to.equal(2005);
    const after = venue.getOrder('alice', bid.orderId)!;
    expect(money(after.vol)).to.equal('1000');
    expect(money(after.price)).to.equal('49990');
    const missing = venue.changeLimitOrder('alice', { orderId: '424242', price: 1, vol: 1 });
    expect(missing.ok ? 0 : missing.code).to.equal(2040);
    assertClean(kit);
  });

  it('chases_a_buy_to_the_best_bid_of_its_own_side', () => {
    const kit = arrange();
    const { venue } = kit;
    placed(venue, 'mm', { side: S.OPEN_LONG, vol: 100, price: 49950 });
    placed(venue, 'mm', { side: S.OPEN_SHORT, vol: 100, price: 50050 });
    const bid = placed(venue, 'alice', { side: S.OPEN_LONG, vol: 1000, price: 49900 });
    const r = venue.chaseLimitOrder('alice', bid.orderId);
    expect(r.ok).to.equal(true);
    const after = venue.getOrder('alice', bid.orderId)!;
    // joins the best bid (not the ask): 49950; margin 499.5 + 4995·0.0006 = 502.497
    expect(money(after.price)).to.equal('49950');
    expect(money(after.dealVol)).to.equal('0');
    expect(money(after.orderMargin)).to.equal('502.497');
    // already best: a second chase changes nothing
    expect(venue.chaseLimitOrder('alice', bid.orderId).ok).to.equal(true);
    expect(money(venue.getOrder('alice', bid.orderId)!.price)).to.equal('49950');
    const amended = kit.events.filter((e) => e.type === 'OrderAmended');
    expect(amended.length).to.equal(1);
    assertClean(kit);
  });

  it('chases_a_sell_to_the_best_ask', () => {
    const kit = arrange();
    const { venue } = kit;
    placed(venue, 'mm', { side: S.OPEN_SHORT, vol: 100, price: 50050 });
    placed(venue, 'mm', { side: S.OPEN_LONG, vol: 100, price: 49950 });
    const ask = placed(venue, 'alice', { side: S.OPEN_SHORT, vol: 10, price: 50100 });
    venue.chaseLimitOrder('alice', ask.orderId);
    expect(money(venue.getOrder('alice', ask.orderId)!.price)).to.equal('50050');
    assertClean(kit);
  });

  describe('self-trade prevention', () => {
    function arrangeOwnAsk(): Kit {
      const kit = arrange();
      placed(kit.venue, 'mm', { side: S.OPEN_SHORT, vol: 500, price: 50000 });
      return kit;
    }

    it('trades_with_itself_under_stp_0_and_flags_the_trade', () => {
      const kit = arrangeOwnAsk();
      const buy = placed(kit.venue, 'mm', { side: S.OPEN_LONG, vol: 200, price: 50000, stpMode: ContractStpMode.NONE });
      expect(money(buy.dealVol)).to.equal('200');
      const t = kit.events.find((e): e is TradeExecuted => e.type === 'TradeExecuted')!.trade;
      expect(t.selfTrade).to.equal(true);
      // hedged: a long 200 and a short 200
      expect(
        kit.venue
          .openPositions('mm')
          .map((p) => `${p.positionType}:${p.holdVol.toString()}`)
          .sort(),
      ).to.deep.equal(['1:200', '2:200']);
      assertClean(kit);
    });

    it('cancels_both_under_stp_1', () => {
      const kit = arrangeOwnAsk();
      const buy = placed(kit.venue, 'mm', { side: S.OPEN_LONG, vol: 200, price: 50000, stpMode: ContractStpMode.CANCEL_BOTH });
      expect(buy.state).to.equal(ContractOrderState.CANCELLED);
      expect(buy.cancelReason).to.equal('stp_taker');
      expect(kit.venue.openOrders('mm').totalCount).to.equal(0);
      expect(kit.events.some((e) => e.type === 'TradeExecuted')).to.equal(false);
      assertClean(kit);
    });

    it('cancels_the_maker_and_keeps_matching_under_stp_2', () => {
      const kit = arrangeOwnAsk();
      placed(kit.venue, 'alice', { side: S.OPEN_SHORT, vol: 300, price: 50010 });
      const buy = placed(kit.venue, 'mm', { side: S.OPEN_LONG, vol: 200, price: 50010, stpMode: ContractStpMode.CANCEL_MAKER });
      expect(money(buy.dealVol)).to.equal('200');
      expect(money(buy.dealAvgPrice)).to.equal('50010');
      const own = kit.events.find((e) => e.type === 'OrderCancelled');
      expect(own && own.type === 'OrderCancelled' ? own.reason : '').to.equal('stp_maker');
      assertClean(kit);
    });

    it('cancels_the_taker_under_stp_3', () => {
      const kit = arrangeOwnAsk();
      const buy = placed(kit.venue, 'mm', { side: S.OPEN_LONG, vol: 200, price: 50000, stpMode: ContractStpMode.CANCEL_TAKER });
      expect(buy.state).to.equal(ContractOrderState.CANCELLED);
      expect(kit.venue.openOrders('mm').totalCount).to.equal(1);
      assertClean(kit);
    });

    it('applies_between_accounts_of_one_stp_group', () => {
      const kit = makeKit({ sameStpGroup: (a, b) => a === b || (a.startsWith('desk') && b.startsWith('desk')) });
      kit.venue.deposit('desk1', 'USDT', 100000);
      kit.venue.deposit('desk2', 'USDT', 100000);
      placed(kit.venue, 'desk1', { side: S.OPEN_SHORT, vol: 10, price: 50000 });
      const buy = placed(kit.venue, 'desk2', { side: S.OPEN_LONG, vol: 10, price: 50000, stpMode: ContractStpMode.CANCEL_TAKER });
      expect(buy.state).to.equal(ContractOrderState.CANCELLED);
      expect(money(buy.dealVol)).to.equal('0');
      assertClean(kit);
    });
  });

  it('produces_identical_events_for_identical_inputs', () => {
    const script = (): string => {
      const kit = arrange();
      const { venue, clock } = kit;
      venue.setFairPrice(SYMBOL, 50000);
      placed(venue, 'mm', { side: S.OPEN_SHORT, vol: 700, price: 50000 });
      placed(venue, 'alice', { side: S.OPEN_LONG, vol: 300, price: 50000 });
      clock.advanceBy(500);
      placed(venue, 'alice', { side: S.OPEN_LONG, vol: 100, price: 49000 });
      venue.setFairPrice(SYMBOL, 49000);
      return JSON.stringify(kit.events);
    };
    expect(script()).to.equal(script());
  });

  it('publishes_the_events_of_a_command_after_it_completes_in_order', () => {
    const kit = arrange();
    const { venue } = kit;
    placed(venue, 'mm', { side: S.OPEN_SHORT, vol: 10, price: 50000 });
    const seen: string[] = [];
    venue.on((e) => {
      seen.push(e.type);
      // the command is complete when its first event arrives: the taker is already filled
      if (e.type === 'OrderAccepted' && e.order.accountId === 'alice') expect(venue.openPositions('alice').length).to.equal(1);
    });
    placed(venue, 'alice', { side: S.OPEN_LONG, vol: 10, price: 50000 });
    expect(seen).to.deep.equal(['OrderAccepted', 'OrderFilled', 'PositionChanged', 'OrderFilled', 'PositionChanged', 'TradeExecuted']);
    assertClean(kit);
  });

  it('notifies_price_watchers_of_fair_index_and_last_prices', () => {
    const kit = arrange();
    const { venue } = kit;
    const seen: string[] = [];
    venue.addPriceWatcher((u) => seen.push(`${u.kind}:${u.price.toString()}`));
    venue.setFairPrice(SYMBOL, 50001);
    venue.setIndexPrice(SYMBOL, 50002);
    placed(venue, 'mm', { side: S.OPEN_SHORT, vol: 10, price: 50000 });
    placed(venue, 'alice', { side: S.OPEN_LONG, vol: 10, price: 50000 });
    expect(seen).to.deep.equal(['fair:50001', 'index:50002', 'last:50000']);
    expect(money(venue.lastPrice(SYMBOL)!)).to.equal('50000');
    expect(money(venue.indexPrice(SYMBOL)!)).to.equal('50002');
    assertClean(kit);
  });

  it('keeps_only_the_configured_number_of_final_orders', () => {
    const kit = arrange({ historyLimit: 3 });
    const { venue } = kit;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const o = placed(venue, 'alice', { side: S.OPEN_LONG, vol: 1, price: 49000 + i });
      ids.push(o.orderId);
      venue.cancelOrders('alice', [o.orderId]);
    }
    expect(venue.historyOrders('alice').totalCount).to.equal(3);
    expect(venue.getOrder('alice', ids[0]!)).to.equal(undefined);
    expect(venue.getOrder('alice', ids[4]!)!.state).to.equal(ContractOrderState.CANCELLED);
    assertClean(kit);
  });

  it('numbers_orders_from_the_configured_id_base', () => {
    const kit = arrange({ idBase: 700000000000 });
    const o = placed(kit.venue, 'alice', { side: S.OPEN_LONG, vol: 1, price: 49000 });
    expect(o.orderId).to.equal('700000000001');
    assertClean(kit);
  });
});
