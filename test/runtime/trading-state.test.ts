import { expect } from 'chai';
import { InstrumentRegistry } from '../../src/domain/instrument-registry.js';
import { TradingState } from '../../src/runtime/trading-state.js';
import { D } from '../../src/core/decimal.js';
import { DEFAULT_RISK_LIMITS } from '../../src/risk/risk-rule.js';
import { killSwitchCondition } from '../../src/risk/rules/kill-switch-rule.js';
import { BTC_USDT, contractInstrument, fill, order, position, S1 } from '../domain/support/builders.js';

function state() {
  return new TradingState(
    new InstrumentRegistry([contractInstrument()]),
    { liveOrders: () => [], order: () => undefined },
    DEFAULT_RISK_LIMITS,
    'USDT',
  );
}

const qtyOf = (s: TradingState, sid: typeof S1) =>
  s
    .positions(sid)
    .find((p) => p.symbol === BTC_USDT)
    ?.quantity.toFixed() ?? '0';

describe('TradingState', () => {
  it('books_a_venue_fill_on_the_owner_and_the_account_and_an_adjustment_on_the_owner_only', () => {
    // A venue-side stop-loss closed the 20-contract long: the venue's fill, attributed to S1.
    const s = state();
    const o = order({ symbol: BTC_USDT, kind: 'contract' });
    s.apply({
      type: 'OrderFilled',
      ts: 1,
      strategyId: S1,
      clientOrderId: o.clientOrderId,
      symbol: BTC_USDT,
      fill: fill(o, 20, 87500, { kind: 'contract' }),
    });
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

  it('kill_switch_denial_names_the_unpriced_asset_and_the_fix', () => {
    // The demo account of the standalone emulator holds ETH; the run trades BTC_USDT only and no ETHUSDT
    // price has been read yet (the runtime polls it at each reconciliation), so equity (hence drawdown)
    // cannot be judged.
    const s = new TradingState(
      new InstrumentRegistry([contractInstrument()]),
      { liveOrders: () => [], order: () => undefined },
      { ...DEFAULT_RISK_LIMITS, killSwitch: { ...DEFAULT_RISK_LIMITS.killSwitch, maxDrawdown: D('0.1') } },
      'USDT',
    );
    const bal = (asset: string, free: string) => ({ asset, free: D(free), locked: D(0) });
    s.setAccount({ kind: 'spot', time: 1, balances: { USDT: bal('USDT', '1000'), ETH: bal('ETH', '2') } });
    expect(s.updateEquity(1)).to.equal(undefined);
    const denial = killSwitchCondition(s.killSwitchState(1));
    expect(denial?.rule).to.equal('kill-switch');
    expect(denial?.reason).to.equal(
      'equity unknown (no price for ETH (ETHUSDT): a live or paper run reads ETHUSDT at each reconciliation (a failed read is logged as a warning; a backtest reads only its instruments): add ETHUSDT to instruments, or move the asset out of this account) while drawdown / daily-loss limits are set (fail closed)',
    );
  });
});
