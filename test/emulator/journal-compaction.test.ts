import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommandJournal } from '../../src/emulator/engine/command-journal.js';
import type { EpochParams } from '../../src/emulator/engine/market-epochs.js';
import type { EmulatorConfigInput } from '../../src/emulator/emulator-config.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/start-emulator.js';
import { T0, raw, testConfig } from './support/emulator-kit.js';

const BOOKS = { BTCUSDT: { levels: 3 }, ETHUSDT: { levels: 3 }, BTC_USDT: { levels: 3 }, ETH_USDT: { levels: 3 } };

/** Journal rows per `target.method`, and the market entries in order. */
function inspect(path: string): { counts: Record<string, number>; market: { method: string; time: number; args: unknown[] }[] } {
  const j = new CommandJournal(path);
  try {
    const counts: Record<string, number> = {};
    const market: { method: string; time: number; args: unknown[] }[] = [];
    for (const e of j.entries()) {
      const k = `${e.target}.${e.method}`;
      counts[k] = (counts[k] ?? 0) + 1;
      if (e.target === 'market') market.push({ method: e.method, time: e.time, args: e.args });
    }
    return { counts, market };
  } finally {
    j.close();
  }
}

const depthOf = async (emu: RunningEmulator) => ({
  spot: (await raw(emu.url, 'GET', '/api/v3/depth?symbol=BTCUSDT&limit=20')).json,
  contract: (await raw(emu.url, 'GET', '/api/v1/contract/depth/BTC_USDT?limit=20')).json,
});

/**
 * The journal records the market model as its epochs and steps, not as the crowd's orders: the model
 * is seeded and clock-driven, so replaying its steps re-creates the same orders.
 */
describe('emulator journal compaction', function () {
  this.timeout(30_000);
  let dir: string;
  let path: string;
  const running: RunningEmulator[] = [];
  const config = (market: EmulatorConfigInput['market'] = { source: 'synthetic', books: BOOKS }) =>
    testConfig({ persistence: { path }, market });
  const start = async (c: EmulatorConfigInput) => {
    const emu = await startEmulator(c);
    running.push(emu);
    return emu;
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'emu-compact-'));
    path = join(dir, 'paper.sqlite');
  });
  afterEach(async () => {
    for (const e of running.splice(0)) await e.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('journals_one_entry_per_model_step_and_none_per_crowd_order', async () => {
    const emu = await start(config());
    emu.advance(60_000);
    const trades = (await raw(emu.url, 'GET', '/api/v3/trades?symbol=BTCUSDT&limit=1000')).json as unknown[];
    await emu.stop();
    // The crowd did trade (the tape has prints) …
    expect(trades.length).to.be.above(0);
    // … but the journal holds the model, not its orders. Steps at T0 + 1 s … T0 + 60 s: 60 ticks.
    // Funding at the first start: spot crowd 2 makers × 2 assets + the taker's BTC, ETH, USDT = 7
    // deposits, users alice 3 + reader 1 + bob 2 = 6; contract crowd 1 taker + 2 × 4 makers = 9
    // accounts, users 3, one USDT deposit each; reference prices of the 2 spot symbols.
    expect(inspect(path).counts).to.deep.equal({
      'market.begin': 1,
      'market.tick': 60,
      'spot.deposit': 13,
      'spot.setReferencePrice': 2,
      'contract.openAccount': 12,
      'contract.deposit': 12,
    });
  });

  it('continues_the_replayed_epoch_when_the_config_is_unchanged', async () => {
    const first = await start(config());
    first.advance(10_000);
    const before = await depthOf(first);
    await first.stop();
    running.splice(0);
    const second = await start(config());
    // The crowd book is the one the model had: nothing was cancelled and re-laid.
    expect(await depthOf(second)).to.deep.equal(before);
    second.advance(5000);
    await second.stop();
    const { market } = inspect(path);
    expect(market.map((m) => m.method)).to.deep.equal(['begin', ...Array<string>(15).fill('tick')]);
    expect(market.map((m) => m.time)).to.deep.equal([T0, ...Array.from({ length: 15 }, (_, k) => T0 + (k + 1) * 1000)]);
  });

  it('begins_a_new_epoch_from_the_last_prices_when_the_market_config_changed', async () => {
    const first = await start(config());
    first.advance(10_000);
    const last = Number(((await raw(first.url, 'GET', '/api/v3/ticker/price?symbol=BTCUSDT')).json as { price: string }).price);
    await first.stop();
    running.splice(0);

    const changed = config({ source: 'synthetic', books: BOOKS, volatilityPerYear: 0.8 });
    const second = await start(changed);
    expect(second.checkInvariants()).to.deep.equal([]);
    second.advance(3000);
    const depth = await depthOf(second);
    await second.stop();
    running.splice(0);

    const { market } = inspect(path);
    const methods = market.map((m) => m.method);
    // begin (epoch 0), 10 ticks, then at T0 + 10 s: end, begin (epoch 1), and its 3 ticks.
    expect(methods).to.deep.equal(['begin', ...Array<string>(10).fill('tick'), 'end', 'begin', 'tick', 'tick', 'tick']);
    const epoch1 = market[12]!.args[0] as EpochParams;
    expect([epoch1.epoch, market[12]!.time, epoch1.startPrices.BTCUSDT]).to.deep.equal([1, T0 + 10_000, last]);

    // The new epoch is replayed and continued like the first.
    const third = await start(changed);
    expect(await depthOf(third)).to.deep.equal(depth);
    expect(third.checkInvariants()).to.deep.equal([]);
  });
});
