import { expect } from 'chai';
import { Decimal } from '../../../../src/core/decimal.js';
import { BackType, ContractSide, PositionMode, TrackOrderState } from '../../../../src/domain/contract-enums.js';
import { ContractSpec } from '../../../../src/venue/contract/contract-spec.js';
import type { VenueResult } from '../../../../src/venue/contract/contract-requests.js';
import { trailingTrigger } from '../../../../src/venue/contract/triggers/track-orders.js';
import type { PlaceTrackOrderRequest } from '../../../../src/venue/contract/triggers/trigger-requests.js';
import type { TrackOrderView } from '../../../../src/venue/contract/triggers/trigger-views.js';
import { placed, testInstrument, type Kit } from '../contract-test-kit.js';
import { alicePosition, bobBids, openLong, SYMBOL, triggerKit, usdt } from './trigger-kit.js';

const ok = <T>(r: VenueResult<T>): T => {
  if (!r.ok) throw new Error(`expected acceptance, got ${r.code} ${r.message}`);
  return r.value;
};

/** Close alice's long 10 on a 1 % callback of the FAIR price, once it has reached 51 000. */
const trailingStop: PlaceTrackOrderRequest = {
  symbol: SYMBOL,
  side: ContractSide.CLOSE_LONG,
  vol: 10,
  leverage: 10,
  openType: 1,
  trend: 2,
  backType: BackType.PERCENT,
  backValue: '0.01',
  positionMode: PositionMode.HEDGED,
  activePrice: '51000',
};

