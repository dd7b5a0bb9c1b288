import { expect } from 'chai';
import { D } from '../../../src/core/decimal.js';
import type { Intent } from '../../../src/domain/intent.js';
import type { MarketSnapshot } from '../../../src/domain/snapshot.js';
import { FundingCarry, fundingCarryParams } from '../../../strategies/funding-carry.js';
import { balance, BTC_USDT, BTCUSDT, contractInstrument, position, S1, snapshot, spotInstrument } from '../../domain/support/builders.js';
import { PlainState, started } from './strategy-kit.js';

const params = (over: Record<string, unknown> = {}) =>
  fundingCarryParams.parse({ baseQty: '0.01', entryRate: 0.0001, settlementsToCover: 3, ...over });
const shown = (intents: readonly Intent[]): string[] =>
  intents.map((i) =>
    i.kind === 'place'
      ? `${i.order.symbol} ${i.order.side} ${i.order.quantity!.toFixed()}${i.order.reduceOnly ? ' reduce-only' : ''}`
      : i.kind,
  );

/** Spot 99990 / 100010 (half-spread 1 bp), perpetual 99995 / 100005 (0.5 bp) with fair `fair` and `rate`. */
function markets(state: PlainState, rate: string, fair = 100_000): MarketSnapshot {
  state.snapshots.set(BTCUSDT, snapshot(BTCUSDT, { bids: [[99990, 1]], asks: [[100010, 1]] }));
  const perp = { ...snapshot(BTC_USDT, { bids: [[fair - 5, 1000]], asks: [[fair + 5, 1000]], fair }), fundingRate: { rate: D(rate) } };
  state.snapshots.set(BTC_USDT, perp);
  return perp;
}

async function carry(state: PlainState, over: Record<string, unknown> = {}) {
  state.instruments = [spotInstrument(), contractInstrument()];
  const strategy = new FundingCarry(params(over), [BTCUSDT, BTC_USDT]);
  const { runner, startIntents } = await started(S1, strategy, state);
  return { strategy, runner, startIntents };
}

describe('FundingCarry', () => {
  it('refuses_instruments_that_are_not_one_spot_and_one_perpetual_of_one_base', async () => {
    const state = new PlainState();
    state.instruments = [spotInstrument()];
    let error: Error | undefined;
    await started(S1, new FundingCarry(params(), [BTCUSDT]), state).catch((e: Error) => (error = e));
    expect(error?.message).to.match(/instruments: .*one spot and one perpetual of the same base/);
  });

  it('enters_only_when_the_rate_pays_for_the_round_trip', async () => {
    const state = new PlainState();
    const { runner, startIntents } = await carry(state);
    expect(startIntents.map((i) => i.kind)).to.deep.equal(['set-position-mode', 'set-leverage']);
    // cost = taker fees in and out (0.0005 + 0.0001)·2 = 0.0012, plus both spreads 2·0.0001 + 2·0.00005 = 0.0003:
    // 0.0015. Over 3 settlements the rate must be ≥ 0.0005.
    expect(runner.onSnapshot(markets(state, '0.0004'))).to.deep.equal([]);
    // long 0.01 BTC spot, short 0.01 / 0.0001 = 100 contracts
    expect(shown(runner.onSnapshot(markets(state, '0.0005')))).to.deep.equal(['BTCUSDT buy 0.01', 'BTC_USDT sell 100']);
  });

  it('enters_the_reverse_only_when_allowed_and_the_base_is_held', async () => {
    const state = new PlainState();
    const { runner } = await carry(state);
    expect(runner.onSnapshot(markets(state, '-0.001'))).to.deep.equal([]);
    const other = new PlainState();
    const { runner: reverse } = await carry(other, { allowReverse: true });
    expect(reverse.onSnapshot(markets(other, '-0.001'))).to.deep.equal([]);
    other.balanceList = [balance('BTC', '0.5')];
    expect(shown(reverse.onSnapshot(markets(other, '-0.001')))).to.deep.equal(['BTCUSDT sell 0.01', 'BTC_USDT buy 100']);
  });

  it('rebalances_the_perpetual_leg_when_the_legs_drift_apart', async () => {
    const state = new PlainState();
    state.positionList = [position(BTCUSDT, '0.01', '100000'), position(BTC_USDT, '-80', '100000')];
    const { runner } = await carry(state);
    // 0.01 − 80·0.0001 = 0.002 BTC apart > 0.1·0.01: the perpetual goes to −100, selling 20
    expect(shown(runner.onSnapshot(markets(state, '0.0005')))).to.deep.equal(['BTC_USDT sell 20']);
    state.positionList = [position(BTCUSDT, '0.01', '100000'), position(BTC_USDT, '-95', '100000')];
    // 0.0005 BTC apart is within the tolerance
    expect(runner.onSnapshot(markets(state, '0.0005'))).to.deep.equal([]);
  });

  it('unwinds_both_legs_when_the_rate_turns', async () => {
    const state = new PlainState();
    state.positionList = [position(BTCUSDT, '0.01', '100000'), position(BTC_USDT, '-100', '100000')];
    const { strategy, runner } = await carry(state);
    expect(runner.onSnapshot(markets(state, '0.0001'))).to.deep.equal([]);
    expect(shown(runner.onSnapshot(markets(state, '-0.0001')))).to.deep.equal(['BTCUSDT sell 0.01', 'BTC_USDT buy 100 reduce-only']);
    expect(strategy.report()).to.include({ direction: 'long-spot', unwinds: '1' });
  });

  it('reports_funding_income_and_the_basis_pnl_of_the_pair', async () => {
    const state = new PlainState();
    const { strategy, runner } = await carry(state);
    // entry: perpetual fair 100050 − spot mid 100000 = basis 50
    runner.onSnapshot(markets(state, '0.0005', 100_050));
    state.positionList = [position(BTCUSDT, '0.01', '100010'), position(BTC_USDT, '-100', '100045', 'net', { funding: D('0.25') })];
    // later the basis narrows to 20: the pair earns (50 − 20)·0.01 = 0.3 USDT whatever the price did
    runner.onSnapshot(markets(state, '0.0005', 100_020));
    expect(strategy.report()).to.include({
      direction: 'long-spot',
      fundingIncome: '0.2500',
      entryBasis: '50.0000',
      basis: '20.0000',
      basisPnl: '0.3000',
      perpBase: '-0.01',
    });
  });
});
