import { expect } from 'chai';
import {
  ContractOrderState,
  ContractSide,
  ContractOrderType,
  PositionMode,
  StopOrderState,
  TriggerSide,
} from '../../../../src/domain/contract-enums.js';
import type { VenueResult } from '../../../../src/venue/contract/contract-requests.js';
import type { StopOrderView } from '../../../../src/venue/contract/triggers/trigger-views.js';
import { order, placed, type Kit } from '../contract-test-kit.js';
import { alicePosition, bobBids, openLong, SYMBOL, triggerKit, usdt } from './trigger-kit.js';

const ok = <T>(r: VenueResult<T>): T => {
  if (!r.ok) throw new Error(`expected acceptance, got ${r.code} ${r.message}`);
  return r.value;
};
const only = (k: Kit): StopOrderView => {
  const list = k.venue.stopOrders('alice').resultList;
  expect(list).to.have.length(1);
  return list[0]!;
};

describe('contract venue: take-profit / stop-loss (stop) orders', () => {
  let k: Kit;
  beforeEach(() => {
    k = triggerKit();
  });
  afterEach(() => {
    expect(k.problems).to.deep.equal([]);
    expect(k.venue.checkInvariants()).to.deep.equal([]);
  });

  describe('attached at order/create', () => {
    it('binds_to_the_position_and_grows_with_each_fill_of_its_limit_order', () => {
      const o = placed(k.venue, 'alice', { side: ContractSide.OPEN_LONG, vol: 10, price: '50000', ...{} });
      expect(k.venue.openStopOrders('alice')).to.deep.equal([]);
      const withTpSl = ok(
        k.venue.placeOrder('alice', {
          symbol: SYMBOL,
          side: ContractSide.OPEN_LONG,
          vol: 10,
          price: '49990',
          type: ContractOrderType.LIMIT,
          openType: 1,
          leverage: 10,
          stopLossPrice: '49000',
          lossTrend: 2,
          takeProfitPrice: '52000',
        }),
      );
      let s = k.venue.openStopOrders('alice')[0]!;
      // Waiting for its order: no position yet, vol 0.
      expect([s.orderId, s.positionId, s.vol.toFixed(), s.state, s.lossTrend, s.profitTrend, s.isFinished]).to.deep.equal([
        withTpSl.orderId,
        '0',
        '0',
        1,
        2,
        1,
        0,
      ]);
      k.venue.cancelOrders('alice', [o.orderId]);
      // bob sells 4 then 6 into alice's 49990 bid: the stop order follows the filled volume.
      placed(k.venue, 'bob', { side: ContractSide.OPEN_SHORT, vol: 4, price: '49990' });
      const pos = alicePosition(k)!;
      s = k.venue.openStopOrders('alice')[0]!;
      expect([s.positionId, s.vol.toFixed(), s.positionType]).to.deep.equal([pos.positionId, '4', 1]);
      placed(k.venue, 'bob', { side: ContractSide.OPEN_SHORT, vol: 6, price: '49990' });
      s = k.venue.openStopOrders('alice')[0]!;
      expect([s.positionId, s.vol.toFixed(), s.volType, s.profitLossVolType]).to.deep.equal([pos.positionId, '10', 1, 'SAME']);
    });

    it('counts_the_fill_of_an_order_that_takes_at_once', () => {
      placed(k.venue, 'bob', { side: ContractSide.OPEN_SHORT, vol: 10, price: '50000' });
      ok(
        k.venue.placeOrder('alice', {
          symbol: SYMBOL,
          side: ContractSide.OPEN_LONG,
          vol: 10,
          price: '50000',
          type: 1,
          openType: 1,
          leverage: 10,
          stopLossPrice: '49000',
        }),
      );
      const s = only(k);
      expect([s.vol.toFixed(), s.positionId, s.state]).to.deep.equal(['10', alicePosition(k)!.positionId, 1]);
    });

    it('is_cancelled_when_its_order_ends_unfilled', () => {
      const o = ok(
        k.venue.placeOrder('alice', {
          symbol: SYMBOL,
          side: ContractSide.OPEN_LONG,
          vol: 10,
          price: '49000',
          type: 1,
          openType: 1,
          leverage: 10,
          takeProfitPrice: '51000',
        }),
      );
      k.venue.cancelOrders('alice', [o.orderId]);
      const s = only(k);
      expect([s.state, s.isFinished, s.vol.toFixed()]).to.deep.equal([StopOrderState.CANCELLED, 1, '0']);
    });

    it('fires_the_stop_loss_on_the_fair_price_and_closes_at_market', () => {
      placed(k.venue, 'bob', { side: ContractSide.OPEN_SHORT, vol: 10, price: '50000' });
      ok(
        k.venue.placeOrder('alice', {
          symbol: SYMBOL,
          side: ContractSide.OPEN_LONG,
          vol: 10,
          price: '50000',
          type: 1,
          openType: 1,
          leverage: 10,
          stopLossPrice: '49000',
          lossTrend: 2,
          takeProfitPrice: '52000',
        }),
      );
      bobBids(k, 10, '49000');
      // Other trends and a fair price just above do not fire it.
      k.venue.setIndexPrice(SYMBOL, '48000');
      k.venue.setFairPrice(SYMBOL, '49000.1');
      expect(only(k).state).to.equal(StopOrderState.UNTRIGGERED);
      k.venue.setFairPrice(SYMBOL, '49000');
      const s = only(k);
      expect([s.state, s.triggerSide, s.realityVol.toFixed(), s.isFinished, s.errorCode, s.closeTryTimes]).to.deep.equal([
        3,
        TriggerSide.STOP_LOSS,
        '10',
        1,
        0,
        1,
      ]);
      const close = k.venue.getOrder('alice', s.placeOrderId)!;
      expect([close.side, close.orderType, close.state, close.dealVol.toFixed(), close.dealAvgPrice.toFixed()]).to.deep.equal([
        4,
        5,
        3,
        '10',
        '49000',
      ]);
      expect(k.venue.openPositions('alice')).to.deep.equal([]);
      // alice: open fee 50·0.0006 = 0.03; close (49000−50000)·10·0.0001 = −1, fee 49·0.0006 = 0.0294
      // → 10000 − 0.03 − 1 − 0.0294 = 9998.9406.
      expect(usdt(k, 'alice')).to.equal('9998.9406');
      // bob (maker both times): −50·0.0002 + 1 − 49·0.0002 = 10000.9802.
      expect(usdt(k, 'bob')).to.equal('10000.9802');
    });

    it('works_for_a_one_way_account', () => {
      k.venue.openAccount('dave', PositionMode.ONE_WAY);
      k.venue.deposit('dave', 'USDT', '10000');
      placed(k.venue, 'bob', { side: ContractSide.OPEN_SHORT, vol: 10, price: '50000' });
      ok(
        k.venue.placeOrder('dave', {
          symbol: SYMBOL,
          side: ContractSide.OPEN_LONG,
          vol: 10,
          price: '50000',
          type: 1,
          openType: 1,
          leverage: 10,
          takeProfitPrice: '51000',
          profitTrend: 3,
        }),
      );
      bobBids(k, 10, '51000');
      k.venue.setIndexPrice(SYMBOL, '51000');
      const s = k.venue.stopOrders('dave').resultList[0]!;
      expect([s.state, s.triggerSide, s.realityVol.toFixed()]).to.deep.equal([3, TriggerSide.TAKE_PROFIT, '10']);
      expect(k.venue.openPositions('dave')).to.deep.equal([]);
    });

    it('refuses_a_bad_tp_sl_before_placing_the_order', () => {
      const base = {
        symbol: SYMBOL,
        side: ContractSide.OPEN_LONG,
        vol: 10,
        price: '50000',
        type: ContractOrderType.LIMIT,
        openType: 1 as const,
        leverage: 10,
      };
      const code = (over: object): number => {
        const r = k.venue.placeOrder('alice', { ...base, ...over });
        return r.ok ? 0 : r.code;
      };
      expect(code({ stopLossPrice: '50000' })).to.equal(600); // a long's stop-loss must lie below the order price
      expect(code({ takeProfitPrice: '49000' })).to.equal(600);
      expect(code({ stopLossPrice: '49000', lossTrend: 4 })).to.equal(3001);
      expect(code({ stopLossPrice: '49000.05' })).to.equal(2015);
      expect(code({ stopLossPrice: '-1' })).to.equal(600);
      expect(code({ side: ContractSide.CLOSE_LONG, stopLossPrice: '49000' })).to.equal(600);
      // A short's legs the other way round; a price of 0 means none.
      expect(code({ side: ContractSide.OPEN_SHORT, stopLossPrice: '51000', takeProfitPrice: '0' })).to.equal(0);
      expect(k.venue.openOrders('alice').resultList).to.have.length(1);
    });

    it('changes_replaces_and_cancels_the_tp_sl_of_a_limit_order', () => {
      const o = placed(k.venue, 'alice', { side: ContractSide.OPEN_LONG, vol: 10, price: '49500' });
      expect(k.venue.changeStopPrice('alice', { orderId: '999999', stopLossPrice: '48000' })).to.include({ ok: false, code: 2040 });
      let s = ok(
        k.venue.changeStopPrice('alice', {
          orderId: o.orderId,
          stopLossPrice: '48000',
          lossTrend: 3,
          takeProfitPrice: '51000',
          takeProfitReverse: 1,
        }),
      )!;
      expect([
        s.orderId,
        s.stopLossPrice?.toFixed(),
        s.lossTrend,
        s.takeProfitPrice?.toFixed(),
        s.takeProfitReverse,
        s.stopLossReverse,
      ]).to.deep.equal([o.orderId, '48000', 3, '51000', 1, 2]);
      // Replacement: the stop-loss omitted is removed, the trend kept.
      s = ok(k.venue.changeStopPrice('alice', { orderId: o.orderId, takeProfitPrice: '52000' }))!;
      // version 1 at creation, 2 after the change.
      expect([s.stopLossPrice, s.takeProfitPrice?.toFixed(), s.version]).to.deep.equal([undefined, '52000', 2]);
      expect(k.venue.changeStopPrice('alice', { orderId: o.orderId, takeProfitPrice: '49000' })).to.include({ ok: false, code: 600 });
      // Both empty / 0 cancels.
      expect(ok(k.venue.changeStopPrice('alice', { orderId: o.orderId, stopLossPrice: 0, takeProfitPrice: null }))).to.equal(undefined);
      expect(k.venue.openStopOrders('alice')).to.deep.equal([]);
      expect(k.venue.stopOrders('alice').resultList.map((x) => x.state)).to.deep.equal([StopOrderState.CANCELLED]);
      // A filled (no longer open) order without a TP/SL cannot get one this way.
      placed(k.venue, 'bob', { side: ContractSide.OPEN_SHORT, vol: 10, price: '49500' });
      expect(k.venue.changeStopPrice('alice', { orderId: o.orderId, stopLossPrice: '48000' })).to.include({ ok: false, code: 2041 });
    });
  });

  describe('on a position', () => {
    it('takes_profit_and_reverses_into_a_short_of_the_same_size', () => {
      const pos = openLong(k);
      const s0 = ok(
        k.venue.placeStopOrder('alice', {
          symbol: SYMBOL,
          positionId: pos.positionId,
          vol: 10,
          takeProfitPrice: '51000',
          profitTrend: 2,
          takeProfitReverse: 1,
        }),
      );
      expect([s0.orderId, s0.positionId, s0.vol.toFixed(), s0.volType]).to.deep.equal(['0', pos.positionId, '10', 1]);
      bobBids(k, 10, '51000');
      placed(k.venue, 'bob', { side: ContractSide.OPEN_LONG, vol: 10, price: '51000' });
      k.venue.setFairPrice(SYMBOL, '51000');
      const s = only(k);
      expect([s.state, s.triggerSide, s.realityVol.toFixed(), s.reverseTryTimes, s.reverseErrorCode]).to.deep.equal([
        3,
        TriggerSide.TAKE_PROFIT,
        '10',
        1,
        0,
      ]);
      const reverse = k.venue.getOrder('alice', s.reverseOrderId!)!;
      expect([reverse.side, reverse.orderType, reverse.dealVol.toFixed(), reverse.dealAvgPrice.toFixed()]).to.deep.equal([
        3,
        5,
        '10',
        '51000',
      ]);
      const short = alicePosition(k, 'short')!;
      expect([alicePosition(k), short.holdVol.toFixed(), short.openAvgPrice.toFixed(), short.im.toFixed(), short.leverage]).to.deep.equal([
        undefined,
        '10',
        '51000',
        '5.1',
        10,
      ]);
      // 10000 − 0.03 (open) + 1 (close (51000−50000)·10·0.0001) − 0.0306 (close fee 51·0.0006)
      // − 0.0306 (reverse fee) − 5.1 (reverse im 51/10) = 9995.8088
      expect(usdt(k, 'alice')).to.equal('9995.8088');
    });

    it('takes_profit_with_a_limit_order_at_its_order_price', () => {
      const pos = openLong(k);
      ok(
        k.venue.placeStopOrder('alice', {
          positionId: pos.positionId,
          vol: 10,
          takeProfitPrice: '51000',
          profitTrend: 2,
          takeProfitType: 1,
          takeProfitOrderPrice: '51500',
        }),
      );
      k.venue.setFairPrice(SYMBOL, '51000');
      const s = only(k);
      const close = k.venue.getOrder('alice', s.placeOrderId)!;
      expect([s.state, close.orderType, close.price.toFixed(), close.state, alicePosition(k)!.frozenVol.toFixed()]).to.deep.equal([
        3,
        1,
        '51500',
        ContractOrderState.UNCOMPLETED,
        '10',
      ]);
      placed(k.venue, 'bob', { side: ContractSide.CLOSE_SHORT, vol: 10, price: '51500' });
      expect(alicePosition(k)).to.equal(undefined);
      // 10000 − 0.03 + 1.5 ((51500−50000)·10·0.0001) − 0.0103 (maker 51.5·0.0002) = 10001.4597
      expect(usdt(k, 'alice')).to.equal('10001.4597');
    });

    it('reverses_a_limit_close_only_once_it_has_filled', () => {
      const pos = openLong(k);
      ok(
        k.venue.placeStopOrder('alice', {
          positionId: pos.positionId,
          vol: 10,
          stopLossPrice: '49000',
          lossTrend: 2,
          stopLossType: 1,
          stopLossOrderPrice: '48900',
          stopLossReverse: 1,
        }),
      );
      k.venue.setFairPrice(SYMBOL, '49000');
      bobBids(k, 10, '48800');
      // The close rests at 48900 (bob's 48800 bid does not reach it): no reverse yet.
      expect([only(k).state, only(k).reverseTryTimes, alicePosition(k, 'short')]).to.deep.equal([3, 0, undefined]);
      // bob lifts the close; the reverse then sells 10 at market into bob's 48800 bid.
      placed(k.venue, 'bob', { side: ContractSide.OPEN_LONG, vol: 10, price: '48900' });
      const s = only(k);
      const short = alicePosition(k, 'short')!;
      expect([
        s.reverseTryTimes,
        s.reverseErrorCode,
        alicePosition(k),
        short.holdVol.toFixed(),
        short.openAvgPrice.toFixed(),
      ]).to.deep.equal([1, 0, undefined, '10', '48800']);
    });

    it('closes_separate_volumes_per_leg', () => {
      const pos = openLong(k);
      const placedStop = ok(
        k.venue.placeStopOrder('alice', {
          positionId: pos.positionId,
          vol: 10,
          profitLossVolType: 'SEPARATE',
          stopLossPrice: '49000',
          lossTrend: 2,
          stopLossVol: 7,
          takeProfitPrice: '52000',
          takeProfitVol: 3,
        }),
      );
      expect([placedStop.stopLossVol?.toFixed(), placedStop.takeProfitVol?.toFixed()]).to.deep.equal(['7', '3']);
      bobBids(k, 10, '49000');
      k.venue.setFairPrice(SYMBOL, '49000');
      const s = only(k);
      expect([s.state, s.triggerSide, s.realityVol.toFixed(), alicePosition(k)!.holdVol.toFixed()]).to.deep.equal([3, 2, '7', '3']);
      // free after the open: 10000 − 5 (im) − 0.03 = 9994.97; the close of 7 releases im 3.5,
      // realises (49000−50000)·7·0.0001 = −0.7 and pays 34.3·0.0006 = 0.02058 → 9997.74942.
      expect(usdt(k, 'alice')).to.equal('9997.74942');
    });

    it('closes_a_partial_vol_and_leaves_the_rest', () => {
      const pos = openLong(k);
      ok(k.venue.placeStopOrder('alice', { positionId: pos.positionId, vol: 4, stopLossPrice: '49000', lossTrend: 2 }));
      bobBids(k, 10, '49000');
      k.venue.setFairPrice(SYMBOL, '49000');
      expect([only(k).realityVol.toFixed(), alicePosition(k)!.holdVol.toFixed()]).to.deep.equal(['4', '6']);
    });

    it('follows_the_position_size_at_position_level_and_frees_its_close_orders', () => {
      const pos = openLong(k);
      const s0 = ok(
        k.venue.placeStopOrder('alice', { positionId: pos.positionId, vol: 1, volType: 2, stopLossPrice: '49000', lossTrend: 2 }),
      );
      expect(s0.vol.toFixed()).to.equal('10');
      openLong(k, 5);
      expect(only(k).vol.toFixed()).to.equal('15');
      const resting = placed(k.venue, 'alice', { side: ContractSide.CLOSE_LONG, vol: 5, price: '60000' });
      bobBids(k, 15, '49000');
      k.venue.setFairPrice(SYMBOL, '49000');
      const s = only(k);
      expect([
        s.state,
        s.realityVol.toFixed(),
        s.vol.toFixed(),
        k.venue.getOrder('alice', resting.orderId)!.state,
        alicePosition(k),
      ]).to.deep.equal([3, '15', '15', ContractOrderState.CANCELLED, undefined]);
    });

    it('replaces_the_previous_position_level_stop', () => {
      const pos = openLong(k);
      const first = ok(k.venue.placeStopOrder('alice', { positionId: pos.positionId, vol: 10, volType: 2, stopLossPrice: '49000' }));
      const second = ok(k.venue.placeStopOrder('alice', { positionId: pos.positionId, vol: 10, volType: 2, stopLossPrice: '48000' }));
      expect(k.venue.stopOrder('alice', first.id)!.state).to.equal(StopOrderState.CANCELLED);
      expect(k.venue.openStopOrders('alice').map((s) => s.id)).to.deep.equal([second.id]);
    });

    it('becomes_invalid_when_its_position_closes_first', () => {
      const pos = openLong(k);
      ok(k.venue.placeStopOrder('alice', { positionId: pos.positionId, vol: 10, stopLossPrice: '49000' }));
      bobBids(k, 10, '50000');
      placed(k.venue, 'alice', { side: ContractSide.CLOSE_LONG, vol: 10, price: '50000' });
      const s = only(k);
      expect([s.state, s.isFinished]).to.deep.equal([StopOrderState.INVALID, 1]);
    });

    it('fails_with_error_4_when_its_close_orders_hold_the_whole_position', () => {
      const pos = openLong(k);
      placed(k.venue, 'alice', { side: ContractSide.CLOSE_LONG, vol: 10, price: '60000' });
      ok(k.venue.placeStopOrder('alice', { positionId: pos.positionId, vol: 10, stopLossPrice: '49000', lossTrend: 2 }));
      k.venue.setFairPrice(SYMBOL, '49000');
      const s = only(k);
      expect([s.state, s.errorCode, s.placeOrderId, s.isFinished]).to.deep.equal([StopOrderState.FAILED, 4, '0', 1]);
      expect(alicePosition(k)!.holdVol.toFixed()).to.equal('10');
    });

    it('refuses_bad_placements_with_their_codes', () => {
      const pos = openLong(k);
      const code = (over: object): number => {
        const r = k.venue.placeStopOrder('alice', { positionId: pos.positionId, vol: 10, stopLossPrice: '49000', ...over });
        return r.ok ? 0 : r.code;
      };
      expect(code({ positionId: '123456' })).to.equal(2009);
      expect(code({ stopLossPrice: 0 })).to.equal(600);
      expect(code({ vol: 11 })).to.equal(2008);
      expect(code({ vol: '1.5' })).to.equal(2015);
      expect(code({ lossTrend: 7 })).to.equal(3001);
      expect(code({ stopLossPrice: '50100' })).to.equal(600); // above the current latest price 50000
      expect(code({ stopLossType: 1 })).to.equal(600); // limit without an order price
      expect(code({ profitLossVolType: 'SEPARATE' })).to.equal(600); // no stopLossVol
      expect(code({ symbol: 'ETH_USDT' })).to.equal(600);
      expect(k.venue.openStopOrders('alice')).to.deep.equal([]);
    });
  });

  describe('change_plan_price, cancel and lists', () => {
    it('sets_removes_and_keeps_legs', () => {
      const pos = openLong(k);
      const s = ok(
        k.venue.placeStopOrder('alice', { positionId: pos.positionId, vol: 10, stopLossPrice: '49000', takeProfitPrice: '52000' }),
      );
      expect(k.venue.changeStopPlanPrice('alice', { stopPlanOrderId: '1', stopLossPrice: '48000' })).to.include({ ok: false, code: 2040 });
      expect(k.venue.changeStopPlanPrice('alice', { stopPlanOrderId: s.id })).to.include({ ok: false, code: 600 });
      let c = ok(k.venue.changeStopPlanPrice('alice', { stopPlanOrderId: s.id, stopLossPrice: '48500', lossTrend: 3 }));
      expect([c.stopLossPrice?.toFixed(), c.lossTrend, c.takeProfitPrice?.toFixed(), c.profitTrend]).to.deep.equal([
        '48500',
        3,
        '52000',
        1,
      ]);
      c = ok(k.venue.changeStopPlanPrice('alice', { stopPlanOrderId: s.id, stopLossPrice: 0, takeProfitPrice: '53000', profitTrend: 2 }));
      expect([c.stopLossPrice, c.takeProfitPrice?.toFixed(), c.profitTrend]).to.deep.equal([undefined, '53000', 2]);
      expect(k.venue.changeStopPlanPrice('alice', { stopPlanOrderId: s.id, takeProfitPrice: '53000', profitTrend: 9 })).to.include({
        ok: false,
        code: 3001,
      });
      k.venue.cancelStopOrders('alice', [s.id]);
      expect(k.venue.changeStopPlanPrice('alice', { stopPlanOrderId: s.id, takeProfitPrice: '54000' })).to.include({
        ok: false,
        code: 2041,
      });
    });

    it('cancels_per_element_and_all_of_a_position', () => {
      const pos = openLong(k);
      const a = ok(k.venue.placeStopOrder('alice', { positionId: pos.positionId, vol: 5, stopLossPrice: '49000' }));
      const b = ok(k.venue.placeStopOrder('alice', { positionId: pos.positionId, vol: 5, stopLossPrice: '48000' }));
      const c = ok(k.venue.placeStopOrder('alice', { positionId: pos.positionId, vol: 5, takeProfitPrice: '51000' }));
      expect(k.venue.cancelStopOrders('alice', [a.id, '42', a.id]).map((e) => [e.orderId, e.errorCode])).to.deep.equal([
        [a.id, 0],
        ['42', 2040],
        [a.id, 2041],
      ]);
      expect(k.venue.cancelStopOrders('bob', [b.id]).map((e) => e.errorCode)).to.deep.equal([2040]);
      expect(k.venue.cancelAllStopOrders('alice', { positionId: pos.positionId })).to.equal(2);
      expect([b.id, c.id].map((id) => k.venue.stopOrder('alice', id)!.state)).to.deep.equal([2, 2]);
    });

    it('lists_with_filters_newest_first_and_pages', () => {
      const pos = openLong(k);
      const a = ok(k.venue.placeStopOrder('alice', { positionId: pos.positionId, vol: 5, stopLossPrice: '49000' }));
      k.clock.advanceBy(1000);
      const b = ok(k.venue.placeStopOrder('alice', { positionId: pos.positionId, vol: 5, takeProfitPrice: '51000' }));
      k.clock.advanceBy(1000);
      const c = ok(k.venue.placeStopOrder('alice', { positionId: pos.positionId, vol: 5, takeProfitPrice: '52000' }));
      k.venue.cancelStopOrders('alice', [b.id]);
      const ids = (q: object) => k.venue.stopOrders('alice', q).resultList.map((s) => s.id);
      expect(ids({})).to.deep.equal([c.id, b.id, a.id]);
      expect(ids({ isFinished: 1 })).to.deep.equal([b.id]);
      expect(ids({ isFinished: 0, state: 1 })).to.deep.equal([c.id, a.id]);
      expect(ids({ positionType: 2 })).to.deep.equal([]);
      expect(ids({ symbol: 'ETH_USDT' })).to.deep.equal([]);
      expect(ids({ startTime: b.createTime, endTime: b.createTime })).to.deep.equal([b.id]);
      const page2 = k.venue.stopOrders('alice', { pageNum: 2, pageSize: 2 });
      expect([page2.totalCount, page2.totalPage, page2.currentPage, page2.resultList.map((s) => s.id)]).to.deep.equal([3, 2, 2, [a.id]]);
      expect(k.venue.openStopOrders('alice', SYMBOL).map((s) => s.id)).to.deep.equal([c.id, a.id]);
      expect(k.venue.openStopOrders('bob')).to.deep.equal([]);
    });
  });

  it('keeps_the_resting_limit_order_counts_apart_from_stop_counts', () => {
    const pos = openLong(k);
    ok(k.venue.placeStopOrder('alice', { positionId: pos.positionId, vol: 5, stopLossPrice: '49000' }));
    placed(k.venue, 'alice', { side: ContractSide.OPEN_LONG, vol: 1, price: '49000' });
    const r = order(k.venue, 'alice', { side: ContractSide.OPEN_LONG, vol: 1, price: '48000' });
    expect(r.ok).to.equal(true);
    expect(k.venue.openOrderCount('alice')).to.deep.equal({
      sumCount: 3,
      limitOrderCount: 2,
      stopOrderCount: 1,
      planOrderCount: 0,
      trackOrderCount: 0,
    });
  });
});
