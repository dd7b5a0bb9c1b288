import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator/start-emulator.js';
import { KEYS, phaseOne, phaseTwo, readRefs, scenarioConfig, type ScenarioRefs } from './support/restart-scenario.js';
import { allReadIds, readEverything, readIdsOf } from './support/read-everything.js';

type Answers = Record<string, unknown>;
const bodyOf = (a: Answers, key: string): unknown => (a[key] as { body: unknown } | undefined)?.body;
const dataOf = (a: Answers, key: string): unknown => (bodyOf(a, key) as { data?: unknown } | undefined)?.data;

/**
 * Everything a user changes through the API comes back after `stop()` + `startEmulator()` on the same
 * journal: every read endpoint of both documents answers the same before and after, for every account.
 */
describe('emulator persistence of every kind of state', function () {
  this.timeout(60_000);
  let dir: string;
  const running: RunningEmulator[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'emu-state-'));
  });
  afterEach(async () => {
    for (const e of running.splice(0)) await e.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const start = async (path: string) => {
    const emu = await startEmulator(scenarioConfig(path));
    running.push(emu);
    return emu;
  };

  it('answers_every_read_endpoint_the_same_before_and_after_a_restart', async () => {
    const path = join(dir, 'paper.sqlite');
    const refs: ScenarioRefs = {};
    const first = await start(path);
    first.advance(1000);
    await phaseOne(first, refs);
    // Across 00:00 UTC: equity snapshots and a funding settlement happen with the market running.
    first.advance(90_000);
    await phaseTwo(first);
    first.advance(2000);
    const t = first.clock.now();
    const before = await readEverything(first.url, KEYS, readRefs(refs), t);
    await first.stop();
    running.splice(0);

    // Arrange checks: each kind of state really is there, so the comparison below cannot pass on two
    // empty answers.
    expect(dataOf(before, 'spot.platformDeductStatus master ')).to.deep.equal({ platformDeductEnable: true });
    expect(dataOf(before, 'spot.queryStpGroups master alpha')).to.deep.include.members([
      {
        tradeGroupName: 'alpha',
        tradeGroupId: Number(refs.stpGroupId),
        tradeGroupUid: '20000002,20000001',
        createTime: t - 92_000,
        updateTime: t - 92_000,
      },
    ]);
    expect((dataOf(before, 'contract.stpBlacklist mm bl1') as { blackList: string[] }[]).map((g) => g.blackList)).to.deep.equal([
      ['20000011'],
    ]);
    expect(dataOf(before, 'contract.positionMode sub1 ')).to.equal(2);
    expect(
      (dataOf(before, 'contract.positionLeverage master BTC_USDT') as { positionType: number; openType: number; leverage: number }[]).find(
        (r) => r.positionType === 1 && r.openType === 1,
      )?.leverage,
    ).to.equal(33);
    // The stop-loss on the position and the TP/SL of the resting limit order.
    expect((dataOf(before, 'contract.openStopOrders master ') as unknown[]).length).to.equal(2);
    expect((dataOf(before, 'contract.planOrders master ') as unknown[]).length).to.equal(1);
    expect((dataOf(before, 'contract.trackOrders master ') as unknown[]).length).to.equal(1);
    const order = dataOf(before, `contract.getOrder master ${refs.tpslOrderId!}`) as Record<string, unknown>;
    expect([order.takeProfitPrice, order.stopLossPrice, order.profitTrend, order.lossTrend]).to.deep.equal([95000, 70000, 2, 3]);
    // The 00:00 snapshot is what tiered_fee_rate reports as walletBalance; sub1 traded (and paid fees)
    // after midnight, so its live equity differs from it.
    const wallet = (dataOf(before, 'contract.tieredFeeRate sub1 BTC_USDT') as { walletBalance: number }).walletBalance;
    const equity = (dataOf(before, 'contract.asset sub1 ') as { equity: number }).equity;
    expect(wallet).to.be.above(0);
    expect(wallet).to.not.equal(equity);
    expect(readIdsOf(before)).to.deep.equal(allReadIds());

    const second = await start(path);
    expect(second.replayed).to.be.above(0);
    expect(second.clock.now()).to.equal(t);
    const after = await readEverything(second.url, KEYS, readRefs(refs), t);
    for (const key of Object.keys(before)) expect(after[key], key).to.deep.equal(before[key]);
    expect(Object.keys(after)).to.deep.equal(Object.keys(before));
    expect(second.checkInvariants()).to.deep.equal([]);
  });

  it('gives_the_same_answers_after_restarts_as_an_uninterrupted_run', async () => {
    // Uninterrupted, without a journal.
    const refsA: ScenarioRefs = {};
    const a = await startEmulator(scenarioConfig());
    running.push(a);
    a.advance(1000);
    await phaseOne(a, refsA);
    a.advance(45_000);
    a.advance(45_000);
    await phaseTwo(a);
    a.advance(2000);
    const expected = await readEverything(a.url, KEYS, readRefs(refsA), a.clock.now());

    // The same session stopped and restarted twice: before and after midnight.
    const path = join(dir, 'paper.sqlite');
    const refsB: ScenarioRefs = {};
    let b = await start(path);
    b.advance(1000);
    await phaseOne(b, refsB);
    b.advance(45_000);
    await b.stop();
    b = await start(path);
    b.advance(45_000);
    await b.stop();
    b = await start(path);
    await phaseTwo(b);
    b.advance(2000);
    const actual = await readEverything(b.url, KEYS, readRefs(refsB), b.clock.now());

    expect(refsB).to.deep.equal(refsA);
    for (const key of Object.keys(expected)) expect(actual[key], key).to.deep.equal(expected[key]);
    expect(b.checkInvariants()).to.deep.equal([]);
  });
});