describe('contract venue: trailing orders', () => {
  let k: Kit;
  const track = (id: string): TrackOrderView => k.venue.trackOrder('alice', id)!;
  const fig = (t: TrackOrderView) => [t.state, t.markPrice?.toFixed(), t.triggerPrice?.toFixed()];
  beforeEach(() => {
    k = triggerKit();
  });
  afterEach(() => {
    expect(k.problems).to.deep.equal([]);
    expect(k.venue.checkInvariants()).to.deep.equal([]);
  });

  it('activates_follows_the_high_and_fires_on_a_1_percent_callback', () => {
    openLong(k);
    const t = ok(k.venue.placeTrackOrder('alice', trailingStop));
    expect([...fig(t), t.triggerType]).to.deep.equal([TrackOrderState.INACTIVE, undefined, undefined, 2]);
    bobBids(k, 10, '51400');
    k.venue.setFairPrice(SYMBOL, '50800');
    k.venue.setIndexPrice(SYMBOL, '51500'); // another trend: ignored
    expect(fig(track(t.id))).to.deep.equal([0, undefined, undefined]);
    k.venue.setFairPrice(SYMBOL, '51000');
    // Active from the activation price: trigger 51000·0.99 = 50490.
    expect(fig(track(t.id))).to.deep.equal([1, '51000', '50490']);
    k.venue.setFairPrice(SYMBOL, '52000');
    // New high 52000: trigger 52000·0.99 = 51480.
    expect(fig(track(t.id))).to.deep.equal([1, '52000', '51480']);
    k.venue.setFairPrice(SYMBOL, '51600');
    k.venue.setFairPrice(SYMBOL, '51480.1');
    expect(fig(track(t.id))).to.deep.equal([1, '52000', '51480']);
    k.venue.setFairPrice(SYMBOL, '51480');
    const fired = track(t.id);
    expect([fired.state, fired.errorCode]).to.deep.equal([TrackOrderState.TRIGGERED, 0]);
    const o = k.venue.getOrder('alice', fired.orderId!)!;
    expect([o.side, o.orderType, o.dealVol.toFixed(), o.dealAvgPrice.toFixed()]).to.deep.equal([4, 5, '10', '51400']);
    expect(alicePosition(k)).to.equal(undefined);
    // 10000 − 0.03 (open) + 1.4 ((51400−50000)·10·0.0001) − 0.03084 (51.4·0.0006) = 10001.33916
    expect(usdt(k, 'alice')).to.equal('10001.33916');
  });

  it('follows_the_low_by_an_amount_and_buys_when_it_bounces', () => {
    // No activePrice: active at once from the index 50000, trigger 50000 + 100.
    const t = ok(
      k.venue.placeTrackOrder('alice', {
        ...trailingStop,
        side: ContractSide.OPEN_LONG,
        trend: 3,
        backType: BackType.AMOUNT,
        backValue: 100,
        activePrice: undefined,
      }),
    );
    expect([...fig(t), t.triggerType]).to.deep.equal([1, '50000', '50100', 1]);
    k.venue.setIndexPrice(SYMBOL, '49500');
    expect(fig(track(t.id))).to.deep.equal([1, '49500', '49600']);
    placed(k.venue, 'bob', { side: ContractSide.OPEN_SHORT, vol: 10, price: '49600' });
    k.venue.setIndexPrice(SYMBOL, '49599.9');
    expect(track(t.id).state).to.equal(1);
    k.venue.setIndexPrice(SYMBOL, '49600');
    expect(track(t.id).state).to.equal(TrackOrderState.TRIGGERED);
    expect([alicePosition(k)!.holdVol.toFixed(), alicePosition(k)!.openAvgPrice.toFixed()]).to.deep.equal(['10', '49600']);
  });

  it('activates_from_above_when_the_activation_price_lies_below', () => {
    // A buy-side trailing order with activePrice 49000 under the current fair 50000 waits for a fall.
    const t = ok(k.venue.placeTrackOrder('alice', { ...trailingStop, side: ContractSide.OPEN_LONG, activePrice: '49000' }));
    k.venue.setFairPrice(SYMBOL, '49100');
    expect(track(t.id).state).to.equal(0);
    k.venue.setFairPrice(SYMBOL, '49000');
    // 49000·1.01 = 49490
    expect(fig(track(t.id))).to.deep.equal([1, '49000', '49490']);
  });

  it('fails_with_the_order_error_when_there_is_nothing_to_close', () => {
    const t = ok(k.venue.placeTrackOrder('alice', { ...trailingStop, activePrice: undefined }));
    k.venue.setFairPrice(SYMBOL, '49500');
    const f = track(t.id);
    expect([f.state, f.errorCode]).to.deep.equal([TrackOrderState.FAILED, 3]);
  });

  it('changes_its_callback_and_restarts_the_benchmark_on_a_new_trend', () => {
    const t = ok(k.venue.placeTrackOrder('alice', { ...trailingStop, activePrice: undefined }));
    expect(fig(t)).to.deep.equal([1, '50000', '49500']);
    let c = ok(
      k.venue.changeTrackOrder('alice', {
        symbol: SYMBOL,
        trackOrderId: t.id,
        trend: 2,
        backType: BackType.PERCENT,
        backValue: '0.02',
        vol: 5,
      }),
    );
    // Same benchmark, 2 %: 50000·0.98 = 49000.
    expect([...fig(c), c.vol.toFixed()]).to.deep.equal([1, '50000', '49000', '5']);
    k.venue.setIndexPrice(SYMBOL, '50200');
    c = ok(
      k.venue.changeTrackOrder('alice', {
        symbol: SYMBOL,
        trackOrderId: t.id,
        trend: 3,
        backType: BackType.AMOUNT,
        backValue: '150',
        vol: 5,
      }),
    );
    // Index now: benchmark 50200, trigger 50050.
    expect([...fig(c), c.trend]).to.deep.equal([1, '50200', '50050', 3]);
    const code = (over: object): number => {
      const r = k.venue.changeTrackOrder('alice', {
        symbol: SYMBOL,
        trackOrderId: t.id,
        trend: 3,
        backType: 2,
        backValue: '150',
        vol: 5,
        ...over,
      });
      return r.ok ? 0 : r.code;
    };
    expect([
      code({ trackOrderId: '5' }),
      code({ symbol: 'ETH_USDT' }),
      code({ trend: 0 }),
      code({ backType: 1, backValue: 1 }),
      code({ vol: 0 }),
    ]).to.deep.equal([2040, 2040, 3001, 600, 2015]);
  });

  it('changes_the_activation_price_while_inactive', () => {
    const t = ok(k.venue.placeTrackOrder('alice', trailingStop));
    const c = ok(
      k.venue.changeTrackOrder('alice', {
        symbol: SYMBOL,
        trackOrderId: t.id,
        trend: 2,
        backType: 1,
        backValue: '0.01',
        vol: 10,
        activePrice: '50500',
      }),
    );
    expect([c.state, c.activePrice?.toFixed()]).to.deep.equal([0, '50500']);
    k.venue.setFairPrice(SYMBOL, '50500');
    expect(fig(track(t.id))).to.deep.equal([1, '50500', '49995']);
  });

  it('cancels_by_id_by_contract_or_all_and_lists_by_state_and_side', () => {
    const a = ok(k.venue.placeTrackOrder('alice', trailingStop));
    k.clock.advanceBy(1000);
    const b = ok(k.venue.placeTrackOrder('alice', { ...trailingStop, side: ContractSide.OPEN_LONG, activePrice: undefined }));
    k.clock.advanceBy(1000);
    const c = ok(k.venue.placeTrackOrder('alice', trailingStop));
    expect(k.venue.cancelTrackOrders('alice', { trackOrderId: '77' })).to.include({ ok: false, code: 2040 });
    expect(ok(k.venue.cancelTrackOrders('alice', { symbol: SYMBOL, trackOrderId: a.id }))).to.equal(1);
    expect(k.venue.cancelTrackOrders('alice', { trackOrderId: a.id })).to.include({ ok: false, code: 2041 });
    const ids = (q: object) => k.venue.trackOrders('alice', q).resultList.map((t) => t.id);
    expect(ids({})).to.deep.equal([c.id, b.id, a.id]);
    expect(ids({ states: [0, 1] })).to.deep.equal([c.id, b.id]);
    expect(ids({ states: [4] })).to.deep.equal([a.id]);
    expect(ids({ side: 1 })).to.deep.equal([b.id]);
    expect(ids({ startTime: b.createTime, endTime: b.createTime })).to.deep.equal([b.id]);
    expect(ids({ pageIndex: 2, pageSize: 2 })).to.deep.equal([a.id]);
    expect(k.venue.openOrderCount('alice').trackOrderCount).to.equal(2);
    expect(k.venue.changePositionMode('alice', PositionMode.ONE_WAY)).to.include({ ok: false, code: 2019 });
    expect(ok(k.venue.cancelTrackOrders('alice', {}))).to.equal(2);
    expect(ids({ states: [4] })).to.deep.equal([c.id, b.id, a.id]);
  });

  it('reduces_a_one_way_long_without_opening_a_short_when_reduce_only', () => {
    k.venue.openAccount('dave', PositionMode.ONE_WAY);
    k.venue.deposit('dave', 'USDT', '10000');
    placed(k.venue, 'bob', { side: ContractSide.OPEN_SHORT, vol: 10, price: '50000' });
    placed(k.venue, 'dave', { side: ContractSide.OPEN_LONG, vol: 10, price: '50000' });
    // A one-way sell that may only reduce: it closes the long and opens nothing.
    const t = ok(
      k.venue.placeTrackOrder('dave', {
        ...trailingStop,
        side: ContractSide.OPEN_SHORT,
        vol: 10,
        reduceOnly: true,
        positionMode: PositionMode.ONE_WAY,
        backType: BackType.AMOUNT,
        backValue: 500,
        activePrice: undefined,
      }),
    );
    expect([t.reduceOnly, t.positionMode, t.triggerPrice?.toFixed()]).to.deep.equal([true, 2, '49500']);
    bobBids(k, 10, '49500');
    placed(k.venue, 'carol', { side: ContractSide.OPEN_LONG, vol: 10, price: '49400' });
    k.venue.setFairPrice(SYMBOL, '49500');
    const f = k.venue.trackOrder('dave', t.id)!;
    const o = k.venue.getOrder('dave', f.orderId!)!;
    expect([f.state, o.reduceOnly, o.dealVol.toFixed(), k.venue.openPositions('dave')]).to.deep.equal([
      TrackOrderState.TRIGGERED,
      true,
      '10',
      [],
    ]);
  });

  it('refuses_bad_trailing_orders_with_their_codes', () => {
    const code = (over: Partial<PlaceTrackOrderRequest>): number => {
      const r = k.venue.placeTrackOrder('alice', { ...trailingStop, ...over });
      return r.ok ? 0 : r.code;
    };
    expect(code({ symbol: 'DOGE_USDT' })).to.equal(1001);
    expect(code({ trend: 5 })).to.equal(3001);
    expect(code({ backType: 3 })).to.equal(600);
    expect(code({ backValue: 0 })).to.equal(600);
    expect(code({ backValue: '1.2' })).to.equal(600);
    expect(code({ activePrice: '51000.01' })).to.equal(2015);
    expect(code({ positionMode: PositionMode.ONE_WAY })).to.equal(600);
    expect(code({ reduceOnly: true })).to.equal(600);
    expect(code({ leverage: 0 })).to.equal(2006);
    expect(code({ vol: '0.5' })).to.equal(2015);
  });

  it('rounds_the_trigger_away_from_the_benchmark_to_the_tick', () => {
    const spec = new ContractSpec(testInstrument());
    const d = (v: string) => new Decimal(v);
    // 50123.4·0.99 = 49622.166 → down to 49622.1 (sell); 50123.4·1.01 = 50624.634 → up to 50624.7 (buy).
    expect(trailingTrigger(spec, d('50123.4'), BackType.PERCENT, d('0.01'), true).toFixed()).to.equal('49622.1');
    expect(trailingTrigger(spec, d('50123.4'), BackType.PERCENT, d('0.01'), false).toFixed()).to.equal('50624.7');
    expect(trailingTrigger(spec, d('100'), BackType.AMOUNT, d('150'), true).toFixed()).to.equal('0');
  });
});
