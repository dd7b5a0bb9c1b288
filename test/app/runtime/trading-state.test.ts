import { expect } from 'chai';
import { InstrumentRegistry } from '../../../src/domain/instrument-registry.js';
import { TradingState } from '../../../src/app/runtime/trading-state.js';
import { DEFAULT_RISK_LIMITS } from '../../../src/risk/risk-rule.js';
import { BTC_USDT, contractInstrument, fill, order, position, S1, S2 } from '../../domain/support/builders.js';

function state() {
  return new TradingState(new InstrumentRegistry([contractInstrument()]), { liveOrders: () => [], order: () => undefined }, DEFAULT_RISK_LIMITS, 'USDT');
}

const qtyOf = (s: TradingState, sid: typeof S1) => s.positions(sid).find((p) => p.symbol === BTC_USDT)?.quantity.toFixed() ?? '0';

describe('TradingState', () => {
  it('moves_the_owning_strategy_flat_when_the_venue_closed_its_position_itself', () => {
    // A venue-side stop-loss closed the 20-contract long: no order of ours explains it.
    const s = state();
    const o = order({ symbol: BTC_USDT, kind: 'contract' });
    s.apply({ type: 'OrderFilled', ts: 1, strategyId: S1, clientOrderId: o.clientOrderId, symbol: BTC_USDT, fill: fill(o, 20, 87500, { kind: 'contract' }) });
    expect(qtyOf(s, S1)).to.equal('20');
    s.setVenuePositions('contract', [], new Set([`${BTC_USDT}|net`]));
    expect(qtyOf(s, S1)).to.equal('0');
  });

  it('leaves_strategy_books_alone_when_the_venue_position_grew_or_two_strategies_share_the_leg', () => {
    const s = state();
    const a = order({ symbol: BTC_USDT, kind: 'contract' });
    s.apply({ type: 'OrderFilled', ts: 1, strategyId: S1, clientOrderId: a.clientOrderId, symbol: BTC_USDT, fill: fill(a, 20, 87500, { kind: 'contract' }) });
    // A manual trade added 5: not the strategy's.
    s.setVenuePositions('contract', [position(BTC_USDT, 25, 87500)], new Set([`${BTC_USDT}|net`]));
    expect(qtyOf(s, S1)).to.equal('20');
    const b = order({ symbol: BTC_USDT, kind: 'contract', clientOrderId: 'other-1' as never });
    s.apply({ type: 'OrderFilled', ts: 2, strategyId: S2, clientOrderId: b.clientOrderId, symbol: BTC_USDT, fill: fill(b, 10, 87500, { kind: 'contract', tradeId: 'T-other' as never }) });
    // Two holders: a venue close cannot be attributed.
    s.setVenuePositions('contract', [], new Set([`${BTC_USDT}|net`]));
    expect([qtyOf(s, S1), qtyOf(s, S2)]).to.deep.equal(['20', '10']);
  });
});
