import { expect } from 'chai';
import { D } from '../../../src/core/decimal.js';
import type { Intent } from '../../../src/domain/intent.js';
import type { Kline, MarketSnapshot } from '../../../src/domain/snapshot.js';
import { PerpTrend, perpTrendParams } from '../../../strategies/perp-trend.js';
import { BTC_USDT, contractInstrument, position, S1 } from '../../domain/support/builders.js';
import { PlainState, started } from './strategy-kit.js';

const params = (over: Record<string, unknown> = {}) =>
  perpTrendParams.parse({ size: 20, fastPeriod: 2, slowPeriod: 3, leverage: 5, takeProfitPct: 1, stopLossPct: 0.5, ...over });

function klines(closes: number[]): Kline[] {
  return closes.map((c, i) => ({ openTime: i * 60_000, open: D(c), high: D(c), low: D(c), close: D(c), volume: D(1) }));
}
function snap(fair: number, closes?: number[]): MarketSnapshot {
  return {
    symbol: BTC_USDT,
    kind: 'contract',
    pollTime: 0,
    fairPrice: { price: D(fair) },
    book: { bids: [{ price: D(fair - 1), quantity: D(10) }], asks: [{ price: D(fair + 1), quantity: D(10) }] },
    ...(closes ? { klines: { Min1: klines(closes) } } : {}),
  };
}

async function trend(state: PlainState, over: Record<string, unknown> = {}) {
  state.instruments = [contractInstrument()];
  return started(S1, new PerpTrend(params(over), [BTC_USDT]), state);
}

describe('PerpTrend', () => {
  it('sets_position_mode_and_leverage_at_start', async () => {
    const { startIntents } = await trend(new PlainState());
    expect(startIntents.map((i) => i.kind)).to.deep.equal(['set-position-mode', 'set-leverage']);
    expect(startIntents[1]).to.include({ leverage: 5, marginMode: 'isolated', symbol: 'BTC_USDT' });
  });

  it('buys_at_market_on_a_cross_up_of_closed_bars_when_flat', async () => {
    const { runner } = await trend(new PlainState());
    // closed bars 10,10,10,10,9,12 cross up on the last one (see trend-signal.test.ts); 99 is still forming
    const intents = runner.onSnapshot(snap(100000, [10, 10, 10, 10, 9, 12, 99]));
    expect(intents).to.have.length(1);
    const o = (intents[0] as Extract<Intent, { kind: 'place' }>).order;
    expect(o).to.include({ side: 'buy', type: 'market', leverage: 5, marginMode: 'isolated' });
    expect(o.quantity!.toFixed()).to.equal('20');
    // the same bar is not judged twice
    expect(runner.onSnapshot(snap(100000, [10, 10, 10, 10, 9, 12, 99]))).to.deep.equal([]);
  });

  it('attaches_tp_and_sl_to_a_new_position_then_exits_itself_at_the_stop', async () => {
    const state = new PlainState();
    state.positionList = [position(BTC_USDT, 20, 100000)];
    const { runner } = await trend(state);
    // TP 100000 × 1.01 = 101000, SL 100000 × 0.995 = 99500
    const [tpsl] = runner.onSnapshot(snap(100000));
    expect(tpsl!.kind).to.equal('attach-tpsl');
    const t = tpsl as Extract<Intent, { kind: 'attach-tpsl' }>;
    expect([t.takeProfitPrice!.toFixed(), t.stopLossPrice!.toFixed(), t.triggerPriceType]).to.deep.equal(['101000', '99500', 'fair']);
    // fair 99400 ≤ SL: closed with a reduce-only market sell of the whole position
    const [close] = runner.onSnapshot(snap(99400));
    const o = (close as Extract<Intent, { kind: 'place' }>).order;
    expect(o).to.include({ side: 'sell', type: 'market', reduceOnly: true });
    expect(o.quantity!.toFixed()).to.equal('20');
  });

  it('arms_tpsl_again_when_told_it_is_gone_and_works_out_new_levels_when_the_position_changes_side', async () => {
    const state = new PlainState();
    state.positionList = [position(BTC_USDT, -20, 100000)];
    const { runner } = await trend(state);
    expect(runner.onSnapshot(snap(100000)).map((i) => i.kind)).to.deep.equal(['attach-tpsl']);
    expect(runner.onSnapshot(snap(100000))).to.deep.equal([]);
    // The venue lost the stop order: told, it attaches the same levels again (short: TP 99000, SL 100500).
    const told = { ts: 1, strategyId: S1, symbol: BTC_USDT, leg: 'net' as const, quantity: D(-20) };
    const [again] = runner.onExecution({ type: 'ProtectionMissing', ...told });
    const t = again as Extract<Intent, { kind: 'attach-tpsl' }>;
    expect([t.kind, t.takeProfitPrice!.toFixed(), t.stopLossPrice!.toFixed()]).to.deep.equal(['attach-tpsl', '99000', '100500']);
    // The venue reversed it to +20 at 101000: the short's levels no longer apply; long TP 102010, SL 100495.
    state.positionList = [position(BTC_USDT, 20, 101000)];
    const [flip] = runner.onSnapshot(snap(101000));
    const u = flip as Extract<Intent, { kind: 'attach-tpsl' }>;
    expect([u.kind, u.takeProfitPrice!.toFixed(), u.stopLossPrice!.toFixed()]).to.deep.equal(['attach-tpsl', '102010', '100495']);
  });

  it('sends_nothing_new_while_its_order_is_unsettled', async () => {
    const state = new PlainState();
    const { runner } = await trend(state);
    runner.onSnapshot(snap(100000, [10, 10, 10, 10, 9, 12, 99]));
    // a later cross down arrives before the buy settled
    expect(runner.onSnapshot(snap(100000, [10, 10, 10, 10, 9, 12, 8, 7, 99]))).to.deep.equal([]);
  });
});
