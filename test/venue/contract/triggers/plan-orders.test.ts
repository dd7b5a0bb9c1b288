import { expect } from 'chai';
import { ContractOrderType, ContractSide, PlanOrderState, PositionMode } from '../../../../src/domain/contract-enums.js';
import type { VenueResult } from '../../../../src/venue/contract/contract-requests.js';
import type { PlacePlanOrderRequest } from '../../../../src/venue/contract/triggers/trigger-requests.js';
import { placed, type Kit } from '../contract-test-kit.js';
import { alicePosition, SYMBOL, triggerKit, usdt } from './trigger-kit.js';

const ok = <T>(r: VenueResult<T>): T => {
  if (!r.ok) throw new Error(`expected acceptance, got ${r.code} ${r.message}`);
  return r.value;
};
const HOUR = 3_600_000;

/** Open long 10 at the limit 50500 once the INDEX price is ≥ 50500, valid 24 hours. */
const longOnIndex: PlacePlanOrderRequest = {
  symbol: SYMBOL,
  side: ContractSide.OPEN_LONG,
  vol: 10,
  price: '50500',
  leverage: 10,
  openType: 1,
  triggerPrice: '50500',
  triggerType: 1,
  trend: 3,
  orderType: ContractOrderType.LIMIT,
  executeCycle: 24,
};

