/**
 * The four data defects an independent recomputation of the backtester found (issue 13), each on real
 * recorded data: a coarse mark series froze the fair price, `backtest.to` dropped the last bar,
 * importing a file twice doubled its records, and an L2 store without a depth snapshot gave an empty
 * run without a word. Every test here failed on the code before the fixes.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ValidationError } from '../../src/core/errors.js';
import { loadBacktestData } from '../../src/backtest/backtest-data.js';
import { runBacktest, type BacktestResult } from '../../src/backtest/backtest-runner.js';
import type { BacktestConfig } from '../../src/backtest/backtest-config.js';
import { importCommand } from '../../src/app/cli/import-command.js';
import { RecordStoreReader } from '../../src/marketdata/store/record-store-reader.js';
import { PROJECT_ROOT } from '../support/project-root.js';
import { FIXTURES, PERP_FUNDING_FILE, PERP_KLINES_FILE, perpTrendConfig, perpTrendDoc, spotMmConfig } from './support/backtest-fixtures.js';

const MARK_8H_FILE = join(FIXTURES, 'binance_usdm_BTCUSDT_mark_price_8h_2025-05-04.rows.csv');
/** The second file of the shipped L2 pair: bookTicker, diffs and trades, but no REST snapshot line. */
const L2_NO_SNAPSHOT = join(PROJECT_ROOT, 'data', 'sample', 'binance_spot_btcusdt_20240809.gz');

async function run(config: BacktestConfig): Promise<BacktestResult> {
  const bt = config.backtest;
  const { records } = await loadBacktestData(bt.data, {
    ...(bt.from !== undefined ? { from: bt.from } : {}),
    ...(bt.to !== undefined ? { to: bt.to } : {}),
  });
  return runBacktest({ config, records, fillModel: config.fillModels.find((m) => m.name === 'neutral')! });
}

/** The bars of the fixture file, by open time: [open, close] as numbers. */
async function bars(): Promise<Map<number, { open: number; close: number }>> {
  const { records } = await loadBacktestData([
    { kind: 'klines', files: [PERP_KLINES_FILE], market: 'contract', symbol: 'BTCUSDT', interval: '1m' },
  ]);
  const out = new Map<number, { open: number; close: number }>();
  for (const r of records) if (r.s === 'kline') out.set(r.ot, { open: Number(r.o), close: Number(r.c) });
  return out;
}

