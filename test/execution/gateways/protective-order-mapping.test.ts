/**
 * Trailing and plan closes on the contract wire (contract-api.md §2.8, §4.5, §4.6; the codes in
 * domain/contract-enums.ts): side 4 closes a long and 2 a short, in both position modes; one-way adds
 * reduceOnly; a long's stop-loss fires on a fall (triggerType 2) and its take-profit on a rise (1), a
 * short's the reverse; a trailing callback is the fraction callbackPct / 100 with backType 1.
 */
import { expect } from 'chai';
import { D } from '../../../src/core/decimal.js';
import { PositionMode } from '../../../src/domain/contract-enums.js';
import type { ProtectiveOrderRequest } from '../../../src/execution/exchange-gateway.js';
import {
  planOrderParams,
  planProtection,
  trackOrderParams,
  trackProtection,
} from '../../../src/execution/gateways/protective-order-mapping.js';
import { BTC_USDT, contractInstrument } from '../../domain/support/builders.js';

const inst = contractInstrument();
const trailing = (over: Partial<ProtectiveOrderRequest> = {}): ProtectiveOrderRequest => ({
  symbol: BTC_USDT,
  positionSide: 'long',
  quantity: D(20),
  spec: { type: 'trailing', callbackRate: D('0.004') },
  triggerPriceType: 'fair',
  ...over,
});
const plan = (side: 'long' | 'short', role: 'stop-loss' | 'take-profit', price: string): ProtectiveOrderRequest => ({
  symbol: BTC_USDT,
  positionSide: side,
  quantity: D(20),
  spec: { type: 'plan', role, triggerPrice: D(price) },
  triggerPriceType: 'index',
  marginMode: 'isolated',
});

describe('protective order mapping (trailing and plan closes)', () => {
  it('maps_a_long_trailing_close_in_one_way_mode_with_the_held_leverage_and_margin', () => {
    const w = trackOrderParams(trailing({ spec: { type: 'trailing', callbackRate: D('0.004'), activationPrice: D('100300') } }), inst, 2, {
      leverage: 7,
      openType: 1,
    });
    expect(w).to.deep.equal({
      symbol: BTC_USDT,
      side: 4,
      vol: '20',
      openType: 1,
      trend: 2,
      positionMode: 2,
      reduceOnly: true,
      leverage: 7,
      backType: 1,
      backValue: '0.004',
      activePrice: '100300',
    });
  });

  it('maps_a_short_trailing_close_in_hedged_mode_without_reduce_only_and_with_the_requested_leverage', () => {
    const w = trackOrderParams(trailing({ positionSide: 'short', leverage: 3, marginMode: 'cross' }), inst, PositionMode.HEDGED, {});
    expect([w.side, w.positionMode, 'reduceOnly' in w, w.leverage, w.openType]).to.deep.equal([2, 1, false, 3, 2]);
  });

  it('refuses_a_trailing_close_without_a_leverage_to_send', () => {
    expect(() => trackOrderParams(trailing({ marginMode: 'cross' }), inst, 2, {})).to.throw(/leverage/);
  });

  it('gives_each_plan_leg_the_comparison_that_fires_it_in_the_right_direction', () => {
    const row = (r: ProtectiveOrderRequest) => {
      const w = planOrderParams(r, inst, 2, {});
      return [w.side, w.triggerPrice, w.triggerType, w.orderType, w.executeCycle, w.trend];
    };
    // long stop-loss ≤ 99 500, long take-profit ≥ 101 000; short stop-loss ≥ 100 500, short take-profit ≤ 99 000
    expect(row(plan('long', 'stop-loss', '99500'))).to.deep.equal([4, '99500', 2, 5, 2, 3]);
    expect(row(plan('long', 'take-profit', '101000'))).to.deep.equal([4, '101000', 1, 5, 2, 3]);
    expect(row(plan('short', 'stop-loss', '100500'))).to.deep.equal([2, '100500', 1, 5, 2, 3]);
    expect(row(plan('short', 'take-profit', '99000'))).to.deep.equal([2, '99000', 2, 5, 2, 3]);
  });

  it('reads_back_only_live_closing_trigger_orders_as_protection', () => {
    const t = {
      id: '11',
      side: 2 as const,
      vol: D(20),
      state: 1,
      backType: 1,
      backValue: D('0.002'),
      markPrice: D(87000),
      triggerPrice: D(87174),
    };
    expect(trackProtection(BTC_USDT, t)).to.deep.equal({
      symbol: BTC_USDT,
      positionSide: 'short',
      kind: 'trailing',
      id: '11',
      quantity: D(20),
      callbackRate: D('0.002'),
      benchmark: D(87000),
      triggerPrice: D(87174),
    });
    expect(trackProtection(BTC_USDT, { ...t, side: 1 as const }), 'an opening trailing order').to.equal(undefined);
    expect(trackProtection(BTC_USDT, { ...t, state: 2 }), 'a triggered one').to.equal(undefined);
    const p = { id: '12', side: 4 as const, vol: D(20), state: 1, triggerPrice: D(99500), triggerType: 2 };
    expect(planProtection(BTC_USDT, p)).to.deep.include({ positionSide: 'long', kind: 'plan', stopLossPrice: D(99500) });
    expect(planProtection(BTC_USDT, { ...p, triggerType: 1 })).to.deep.include({ takeProfitPrice: D(99500) });
    expect(planProtection(BTC_USDT, { ...p, state: 3 }), 'an executed plan order').to.equal(undefined);
  });
});
