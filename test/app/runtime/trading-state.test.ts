import { expect } from 'chai';
import { D } from '../../../src/core/decimal.js';
import { InstrumentRegistry } from '../../../src/domain/instrument-registry.js';
import { TradingState } from '../../../src/app/runtime/trading-state.js';
import { DEFAULT_RISK_LIMITS } from '../../../src/risk/risk-rule.js';
import { BTC_USDT, contractInstrument, fill, order, position, S1 } from '../../domain/support/builders.js';

function state() {
  return new TradingState(new InstrumentRegistry([contractInstrument()]), { liveOrders: () => [], order: () => undefined }, DEFAULT_RISK_LIMITS, 'USDT');
}

const qtyOf = (s: TradingState, sid: typeof S1) => s.positions(sid).find((p) => p.symbol === BTC_USDT)?.quantity.toFixed() ?? '0';

describe('TradingState', () => {
  it('books_a_venue_fill_on_the_owner_and_the_account_and_an_adjustment_on_the_owner_only', () => {
    // A venue-side stop-loss closed the 20-contract long: the venue's fill, attributed to S1.
    const s = state();
    const o = order({ symbol: BTC_USDT, kind: 'contract' });
    s.apply({ type: 'OrderFilled', ts: 1, strategyId: S1, clientOrderId: o.clientOrderId, symbol: BTC_USDT, fill: fill(o, 20, 87500, { kind: 'contract' }) });
    const close = fill(o, 20, 87000, { kind: 'contract', side: 'sell', tradeId: 'syn:9:20' as never, reduceOnly: true });
    s.apply({ type: 'VenueFill', ts: 2, strategyId: S1, symbol: BTC_USDT, fill: close });
    expect(qtyOf(s, S1)).to.equal('0');
    // (87000 − 87500) · 20 · 0.0001 = −1
    expect(s.strategyBook(S1).realizedPnl().toFixed()).to.equal('-1');
    expect(s.accountBook('contract').position(BTC_USDT)?.quantity.toFixed()).to.equal('0');
    // The venue's positions never move a strategy book by themselves; a PositionAdjusted does.
    s.setVenuePositions('contract', [position(BTC_USDT, 20, 88000)], 'all');
    expect(qtyOf(s, S1)).to.equal('0');
    const to = position(BTC_USDT, 20, 88000);
    const head = { ts: 3, strategyId: S1, symbol: BTC_USDT, leg: 'net' as const };
    s.apply({ type: 'PositionAdjusted', ...head, fromQuantity: D(0), toQuantity: D(20), position: to, reason: 'test' });
    expect([qtyOf(s, S1), s.positions(S1)[0]!.entryPrice.toFixed()]).to.deep.equal(['20', '88000']);
  });
});
