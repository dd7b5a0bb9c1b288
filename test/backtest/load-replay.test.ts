/**
 * loadReplay from a record store decodes a kline-only instrument's bars straight into ticks and lots
 * (ScaleSpec.bars: no decimal string, no record object); from the CSV files the same bars are loaded as
 * records and converted afterwards (compileBar). Differential: over the same data, whole or cut by an
 * unaligned from / to, both give the same events, streams and counts — the store path is checked
 * against the path that reads the raw files.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importCommand } from '../../src/app/cli/import-command.js';
import { loadReplayData } from '../../src/backtest/backtest-data.js';
import { loadReplay } from '../../src/backtest/load-replay.js';
import { carriedFrom, compileBar, replayScale, type ReplayEvent } from '../../src/backtest/replay-market.js';
import type { BacktestConfig } from '../../src/backtest/backtest-config.js';
import { PERP_FUNDING_FILE, PERP_KLINES_FILE, perpTrendConfig, perpTrendDoc } from './support/backtest-fixtures.js';

/** An event's fields plus when a carried one was really stamped. */
const shown = (e: ReplayEvent): unknown => ({ ...e, carriedFrom: carriedFrom.get(e) });

describe('load replay', function () {
  this.timeout(120_000);
  let dir: string;
  let store: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'perpetua-load-replay-'));
    store = join(dir, 'store');
    const common = { out: store, market: 'contract' as const, symbol: 'BTCUSDT', progress: false };
    await importCommand({ ...common, kind: 'klines', input: [PERP_KLINES_FILE], interval: '1m' });
    await importCommand({ ...common, kind: 'funding', input: [PERP_FUNDING_FILE] });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const configs = (window: Record<string, string>): { files: BacktestConfig; store: BacktestConfig } => {
    const doc = perpTrendDoc();
    const bt = doc.backtest as Record<string, unknown>;
    return {
      files: perpTrendConfig({ backtest: { ...bt, ...window } }),
      store: perpTrendConfig({ backtest: { ...bt, ...window, data: [{ kind: 'store', path: store }] } }),
    };
  };

  for (const [name, window] of [
    ['whole', {}],
    ['cut_unaligned', { from: '2025-05-04T16:10:20Z', to: '2025-05-04T22:03:30Z' }],
  ] as const) {
    it(`store_and_files_give_the_same_replay_${name}`, async () => {
      const c = configs(window);
      const a = await loadReplay(c.files, process.cwd());
      const b = await loadReplay(c.store, process.cwd());
      const ea = [...a.events];
      const eb = [...b.events];
      expect(ea.filter((e) => e.s === 'bar').length, 'bars (else this proves nothing)').to.be.greaterThan(300);
      expect(eb.map(shown)).to.deep.equal(ea.map(shown));
      expect(b.streams).to.deep.equal(a.streams);
      expect(b.records).to.equal(a.records);
      expect(b.perModel).to.equal(a.perModel);
    });
  }

  it('reads_the_bars_of_a_store_as_compiled_bars_equal_to_the_converted_records', async () => {
    const config = perpTrendConfig();
    const scale = replayScale(config.instruments[0]!);
    const opts = { instruments: ['contract:BTCUSDT'] };
    const direct = await loadReplayData([{ kind: 'store', path: store }], {
      ...opts,
      bars: new Map([[scale.key, { ...scale, bars: true }]]),
    });
    const asRecords = await loadReplayData([{ kind: 'store', path: store }], { ...opts, bars: new Map() });
    expect(direct.records.filter((r) => r.s === 'bar')).to.have.length(600);
    expect(direct.records.filter((r) => r.s === 'kline')).to.have.length(0);
    // BTC_USDT: tick 0.1, 0.0001 BTC a contract (quantityUnit base): 95505.4 → 955054 ticks, 16.536 BTC → 165360 lots.
    expect(direct.records.find((r) => r.s === 'bar')).to.deep.include({ open: 955_054, high: 955_055, volumeLots: 165_360 });
    const converted = asRecords.records.map((r) => (r.s === 'kline' ? compileBar(r, scale) : r));
    expect(direct.records.map(shown)).to.deep.equal(converted.map(shown));
  });
});