describe('issue 13 data defects', function () {
  this.timeout(120_000);

  describe('1: a coarse mark series does not freeze the fair price', () => {
    const withMark = (file: string, interval?: string) =>
      perpTrendConfig({
        backtest: {
          ...(perpTrendDoc().backtest as Record<string, unknown>),
          data: [
            { kind: 'klines', files: [PERP_KLINES_FILE], market: 'contract', symbol: 'BTCUSDT', interval: '1m' },
            { kind: 'mark', files: [file], market: 'contract', symbol: 'BTCUSDT', ...(interval ? { interval } : {}) },
            { kind: 'funding', files: [PERP_FUNDING_FILE], market: 'contract', symbol: 'BTCUSDT' },
          ],
        },
      });

    it('values_the_run_at_the_traded_price_and_warns_when_the_mark_is_8_hourly', async () => {
      const r = await run(withMark(MARK_8H_FILE));
      const byOpen = await bars();
      // Expected by hand: a sample at minute t is taken after the bar that opened at t − 1 min has run
      // its path to its close, so the mark is that close (the mid of the synthetic book around it: at
      // most half a tick, 0.05, away). The 8-hour file gives three marks (95842.1 carried in, 95421.1 at
      // 16:00, 94240.51 at 00:00) that sat up to 1,000 USDT off the traded price for hours.
      // Within a bar of a recorded mark (16:00, 00:00), the mark itself stands, no older than a 1-minute
      // mark series would be; it is shown at the venue's 0.1 tick (94240.51430435 → 94240.5).
      const recorded = new Map([
        [Date.parse('2025-05-04T16:00:00Z'), '95421.1'],
        [Date.parse('2025-05-05T00:00:00Z'), '94240.5'],
      ]);
      let checked = 0;
      for (const s of r.run.samples) {
        const bar = byOpen.get(s.time - 60_000);
        if (!bar || s === r.run.samples[r.run.samples.length - 1]) continue;
        const mark = recorded.get(s.time - 60_000);
        if (mark !== undefined) {
          expect(s.marks.BTC_USDT!.toFixed(), `mark at ${new Date(s.time).toISOString()}`).to.equal(mark);
          continue;
        }
        // In ticks (0.1), exactly: the mid is the close or half a tick from it.
        const offTicks = Math.abs(Math.round(Number(s.marks.BTC_USDT!.toFixed()) * 100) - Math.round(bar.close * 100)) / 10;
        expect(offTicks, `mark at ${new Date(s.time).toISOString()}`).to.be.at.most(0.5);
        checked++;
      }
      expect(checked).to.be.greaterThan(500);
      expect(
        r.stats.warnings.filter((w) => w.includes('recorded mark of contract:BTCUSDT is sampled as coarsely as every 8 h')),
      ).to.have.length(1);
    });

    it('keeps_a_mark_as_fine_as_the_bars_and_says_nothing', async () => {
      // The bar file read as 1-minute mark candles: every mark is a bar's open, never older than a bar.
      const r = await run(withMark(PERP_KLINES_FILE, '1m'));
      const opens = new Set([...(await bars()).values()].map((b) => b.open));
      for (const s of r.run.samples.slice(1)) expect(opens.has(Number(s.marks.BTC_USDT!.toFixed())), `mark at ${s.time}`).to.equal(true);
      expect(r.stats.warnings.filter((w) => w.includes('recorded mark'))).to.deep.equal([]);
    });
  });

  describe('2: backtest.to keeps the bar that opens at to − 1 min', () => {
    it('replays_the_last_bar_inside_the_range_to_its_close', async () => {
      const to = Date.parse('2025-05-04T20:00:00Z');
      const r = await run(
        perpTrendConfig({ backtest: { ...(perpTrendDoc().backtest as Record<string, unknown>), to: '2025-05-04T20:00:00Z' } }),
      );
      // The bar 19:59 → 20:00 lies wholly inside [from, to): its path's last point is at to − 1 ms.
      expect(r.run.dataRange.lastTime).to.equal(to - 1);
      // Bars 15:33 … 19:59 (267) and the funding record of 16:00 (plus the one carried to the start).
      const klines = [...(await bars()).keys()].filter((ot) => ot < to).length;
      expect(klines).to.equal(267);
      expect(r.run.dataRange.recordCount).to.equal(klines + 2);
    });
  });

  describe('3: importing the same file twice does not duplicate its records', () => {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'perpetua-reimport-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    const count = (store: string): number => {
      const reader = RecordStoreReader.open(store);
      try {
        let n = 0;
        for (const r of reader.records()) if (r.s === 'kline') n++;
        return n;
      } finally {
        reader.close();
      }
    };

    it('appends_nothing_the_second_time_and_says_so', async () => {
      const store = join(dir, 'store');
      const first = await importCommand({
        kind: 'klines',
        input: [PERP_KLINES_FILE],
        out: store,
        market: 'contract',
        symbol: 'BTCUSDT',
        progress: false,
      });
      expect(first.records).to.equal(600);
      const second = await importCommand({
        kind: 'klines',
        input: [PERP_KLINES_FILE],
        out: store,
        market: 'contract',
        symbol: 'BTCUSDT',
        progress: false,
      });
      // Before: 1,200 bars in the store, each replayed twice.
      expect(count(store)).to.equal(600);
      expect(second.records).to.equal(0);
      expect(second.alreadyStored).to.equal(600);
      expect(second.warnings.join('\n')).to.match(
        /600 contract:BTCUSDT kline records from 2025-05-04T15:34:00\.000Z to 2025-05-05T01:33:00\.000Z were already in/,
      );
    });

    it('still_appends_other_streams_and_later_data', async () => {
      const store = join(dir, 'store');
      await importCommand({
        kind: 'klines',
        input: [join(PROJECT_ROOT, 'test', 'fixtures', 'data', 'binance_usdm_BTCUSDT_perp_1m_2025-05-04.head60.csv')],
        out: store,
        market: 'contract',
        symbol: 'BTCUSDT',
        progress: false,
      });
      expect(count(store)).to.equal(60);
      // The 600-bar file starts with the same 60 bars: only the 540 after them are new.
      const more = await importCommand({
        kind: 'klines',
        input: [PERP_KLINES_FILE],
        out: store,
        market: 'contract',
        symbol: 'BTCUSDT',
        progress: false,
      });
      expect(count(store)).to.equal(600);
      expect([more.records, more.alreadyStored]).to.deep.equal([540, 60]);
      // Another stream of the same instrument and time is new: all of it goes in, as into an empty store.
      const funding = await importCommand({
        kind: 'funding',
        input: [PERP_FUNDING_FILE],
        out: store,
        market: 'contract',
        symbol: 'BTCUSDT',
        progress: false,
      });
      const alone = await importCommand({
        kind: 'funding',
        input: [PERP_FUNDING_FILE],
        out: join(dir, 'alone'),
        market: 'contract',
        symbol: 'BTCUSDT',
        progress: false,
      });
      expect(funding.alreadyStored).to.equal(0);
      expect(funding.records).to.equal(alone.records).and.to.be.greaterThan(0);
      expect(count(store)).to.equal(600);
    });
  });

  describe('4: an L2 store without a depth snapshot', () => {
    let dir: string;
    before(() => (dir = mkdtempSync(join(tmpdir(), 'perpetua-nosnap-'))));
    after(() => rmSync(dir, { recursive: true, force: true }));

    const storeConfig = (store: string) =>
      spotMmConfig({
        backtest: {
          initialCapital: '100000',
          seed: 7,
          samplePeriodMs: 1000,
          pollLatencyMs: 50,
          to: '2024-08-09T00:02:00Z',
          instruments: { BTCUSDT: { preset: 'BTCUSDT', fees: { maker: '0', taker: '0.0005' } } },
          data: [{ kind: 'store', path: store }],
        },
      });

    it('trades_on_the_bookTicker_book_and_warns', async () => {
      const store = join(dir, 'with-ticker');
      await importCommand({ kind: 'l2', input: [L2_NO_SNAPSHOT], out: store, market: 'spot', symbol: 'BTCUSDT', progress: false });
      const r = await run(storeConfig(store));
      // Before: the diffs waited for a snapshot that never came and bookTicker was dropped (the
      // instrument "had depth"): no book, 0 orders, no warning.
      expect(r.run.orders.length).to.be.greaterThan(0);
      expect(r.stats.warnings.filter((w) => w.includes('spot:BTCUSDT has depth diffs but no depth snapshot'))).to.have.length(1);
    });

    it('refuses_a_store_of_diffs_alone_with_a_clear_error', async () => {
      const store = join(dir, 'diffs-only');
      const full = await loadBacktestData([{ kind: 'l2', files: [L2_NO_SNAPSHOT], market: 'spot', symbol: 'BTCUSDT' }]);
      const { RecordStoreWriter } = await import('../../src/marketdata/store/record-store-writer.js');
      const w = RecordStoreWriter.open(store, { segmentPeriod: 'none', maxBufferedMs: Infinity, fsync: 'never' });
      for (const rec of full.records) if (rec.s !== 'bookTicker') w.append(rec);
      w.close();
      let err: unknown;
      await run(storeConfig(store)).catch((e: unknown) => (err = e));
      expect(err).to.be.instanceOf(ValidationError);
      expect((err as Error).message).to.match(/backtest\.data: expected a depth snapshot \(or bookTicker records\) for spot:BTCUSDT/);
    });
  });
});
