import { expect } from 'chai';
import {
  ContractOrderErrorCode,
  ContractOrderState,
  DealOpenFlag,
  OpenType,
  PositionMode,
  PositionState,
  PositionType,
} from '../../../src/domain/contract-enums.js';
import type { TradeExecuted } from '../../../src/venue/contract/contract-events.js';
import { makeKit, order, placed, S, T, SYMBOL, type Kit } from './contract-test-kit.js';

const money = (v: { toString(): string }): string => v.toString();

function assertClean(kit: Kit): void {
  expect(kit.problems).to.deep.equal([]);
  expect(kit.venue.checkInvariants()).to.deep.equal([]);
}

/** alice long 1000 @ 50000, 10x isolated, against mm's short; alice free 9497, im 500. */
function arrangeLong(opts: Parameters<typeof makeKit>[0] = {}): Kit {
  const kit = makeKit(opts);
  kit.venue.deposit('alice', 'USDT', 10000);
  kit.venue.deposit('mm', 'USDT', 1000000);
  placed(kit.venue, 'mm', { side: S.OPEN_SHORT, vol: 1000, price: 50000 });
  placed(kit.venue, 'alice', { side: S.OPEN_LONG, vol: 1000, price: 50000 });
  return kit;
}

describe('ContractVenue positions', () => {
  it('closes_with_realised_pnl_and_fees_on_both_sides', () => {
    const kit = arrangeLong();
    const { venue } = kit;
    const mmClose = placed(venue, 'mm', { side: S.CLOSE_SHORT, vol: 1000, price: 51000 });
    expect(money(mmClose.orderMargin)).to.equal('0'); // closing orders reserve position, not money
    expect(money(venue.openPositions('mm')[0]!.frozenVol)).to.equal('1000');
    const posId = venue.openPositions('alice')[0]!.positionId;
    const close = placed(venue, 'alice', { side: S.CLOSE_LONG, vol: 1000, price: 51000 });
    // realised (51000 − 50000)·0.1 = 100; fee 5100·0.0006 = 3.06
    expect(money(close.profit)).to.equal('100');
    expect(money(close.takerFee)).to.equal('3.06');
    // 9497 + 500 (margin back) + 100 − 3.06 = 10093.94
    expect(money(venue.asset('alice', 'USDT')!.availableBalance)).to.equal('10093.94');
    expect(venue.openPositions('alice')).to.deep.equal([]);
    const hist = venue.historyPositions('alice').resultList[0]!;
    expect(hist.positionId).to.equal(posId);
    expect(hist.state).to.equal(PositionState.CLOSED);
    expect(money(hist.closeProfitLoss)).to.equal('100');
    expect(money(hist.totalFee)).to.equal('6.06'); // 3 open + 3.06 close
    expect(money(hist.realised)).to.equal('93.94');
    expect(money(hist.closeAvgPrice)).to.equal('51000');
    expect(money(hist.closeVol)).to.equal('1000');
    // mm realises −100 and pays maker 5100·0.0002 = 1.02: 999499 + 500 − 100 − 1.02 = 999897.98
    expect(money(venue.asset('mm', 'USDT')!.availableBalance)).to.equal('999897.98');
    const trades = kit.events.filter((e): e is TradeExecuted => e.type === 'TradeExecuted');
    expect(trades[1]!.trade.openFlag).to.equal(DealOpenFlag.NEITHER_OPENS);
    assertClean(kit);
  });

  it('marks_unrealised_pnl_at_the_fair_price', () => {
    const kit = arrangeLong();
    const { venue } = kit;
    venue.setFairPrice(SYMBOL, 50500);
    const pos = venue.openPositions('alice')[0]!;
    // (50500 − 50000)·0.1 = 50
    expect(money(pos.unrealised)).to.equal('50');
    // margin ratio = 0.004·0.1·50500 / (500 + 50) = 20.2 / 550 = 0.03672… → 0.0367
    expect(money(pos.marginRatio)).to.equal('0.0367');
    const a = venue.asset('alice', 'USDT')!;
    expect(money(a.unrealized)).to.equal('50');
    expect(money(a.equity)).to.equal('10047'); // 9497 + 500 + 50
    expect(money(venue.openPositions('mm')[0]!.unrealised)).to.equal('-50');
    assertClean(kit);
  });

  it('keeps_hedged_sides_apart_and_nets_one_way', () => {
    const kit = makeKit();
    const { venue } = kit;
    venue.deposit('mm', 'USDT', 1000000);
    venue.deposit('carol', 'USDT', 10000);
    venue.openAccount('bob', PositionMode.ONE_WAY);
    venue.deposit('bob', 'USDT', 10000);
    for (const who of ['carol', 'bob']) {
      placed(venue, 'mm', { side: S.OPEN_SHORT, vol: 1000, price: 50000 });
      placed(venue, who, { side: S.OPEN_LONG, vol: 1000, price: 50000 });
      placed(venue, 'mm', { side: S.OPEN_LONG, vol: 1500, price: 50000 });
      placed(venue, who, { side: S.OPEN_SHORT, vol: 1500, price: 50000 });
    }
    // hedged: long 1000 and short 1500; free 10000 − (500 + 3) − (750 + 4.5) = 8742.5
    const carol = venue
      .openPositions('carol')
      .map((p) => `${p.positionType}:${p.holdVol.toString()}`)
      .sort();
    expect(carol).to.deep.equal(['1:1000', '2:1500']);
    expect(money(venue.asset('carol', 'USDT')!.availableBalance)).to.equal('8742.5');
    // one-way: the sell closes the long 1000 (margin 500 back, PnL 0) and opens short 500 (IM 250);
    // fees 3 + 4.5: 10000 − 503 + 500 − 250 − 4.5 = 9742.5
    const bob = venue.openPositions('bob');
    expect(bob.map((p) => `${p.positionType}:${p.holdVol.toString()}`)).to.deep.equal(['2:500']);
    expect(money(bob[0]!.im)).to.equal('250');
    expect(money(venue.asset('bob', 'USDT')!.availableBalance)).to.equal('9742.5');
    assertClean(kit);
  });

  it('accepts_reduce_only_in_one_way_mode_only', () => {
    const kit = makeKit();
    const { venue } = kit;
    venue.deposit('carol', 'USDT', 10000);
    const hedged = order(venue, 'carol', { side: S.OPEN_SHORT, vol: 1, price: 50000, reduceOnly: true });
    expect(hedged.ok ? 0 : hedged.code).to.equal(600);
    venue.openAccount('bob', PositionMode.ONE_WAY);
    venue.deposit('bob', 'USDT', 10000);
    venue.deposit('mm', 'USDT', 1000000);
    // no position to reduce: invalid record, errorCode 3
    const none = order(venue, 'bob', { side: S.OPEN_SHORT, vol: 1, price: 50000, reduceOnly: true });
    expect(none.ok).to.equal(false);
    if (!none.ok) {
      expect(none.errorCode).to.equal(ContractOrderErrorCode.POSITION_NOT_EXIST);
      expect(none.code).to.equal(2009);
      expect(none.order!.state).to.equal(ContractOrderState.INVALID);
    }
    placed(venue, 'mm', { side: S.OPEN_SHORT, vol: 1000, price: 50000 });
    placed(venue, 'bob', { side: S.OPEN_LONG, vol: 1000, price: 50000 });
    // larger than the long: errorCode 4
    const tooBig = order(venue, 'bob', { side: S.OPEN_SHORT, vol: 1500, price: 50100, reduceOnly: true });
    expect(tooBig.ok ? -1 : tooBig.errorCode).to.equal(ContractOrderErrorCode.POSITION_TOO_SMALL);
    const ok = placed(venue, 'bob', { side: S.OPEN_SHORT, vol: 600, price: 50100, reduceOnly: true });
    expect(money(ok.orderMargin)).to.equal('0');
    expect(money(venue.openPositions('bob')[0]!.frozenVol)).to.equal('600');
    assertClean(kit);
  });

  it('trims_reduce_only_orders_when_a_one_way_fill_shrinks_the_position', () => {
    const kit = makeKit();
    const { venue } = kit;
    venue.deposit('mm', 'USDT', 1000000);
    venue.openAccount('bob', PositionMode.ONE_WAY);
    venue.deposit('bob', 'USDT', 10000);
    placed(venue, 'mm', { side: S.OPEN_SHORT, vol: 1000, price: 50000 });
    placed(venue, 'bob', { side: S.OPEN_LONG, vol: 1000, price: 50000 });
    const ro = placed(venue, 'bob', { side: S.CLOSE_LONG, vol: 800, price: 52000 });
    // a plain sell of 500 closes half the long: the reduce-only order is cut to 500
    placed(venue, 'mm', { side: S.OPEN_LONG, vol: 500, price: 50000 });
    placed(venue, 'bob', { side: S.OPEN_SHORT, vol: 500, price: 50000 });
    expect(money(venue.openPositions('bob')[0]!.holdVol)).to.equal('500');
    expect(money(venue.getOrder('bob', ro.orderId)!.vol)).to.equal('500');
    assertClean(kit);
  });

  it('refuses_a_position_mode_change_with_an_open_order_or_position', () => {
    const kit = makeKit();
    const { venue } = kit;
    venue.deposit('alice', 'USDT', 10000);
    venue.deposit('mm', 'USDT', 1000000);
    const o = placed(venue, 'alice', { side: S.OPEN_LONG, vol: 10, price: 49000 });
    const r = venue.changePositionMode('alice', PositionMode.ONE_WAY);
    expect(r.ok ? 0 : r.code).to.equal(2019);
    expect(venue.positionMode('alice')).to.equal(PositionMode.HEDGED);
    venue.cancelOrders('alice', [o.orderId]);
    placed(venue, 'mm', { side: S.OPEN_SHORT, vol: 10, price: 50000 });
    placed(venue, 'alice', { side: S.OPEN_LONG, vol: 10, price: 50000 });
    expect(venue.changePositionMode('alice', PositionMode.ONE_WAY).ok).to.equal(false);
    // a market close into an empty bid side is cancelled unfilled: the position stays
    expect(placed(venue, 'alice', { side: S.CLOSE_LONG, vol: 10, type: T.MARKET }).cancelReason).to.equal('market_remainder');
    expect(venue.openPositions('alice').length).to.equal(1);
    placed(venue, 'mm', { side: S.OPEN_LONG, vol: 10, price: 49990 });
    placed(venue, 'alice', { side: S.CLOSE_LONG, vol: 10, type: T.MARKET });
    expect(venue.changePositionMode('alice', PositionMode.ONE_WAY).ok).to.equal(true);
    expect(venue.positionMode('alice')).to.equal(PositionMode.ONE_WAY);
    // with nothing held the tier is reset to 1
    expect(venue.leverage('alice', SYMBOL).map((r) => r.level)).to.deep.equal([1, 1]);
    assertClean(kit);
  });

  it('rejects_leverage_above_the_tier_of_the_resulting_size', () => {
    const kit = makeKit();
    const { venue } = kit;
    venue.deposit('whale', 'USDT', 1000000);
    // 15000 contracts fall in tier 2 (≤ 20000, max 50x): 100x is refused with errorCode 7
    const r = order(venue, 'whale', { side: S.OPEN_LONG, vol: 15000, price: 50000, leverage: 100 });
    expect(r.ok).to.equal(false);
    if (!r.ok) {
      expect(r.errorCode).to.equal(ContractOrderErrorCode.RISK_LIMIT_EXCEEDED);
      expect(r.order!.state).to.equal(ContractOrderState.INVALID);
    }
    expect(order(venue, 'whale', { side: S.OPEN_LONG, vol: 15000, price: 50000, leverage: 50 }).ok).to.equal(true);
    // open orders count towards the size: another 6000 at 50x reaches 21000 → tier 3 (max 20x)
    const more = order(venue, 'whale', { side: S.OPEN_LONG, vol: 6000, price: 50000, leverage: 50 });
    expect(more.ok ? -1 : more.errorCode).to.equal(ContractOrderErrorCode.RISK_LIMIT_EXCEEDED);
    assertClean(kit);
  });

  it('adds_and_removes_isolated_margin_within_limits', () => {
    const kit = arrangeLong();
    const { venue } = kit;
    venue.setFairPrice(SYMBOL, 50000);
    const id = venue.openPositions('alice')[0]!.positionId;
    const add = venue.changeMargin('alice', { positionId: id, amount: 100, type: 'ADD' });
    expect(add.ok).to.equal(true);
    if (add.ok) {
      expect(money(add.value.im)).to.equal('600');
      // (5000 − 600) / (0.1·0.996) = 44176.706… → 44176.8 shown
      expect(money(add.value.liquidatePrice!)).to.equal('44176.8');
    }
    expect(money(venue.asset('alice', 'USDT')!.availableBalance)).to.equal('9397');
    // removable: im 600 − initial requirement 5000/10 = 100
    const tooMuch = venue.changeMargin('alice', { positionId: id, amount: '100.01', type: 'SUB' });
    expect(tooMuch.ok ? 0 : tooMuch.code).to.equal(2005);
    expect(venue.changeMargin('alice', { positionId: id, amount: 100, type: 'SUB' }).ok).to.equal(true);
    expect(money(venue.openPositions('alice')[0]!.im)).to.equal('500');
    const unknown = venue.changeMargin('alice', { positionId: '777', amount: 1, type: 'ADD' });
    expect(unknown.ok ? 0 : unknown.code).to.equal(2009);
    expect(venue.changeMargin('alice', { positionId: id, amount: 100000, type: 'ADD' }).ok).to.equal(false);
    assertClean(kit);
  });

  it('refuses_margin_changes_on_cross_positions', () => {
    const kit = makeKit();
    const { venue } = kit;
    venue.deposit('alice', 'USDT', 10000);
    venue.deposit('mm', 'USDT', 1000000);
    placed(venue, 'mm', { side: S.OPEN_SHORT, vol: 100, price: 50000 });
    placed(venue, 'alice', { side: S.OPEN_LONG, vol: 100, price: 50000, openType: OpenType.CROSS });
    const id = venue.openPositions('alice')[0]!.positionId;
    const r = venue.changeMargin('alice', { positionId: id, amount: 1, type: 'ADD' });
    expect(r.ok ? 0 : r.code).to.equal(600);
    assertClean(kit);
  });

  it('changes_leverage_with_a_position_topping_up_margin', () => {
    const kit = arrangeLong();
    const { venue } = kit;
    const id = venue.openPositions('alice')[0]!.positionId;
    // 10x → 5x: requirement 5000/5 = 1000, im 500 → 500 more from the balance
    const r = venue.changeLeverage('alice', { positionId: id, leverage: 5 });
    expect(r.ok).to.equal(true);
    const pos = venue.openPositions('alice')[0]!;
    expect(pos.leverage).to.equal(5);
    expect(money(pos.im)).to.equal('1000');
    expect(money(venue.asset('alice', 'USDT')!.availableBalance)).to.equal('8997');
    // 5x → 20x keeps the margin
    venue.changeLeverage('alice', { positionId: id, leverage: 20 });
    expect(money(venue.openPositions('alice')[0]!.im)).to.equal('1000');
    const outOfBounds = venue.changeLeverage('alice', { positionId: id, leverage: 126 });
    expect(outOfBounds.ok ? 0 : outOfBounds.code).to.equal(2006);
    // a new opening order must use the side's leverage
    const other = order(venue, 'alice', { side: S.OPEN_LONG, vol: 1, price: 49000, leverage: 10 });
    expect(other.ok ? 0 : other.code).to.equal(2021);
    assertClean(kit);
  });

  it('changes_leverage_without_a_position_re_pricing_open_orders', () => {
    const kit = makeKit();
    const { venue } = kit;
    venue.deposit('alice', 'USDT', 10000);
    const bid = placed(venue, 'alice', { side: S.OPEN_LONG, vol: 1000, price: 49990 });
    const r = venue.changeLeverage('alice', { symbol: SYMBOL, openType: OpenType.ISOLATED, positionType: PositionType.LONG, leverage: 20 });
    expect(r.ok).to.equal(true);
    // ceil(4999/20) + 4999·0.0006 = 249.95 + 2.9994 = 252.9494
    expect(money(venue.getOrder('alice', bid.orderId)!.orderMargin)).to.equal('252.9494');
    expect(venue.leverage('alice', SYMBOL)[0]!.leverage).to.equal(20);
    // the setting is used by an order that gives no leverage
    const next = placed(venue, 'alice', { side: S.OPEN_LONG, vol: 1, price: 49000, leverage: null });
    expect(next.leverage).to.equal(20);
    // tier refusal without a position: 15000 contracts of orders at 100x
    venue.deposit('whale', 'USDT', 1000000);
    placed(venue, 'whale', { side: S.OPEN_LONG, vol: 15000, price: 40000, leverage: 20 });
    const tooHigh = venue.changeLeverage('whale', {
      symbol: SYMBOL,
      openType: OpenType.ISOLATED,
      positionType: PositionType.LONG,
      leverage: 100,
    });
    expect(tooHigh.ok ? -1 : tooHigh.errorCode).to.equal(ContractOrderErrorCode.RISK_LIMIT_EXCEEDED);
    assertClean(kit);
  });

  it('toggles_auto_add_margin_on_isolated_positions', () => {
    const kit = arrangeLong();
    const id = kit.venue.openPositions('alice')[0]!.positionId;
    const r = kit.venue.changeAutoAddIm('alice', id, true);
    expect(r.ok && r.value.autoAddIm).to.equal(true);
    assertClean(kit);
  });

  it('reverses_a_hedged_position_at_market', () => {
    const kit = arrangeLong();
    const { venue } = kit;
    venue.setFairPrice(SYMBOL, 50000);
    venue.deposit('mm2', 'USDT', 1000000);
    placed(venue, 'mm2', { side: S.OPEN_LONG, vol: 2000, price: 49000 });
    const id = venue.openPositions('alice')[0]!.positionId;
    const r = venue.reversePosition('alice', { symbol: SYMBOL, positionId: id, vol: 1000 });
    expect(r.ok).to.equal(true);
    const pos = venue.openPositions('alice');
    // closed the long at 49000 (−100) and opened a short 1000 @ 49000 with IM 4900/10 = 490
    expect(pos.map((p) => `${p.positionType}:${p.holdVol.toString()}@${p.holdAvgPrice.toString()}`)).to.deep.equal(['2:1000@49000']);
    expect(money(pos[0]!.im)).to.equal('490');
    // 9497 + 500 − 100 − 2.94 (close fee 4900·0.0006) − 490 − 2.94 = 9401.12
    expect(money(venue.asset('alice', 'USDT')!.availableBalance)).to.equal('9401.12');
    assertClean(kit);
  });

  it('closes_all_positions_at_market_cancelling_their_close_orders', () => {
    const kit = arrangeLong();
    const { venue } = kit;
    placed(venue, 'alice', { side: S.CLOSE_LONG, vol: 400, price: 55000 });
    placed(venue, 'mm', { side: S.CLOSE_SHORT, vol: 1000, price: 50000 });
    const r = venue.closeAll('alice');
    expect(r.length).to.equal(1);
    expect(r[0]!.result.ok).to.equal(true);
    expect(venue.openPositions('alice')).to.deep.equal([]);
    expect(venue.openOrders('alice').totalCount).to.equal(0);
    // flat at the entry price: 10000 − 3 − 3 = 9994
    expect(money(venue.asset('alice', 'USDT')!.availableBalance)).to.equal('9994');
    assertClean(kit);
  });

  it('refuses_close_orders_without_position_or_beyond_available_or_liquidation_price', () => {
    const kit = arrangeLong();
    const { venue } = kit;
    const none = order(venue, 'alice', { side: S.CLOSE_SHORT, vol: 1, price: 50000 });
    expect(none.ok ? -1 : none.errorCode).to.equal(ContractOrderErrorCode.POSITION_NOT_EXIST);
    placed(venue, 'alice', { side: S.CLOSE_LONG, vol: 700, price: 52000 });
    const small = order(venue, 'alice', { side: S.CLOSE_LONG, vol: 301, price: 52000 });
    expect(small.ok ? -1 : small.errorCode).to.equal(ContractOrderErrorCode.POSITION_TOO_SMALL);
    // liquidation price 45180.72…: a close-long limit below it is refused with errorCode 5
    const below = order(venue, 'alice', { side: S.CLOSE_LONG, vol: 100, price: 45180.7 });
    expect(below.ok ? -1 : below.errorCode).to.equal(ContractOrderErrorCode.PRICE_BEYOND_LIQUIDATION);
    expect(order(venue, 'alice', { side: S.CLOSE_LONG, vol: 100, price: 45180.8 }).ok).to.equal(true);
    assertClean(kit);
  });

  it('refuses_an_opening_order_whose_liquidation_price_passes_the_fair_price', () => {
    const kit = makeKit();
    const { venue } = kit;
    venue.deposit('alice', 'USDT', 100000);
    venue.setFairPrice(SYMBOL, 50000);
    // long at 54000 with 100x: (5400 − 54)/(0.1·0.996) = 53674.7 ≥ fair 50000 → errorCode 6
    const r = order(venue, 'alice', { side: S.OPEN_LONG, vol: 1000, price: 54000, leverage: 100 });
    expect(r.ok ? -1 : r.errorCode).to.equal(ContractOrderErrorCode.LIQUIDATION_BEYOND_FAIR);
    // at 10x: (5400 − 540)/0.0996 = 48795.2 < 50000 → accepted
    expect(order(venue, 'alice', { side: S.OPEN_LONG, vol: 1000, price: 54000, leverage: 10 }).ok).to.equal(true);
    assertClean(kit);
  });

  it('answers_the_read_only_queries', () => {
    const kit = arrangeLong();
    const { venue } = kit;
    placed(venue, 'alice', { side: S.OPEN_LONG, vol: 1, price: 49000, externalOid: 'q1' });
    placed(venue, 'alice', { side: S.OPEN_LONG, vol: 1, price: 48000, externalOid: 'q2' });
    const page = venue.openOrders('alice', { pageNum: 1, pageSize: 1 });
    expect(page.totalCount).to.equal(2);
    expect(page.totalPage).to.equal(2);
    expect(page.resultList[0]!.externalOid).to.equal('q2'); // newest first
    expect(venue.getOrderByExternalOid('alice', SYMBOL, 'q1')!.externalOid).to.equal('q1');
    expect(venue.historyOrders('alice', { states: [ContractOrderState.COMPLETED] }).totalCount).to.equal(1);
    expect(venue.openOrderCount('alice').sumCount).to.equal(2);
    expect(venue.openPositions('alice', { symbol: SYMBOL }).length).to.equal(1);
    expect(venue.openPositions('alice', { positionId: '999' }).length).to.equal(0);
    const lev = venue.leverage('alice', SYMBOL);
    expect(lev.map((r) => [r.positionType, r.leverage, r.level])).to.deep.equal([
      [1, 10, 1],
      [2, 20, 1],
    ]);
    expect(Object.keys(venue.riskLimits('alice'))).to.deep.equal([SYMBOL]);
    const depth = venue.depth(SYMBOL, 5);
    expect(depth.bids.map(([p, v, n]) => [p.toString(), v.toString(), n])).to.deep.equal([
      ['49000', '1', 1],
      ['48000', '1', 1],
    ]);
    expect(money(venue.openInterest(SYMBOL))).to.equal('1000');
    expect(venue.transferRecords('alice').resultList[0]!.type).to.equal('IN');
    expect(venue.fills('alice').totalCount).to.equal(1);
    assertClean(kit);
  });

  it('withdraws_only_what_is_available', () => {
    const kit = arrangeLong();
    const { venue } = kit;
    const r = venue.withdraw('alice', 'USDT', '9497.01');
    expect(r.ok ? 0 : r.code).to.equal(2005);
    expect(venue.withdraw('alice', 'USDT', 9497).ok).to.equal(true);
    expect(money(venue.asset('alice', 'USDT')!.availableBalance)).to.equal('0');
    assertClean(kit);
  });

  it('reverses_a_one_way_position_with_one_order', () => {
    const kit = makeKit();
    const { venue } = kit;
    venue.deposit('mm', 'USDT', 1000000);
    venue.openAccount('bob', PositionMode.ONE_WAY);
    venue.deposit('bob', 'USDT', 10000);
    venue.setFairPrice(SYMBOL, 50000);
    placed(venue, 'mm', { side: S.OPEN_SHORT, vol: 1000, price: 50000, leverage: 1 });
    placed(venue, 'bob', { side: S.OPEN_LONG, vol: 1000, price: 50000 });
    placed(venue, 'mm', { side: S.OPEN_LONG, vol: 2000, price: 50000, leverage: 1 });
    const id = venue.openPositions('bob')[0]!.positionId;
    const r = venue.reversePosition('bob', { symbol: SYMBOL, positionId: id, vol: 1000 });
    expect(r.ok && r.value.length).to.equal(1);
    // one sell of 2000: closes the long (margin 500 back, PnL 0), opens short 1000 (IM 500), fee 10000·0.0006 = 6
    // 9497 + 500 − 500 − 6 = 9491
    expect(venue.openPositions('bob').map((p) => `${p.positionType}:${p.holdVol.toString()}`)).to.deep.equal(['2:1000']);
    expect(money(venue.asset('bob', 'USDT')!.availableBalance)).to.equal('9491');
    assertClean(kit);
  });

  it('reports_profit_ratio_over_the_margin_booked', () => {
    const kit = arrangeLong();
    const { venue } = kit;
    placed(venue, 'mm', { side: S.CLOSE_SHORT, vol: 1000, price: 51000 });
    placed(venue, 'alice', { side: S.CLOSE_LONG, vol: 1000, price: 51000 });
    // realised 93.94 over 500 booked = 0.18788 → 0.1879
    expect(money(venue.historyPositions('alice').resultList[0]!.profitRatio)).to.equal('0.1879');
    assertClean(kit);
  });
});
