import { expect } from 'chai';
import { ContractOrderType, ContractSide, StopOrderState } from '../../../../src/domain/contract-enums.js';
import type { ContractVenueEvent } from '../../../../src/venue/contract/contract-events.js';
import type { VenueResult } from '../../../../src/venue/contract/contract-requests.js';
import { placed, type Kit } from '../contract-test-kit.js';
import { alicePosition, bobBids, openLong, SYMBOL, triggerKit } from './trigger-kit.js';

const ok = <T>(r: VenueResult<T>): T => {
  if (!r.ok) throw new Error(`expected acceptance, got ${r.code} ${r.message}`);
  return r.value;
};

describe('contract venue: trigger evaluation', () => {
  let k: Kit;
  beforeEach(() => {
    k = triggerKit();
  });
  afterEach(() => {
    expect(k.problems).to.deep.equal([]);
    expect(k.venue.checkInvariants()).to.deep.equal([]);
  });

  it('evaluates_the_triggers_of_one_update_in_creation_order', () => {
    const pos = openLong(k);
    // Both stop-losses fire at a fair price of 49000; the first created closes the whole position,
    // which leaves the second nothing to protect (invalid).
    const first = ok(k.venue.placeStopOrder('alice', { positionId: pos.positionId, vol: 10, stopLossPrice: '49000', lossTrend: 2 }));
    const second = ok(k.venue.placeStopOrder('alice', { positionId: pos.positionId, vol: 10, stopLossPrice: '49500', lossTrend: 2 }));
    bobBids(k, 10, '49000');
    k.venue.setFairPrice(SYMBOL, '49000');
    expect([k.venue.stopOrder('alice', first.id)!.state, k.venue.stopOrder('alice', second.id)!.state]).to.deep.equal([
      StopOrderState.EXECUTED,
      StopOrderState.INVALID,
    ]);
  });

  it('places_the_orders_of_plan_orders_fired_together_in_creation_order', () => {
    const req = {
      symbol: SYMBOL,
      side: ContractSide.OPEN_LONG,
      vol: 1,
      price: '50100',
      leverage: 10,
      openType: 1 as const,
      triggerType: 1,
      trend: 2,
      orderType: ContractOrderType.LIMIT,
      executeCycle: 24,
    };
    const b = ok(k.venue.placePlanOrder('alice', { ...req, triggerPrice: '50100' }));
    const a = ok(k.venue.placePlanOrder('alice', { ...req, triggerPrice: '50050' }));
    k.venue.setFairPrice(SYMBOL, '50100');
    const orderOf = (id: string) => Number(k.venue.planOrder('alice', id)!.orderId);
    expect(orderOf(b.id)).to.be.lessThan(orderOf(a.id));
  });

  it('chains_a_trigger_fired_by_the_trade_of_another', () => {
    const pos = openLong(k);
    // The stop-loss on the fair price sells at market into bob's 49500 bid; that trade moves the
    // latest price to 49500, which fires carol's plan order on the latest price in the same command.
    ok(k.venue.placeStopOrder('alice', { positionId: pos.positionId, vol: 10, stopLossPrice: '49600', lossTrend: 2 }));
    bobBids(k, 10, '49500');
    placed(k.venue, 'bob', { side: ContractSide.OPEN_LONG, vol: 1, price: '49400' });
    const plan = ok(
      k.venue.placePlanOrder('carol', {
        symbol: SYMBOL,
        side: ContractSide.OPEN_SHORT,
        vol: 1,
        leverage: 10,
        openType: 1,
        triggerPrice: '49500',
        triggerType: 2,
        trend: 1,
        orderType: ContractOrderType.MARKET,
        executeCycle: 24,
      }),
    );
    k.venue.setFairPrice(SYMBOL, '49600');
    expect(alicePosition(k)).to.equal(undefined);
    const fired = k.venue.planOrder('carol', plan.id)!;
    expect([fired.state, k.venue.getOrder('carol', fired.orderId!)!.dealAvgPrice.toFixed()]).to.deep.equal([3, '49400']);
  });

  it('reports_trigger_changes_as_events_after_the_order_events_of_the_command', () => {
    const pos = openLong(k);
    const s = ok(k.venue.placeStopOrder('alice', { positionId: pos.positionId, vol: 10, stopLossPrice: '49000', lossTrend: 2 }));
    bobBids(k, 10, '49000');
    const from = k.events.length;
    k.venue.setFairPrice(SYMBOL, '49000');
    const seen = k.events
      .slice(from)
      .map((e: ContractVenueEvent) => (e.type === 'StopOrderChanged' ? `stop:${e.stopOrder.state}` : e.type));
    // The close order's events come first, then the executed stop order that names it.
    expect(seen.filter((x) => x.startsWith('stop'))).to.deep.equal(['stop:3']);
    expect(seen.indexOf('OrderAccepted')).to.be.lessThan(seen.indexOf('stop:3'));
    expect(seen).to.include('PositionChanged');
    const placedEvents = k.events.filter((e) => e.type === 'StopOrderChanged' && e.stopOrder.id === s.id);
    expect(placedEvents.map((e) => (e.type === 'StopOrderChanged' ? e.stopOrder.version : 0))).to.deep.equal([1, 2]);
  });

  it('invalidates_the_stops_of_a_liquidated_position', () => {
    const pos = openLong(k);
    ok(k.venue.placeStopOrder('alice', { positionId: pos.positionId, vol: 10, stopLossPrice: '40000', lossTrend: 3 }));
    // 10× isolated long from 50000: liquidated well before the fair price reaches 44000.
    k.venue.setFairPrice(SYMBOL, '44000');
    expect(alicePosition(k)).to.equal(undefined);
    expect(k.venue.stopOrders('alice').resultList.map((s) => s.state)).to.deep.equal([StopOrderState.INVALID]);
  });
});