describe('contract venue: trigger (plan) orders', () => {
  let k: Kit;
  beforeEach(() => {
    k = triggerKit();
  });
  afterEach(() => {
    expect(k.problems).to.deep.equal([]);
    expect(k.venue.checkInvariants()).to.deep.equal([]);
  });

  it('fires_on_the_index_price_and_places_its_limit_order', () => {
    const plan = ok(k.venue.placePlanOrder('alice', longOnIndex));
    expect([plan.state, plan.executeCycle, plan.expireTime - plan.createTime, plan.orderId]).to.deep.equal([1, 24, 24 * HOUR, undefined]);
    // No margin is reserved while it waits.
    expect(usdt(k, 'alice')).to.equal('10000');
    placed(k.venue, 'bob', { side: ContractSide.OPEN_SHORT, vol: 10, price: '50500' });
    k.venue.setIndexPrice(SYMBOL, '50499.9');
    k.venue.setFairPrice(SYMBOL, '50600');
    expect(k.venue.planOrder('alice', plan.id)!.state).to.equal(PlanOrderState.UNTRIGGERED);
    k.venue.setIndexPrice(SYMBOL, '50500');
    const fired = k.venue.planOrder('alice', plan.id)!;
    expect([fired.state, fired.errorCode]).to.deep.equal([PlanOrderState.EXECUTED, 0]);
    const o = k.venue.getOrder('alice', fired.orderId!)!;
    expect([o.side, o.orderType, o.price.toFixed(), o.state, o.dealVol.toFixed()]).to.deep.equal([1, 1, '50500', 3, '10']);
    expect([alicePosition(k)!.holdVol.toFixed(), alicePosition(k)!.openAvgPrice.toFixed()]).to.deep.equal(['10', '50500']);
    // im 50.5 / 10 = 5.05, taker fee 50.5·0.0006 = 0.0303 → 10000 − 5.05 − 0.0303 = 9994.9197
    expect(usdt(k, 'alice')).to.equal('9994.9197');
  });

  it('fires_a_market_order_when_the_fair_price_falls_to_its_trigger', () => {
    const plan = ok(
      k.venue.placePlanOrder('alice', {
        ...longOnIndex,
        side: ContractSide.OPEN_SHORT,
        vol: 5,
        price: undefined,
        orderType: ContractOrderType.MARKET,
        triggerPrice: '49500',
        triggerType: 2,
        trend: 2,
      }),
    );
    expect(plan.price.toFixed()).to.equal('0');
    placed(k.venue, 'bob', { side: ContractSide.OPEN_LONG, vol: 5, price: '49500' });
    k.venue.setIndexPrice(SYMBOL, '49000');
    k.venue.setFairPrice(SYMBOL, '49500.1');
    expect(k.venue.planOrder('alice', plan.id)!.state).to.equal(1);
    k.venue.setFairPrice(SYMBOL, '49500');
    const o = k.venue.getOrder('alice', k.venue.planOrder('alice', plan.id)!.orderId!)!;
    expect([o.side, o.orderType, o.dealVol.toFixed(), o.dealAvgPrice.toFixed()]).to.deep.equal([3, 5, '5', '49500']);
  });

  it('fires_on_the_latest_price_after_a_trade', () => {
    const plan = ok(k.venue.placePlanOrder('alice', { ...longOnIndex, trend: 1, orderType: ContractOrderType.LIMIT, price: '50600' }));
    placed(k.venue, 'bob', { side: ContractSide.OPEN_SHORT, vol: 11, price: '50500' });
    // carol lifts 1 contract at 50500: the last price reaches the trigger, alice's plan buys the other 10.
    placed(k.venue, 'carol', { side: ContractSide.OPEN_LONG, vol: 1, price: '50500' });
    const fired = k.venue.planOrder('alice', plan.id)!;
    expect([fired.state, k.venue.getOrder('alice', fired.orderId!)!.dealVol.toFixed()]).to.deep.equal([3, '10']);
  });

  it('expires_after_its_execute_cycle_and_never_fires', () => {
    const plan = ok(k.venue.placePlanOrder('alice', { ...longOnIndex, executeCycle: 2 }));
    k.clock.advanceBy(2 * HOUR - 1);
    expect(k.venue.planOrder('alice', plan.id)!.state).to.equal(1);
    k.clock.advanceBy(1);
    // Expired by time alone: shown as invalid before any price update arrives.
    const shown = k.venue.planOrder('alice', plan.id)!;
    expect([shown.state, shown.updateTime]).to.deep.equal([PlanOrderState.INVALID, plan.createTime + 2 * HOUR]);
    expect(k.venue.openOrderCount('alice').planOrderCount).to.equal(0);
    placed(k.venue, 'bob', { side: ContractSide.OPEN_SHORT, vol: 10, price: '50500' });
    k.clock.advanceBy(5000);
    k.venue.setIndexPrice(SYMBOL, '50500');
    const after = k.venue.planOrder('alice', plan.id)!;
    expect([after.state, after.orderId, after.updateTime, alicePosition(k)]).to.deep.equal([
      PlanOrderState.INVALID,
      undefined,
      plan.createTime + 2 * HOUR,
      undefined,
    ]);
    expect(k.venue.cancelPlanOrders('alice', [{ symbol: SYMBOL, orderId: plan.id }]).map((e) => e.errorCode)).to.deep.equal([2041]);
  });

  it('fails_with_the_order_error_when_its_order_is_refused', () => {
    // Close a long that does not exist: the placed order is invalid with errorCode 3.
    const plan = ok(k.venue.placePlanOrder('alice', { ...longOnIndex, side: ContractSide.CLOSE_LONG, leverage: undefined }));
    k.venue.setIndexPrice(SYMBOL, '50500');
    const p = k.venue.planOrder('alice', plan.id)!;
    expect([p.state, p.errorCode]).to.deep.equal([PlanOrderState.FAILED, 3]);
    expect(k.venue.getOrder('alice', p.orderId!)!.state).to.equal(5);
  });

  it('refuses_bad_plan_orders_with_their_codes', () => {
    const code = (over: Partial<PlacePlanOrderRequest>): number => {
      const r = k.venue.placePlanOrder('alice', { ...longOnIndex, ...over });
      return r.ok ? 0 : r.code;
    };
    expect(code({ symbol: 'DOGE_USDT' })).to.equal(1001);
    expect(code({ trend: 4 })).to.equal(3001);
    expect(code({ triggerType: 3 })).to.equal(600);
    expect(code({ triggerPrice: '50500.05' })).to.equal(2015);
    expect(code({ triggerPrice: 0 })).to.equal(600);
    expect(code({ executeCycle: 0 })).to.equal(600);
    expect(code({ orderType: 6 as ContractOrderType })).to.equal(600);
    expect(code({ price: undefined })).to.equal(2015);
    expect(code({ leverage: 500 })).to.equal(2006);
    expect(code({ positionMode: PositionMode.ONE_WAY })).to.equal(600);
    expect(code({ stopLossPrice: '51000' })).to.equal(600); // a long's stop-loss above its price
    expect(code({ side: ContractSide.CLOSE_LONG, takeProfitPrice: '52000' })).to.equal(600);
    expect(k.venue.planOrders('alice').totalCount).to.equal(0);
  });

  describe('change_stop_order', () => {
    it('applies_the_documented_rules_and_the_order_carries_its_tp_sl', () => {
      const plan = ok(k.venue.placePlanOrder('alice', longOnIndex));
      const change = (over: object) => k.venue.changePlanStopOrder('alice', { symbol: SYMBOL, orderId: plan.id, ...over });
      // Rule 1: a price > 0 needs trend 1–3.
      expect(change({ stopLossPrice: '49000', lossTrend: 4 })).to.include({ ok: false, code: 3001 });
      expect(change({ takeProfitPrice: '52000', profitTrend: 0 })).to.include({ ok: false, code: 3001 });
      // Rule 3: an omitted trend is 1.
      let p = ok(change({ stopLossPrice: '49000' }));
      expect([p.stopLossPrice?.toFixed(), p.lossTrend, p.takeProfitPrice]).to.deep.equal(['49000', 1, undefined]);
      p = ok(change({ stopLossPrice: '49000', lossTrend: 2, takeProfitPrice: '52000', profitTrend: 3 }));
      expect([p.lossTrend, p.takeProfitPrice?.toFixed(), p.profitTrend]).to.deep.equal([2, '52000', 3]);
      // Rule 2: null or 0 cancels that side; both cancels both.
      p = ok(change({ stopLossPrice: null, takeProfitPrice: '52000', profitTrend: 3 }));
      expect([p.stopLossPrice, p.lossTrend, p.takeProfitPrice?.toFixed()]).to.deep.equal([undefined, undefined, '52000']);
      p = ok(change({ stopLossPrice: 0, takeProfitPrice: null, lossTrend: 9 }));
      expect([p.stopLossPrice, p.takeProfitPrice]).to.deep.equal([undefined, undefined]);
      expect(change({ symbol: 'ETH_USDT', stopLossPrice: '49000' })).to.include({ ok: false, code: 2040 });

      ok(change({ stopLossPrice: '49000', lossTrend: 2, takeProfitPrice: '52000' }));
      placed(k.venue, 'bob', { side: ContractSide.OPEN_SHORT, vol: 10, price: '50500' });
      k.venue.setIndexPrice(SYMBOL, '50500');
      const orderId = k.venue.planOrder('alice', plan.id)!.orderId!;
      const stops = k.venue.openStopOrders('alice');
      expect(
        stops.map((s) => [
          s.orderId,
          s.vol.toFixed(),
          s.stopLossPrice?.toFixed(),
          s.lossTrend,
          s.takeProfitPrice?.toFixed(),
          s.profitTrend,
        ]),
      ).to.deep.equal([[orderId, '10', '49000', 2, '52000', 1]]);
      expect(change({ stopLossPrice: '48000' })).to.include({ ok: false, code: 2041 });
    });
  });

  it('cancels_per_element_cancels_all_and_lists_with_filters', () => {
    const a = ok(k.venue.placePlanOrder('alice', longOnIndex));
    k.clock.advanceBy(1000);
    const b = ok(k.venue.placePlanOrder('alice', { ...longOnIndex, triggerPrice: '50600' }));
    k.clock.advanceBy(1000);
    const c = ok(k.venue.placePlanOrder('alice', { ...longOnIndex, triggerPrice: '50700' }));
    expect(
      k.venue
        .cancelPlanOrders('alice', [
          { symbol: SYMBOL, orderId: a.id },
          { symbol: 'ETH_USDT', orderId: b.id },
          { symbol: SYMBOL, orderId: '7' },
          { symbol: SYMBOL, orderId: a.id },
        ])
        .map((e) => e.errorCode),
    ).to.deep.equal([0, 2040, 2040, 2041]);
    const ids = (q: object) => k.venue.planOrders('alice', q).resultList.map((p) => p.id);
    expect(ids({})).to.deep.equal([c.id, b.id, a.id]);
    expect(ids({ states: [2] })).to.deep.equal([a.id]);
    expect(ids({ states: [1, 2], startTime: b.createTime })).to.deep.equal([c.id, b.id]);
    expect(ids({ pageNum: 2, pageSize: 2 })).to.deep.equal([a.id]);
    expect(k.venue.openOrderCount('alice').planOrderCount).to.equal(2);
    expect(k.venue.cancelAllPlanOrders('alice', 'ETH_USDT')).to.equal(0);
    expect(k.venue.cancelAllPlanOrders('alice', '')).to.equal(2);
    expect(ids({ states: [1] })).to.deep.equal([]);
  });

  it('blocks_a_position_mode_change_while_it_waits', () => {
    const plan = ok(k.venue.placePlanOrder('alice', longOnIndex));
    expect(k.venue.changePositionMode('alice', PositionMode.ONE_WAY)).to.include({ ok: false, code: 2019 });
    k.venue.cancelPlanOrders('alice', [{ symbol: SYMBOL, orderId: plan.id }]);
    expect(k.venue.changePositionMode('alice', PositionMode.ONE_WAY).ok).to.equal(true);
  });

  it('closes_a_long_with_a_reduce_only_plan_in_one_way_mode', () => {
    k.venue.openAccount('dave', PositionMode.ONE_WAY);
    k.venue.deposit('dave', 'USDT', '10000');
    placed(k.venue, 'bob', { side: ContractSide.OPEN_SHORT, vol: 10, price: '50000' });
    placed(k.venue, 'dave', { side: ContractSide.OPEN_LONG, vol: 10, price: '50000' });
    ok(
      k.venue.placePlanOrder('dave', {
        ...longOnIndex,
        side: ContractSide.OPEN_SHORT,
        reduceOnly: true,
        positionMode: PositionMode.ONE_WAY,
        orderType: ContractOrderType.MARKET,
        price: undefined,
        triggerPrice: '49000',
        triggerType: 2,
      }),
    );
    placed(k.venue, 'bob', { side: ContractSide.CLOSE_SHORT, vol: 10, price: '49000' });
    k.venue.setIndexPrice(SYMBOL, '49000');
    expect(k.venue.openPositions('dave')).to.deep.equal([]);
  });
});
