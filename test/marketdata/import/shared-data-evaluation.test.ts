/**
 * Imports the FULL real files of ../shared/data (SOURCES.md there gives the expected counts) and
 * reads them back from the store. Skipped, with the reason on stderr, when that folder is absent.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import type { DataRecord, FundingRecord, KlineRecord, RecordMarket } from '../../../src/marketdata/record/record.js';
import { importCommand, type ImportSummary } from '../../../src/app/cli/import-command.js';
import type { ImportKind } from '../../../src/marketdata/import/import-kinds.js';
import { RecordStoreReader } from '../../../src/marketdata/store/record-store-reader.js';
import { compareBookWithTickers } from './support/book-check.js';
import { TempFiles, sharedDataDir } from './support/data-fixtures.js';

describe('import of the full ../shared/data files', function () {
  this.timeout(240_000);
  const temp = new TempFiles();
  let data = '';

  before(function () {
    const dir = sharedDataDir();
    if (!dir) {
      process.stderr.write('    skipped: ../shared/data (relative to the project) is absent; the full-file import evaluation needs it\n');
      this.skip();
    }
    data = dir!;
  });
  after(() => temp.remove());

  async function load(kind: ImportKind, market: RecordMarket, files: string[]): Promise<{ summary: ImportSummary; recs: DataRecord[] }> {
    const out = join(temp.dir(), 'store');
    const summary = await importCommand({ kind, market, out, input: files.map((f) => join(data, f)), progress: false });
    const reader = RecordStoreReader.open(out);
    try {
      const recs = [...reader.records({ order: 'receive' })];
      expect(recs).to.have.length(summary.records);
      // Time order from disk: non-decreasing exchange time.
      let prev = -Infinity;
      for (const r of reader.records()) {
        expect(r.et).to.be.at.least(prev);
        prev = r.et;
      }
      return { summary, recs };
    } finally {
      reader.close();
    }
  }

  const L2_SETS: {
    name: string;
    market: RecordMarket;
    files: string[];
    diffs: number;
    trades: number;
    bookTickers?: number;
    markPrice?: number;
  }[] = [
    {
      name: 'spot BTCUSDT',
      market: 'spot',
      files: ['binance_spot_btcusdt_20240808.gz', 'binance_spot_btcusdt_20240809.gz'],
      diffs: 6495,
      trades: 19904,
      bookTickers: 73174,
    },
    {
      name: 'spot ETHUSDT',
      market: 'spot',
      files: ['binance_spot_ethusdt_20240808.gz', 'binance_spot_ethusdt_20240809.gz'],
      diffs: 6470,
      trades: 14515,
    },
    // 12,935 trades minus the one INSURANCE_FUND trade.
    {
      name: 'USD-M BTCUSDT 2023',
      market: 'contract',
      files: ['binance_usdm_btcusdt_20230404.dat.gz', 'binance_usdm_btcusdt_20230405.dat.gz'],
      diffs: 16110,
      trades: 12934,
      markPrice: 514,
    },
    {
      name: 'USD-M BTCUSDT 2024',
      market: 'contract',
      files: ['binance_usdm_btcusdt_20240808.gz'],
      diffs: 6551,
      trades: 21313,
      bookTickers: 66089,
    },
    { name: 'USD-M ETHUSDT 2024', market: 'contract', files: ['binance_usdm_ethusdt_20240808.gz'], diffs: 6586, trades: 14076 },
  ];

  for (const set of L2_SETS) {
    it(`imports_the_l2_recording_${set.name.replace(/[^A-Za-z0-9]+/g, '_')}_with_one_exact_sync_and_no_gaps`, async () => {
      const { summary, recs } = await load(
        'l2',
        set.market,
        set.files.map((f) => join('binance_l2_feed', f)),
      );
      expect(summary.byStream['depth.diff']).to.equal(set.diffs);
      expect(summary.byStream.trade).to.equal(set.trades);
      expect(summary.byStream['depth.snapshot']).to.equal(1);
      if (set.bookTickers !== undefined) expect(summary.byStream.bookTicker).to.equal(set.bookTickers);
      if (set.markPrice !== undefined)
        expect([summary.byStream.fair, summary.byStream.index, summary.byStream.funding]).to.deep.equal([
          set.markPrice,
          set.markPrice,
          set.markPrice,
        ]);
      const depth = Object.values(summary.depth);
      expect(depth).to.have.length(1);
      expect(depth[0]).to.deep.include({ gapCount: 0, stale: 0 });
      expect(depth[0]!.syncs).to.have.length(1);
      expect(depth[0]!.syncs[0]!.bracketed).to.equal(true);
      // Every diff after the sync applies; those before it had no book.
      expect(depth[0]!.applied + depth[0]!.unsynced).to.equal(set.diffs);
      const [matches, mismatches] = compareBookWithTickers(recs);
      expect(mismatches.slice(0, 3)).to.deep.equal([]);
      expect(matches).to.be.greaterThan(10);
    });
  }

  const KLINES: { file: string; market: RecordMarket; rows: number; maxHigh?: string }[] = [
    // SOURCES.md: BTC peaks at 124,474.00 on 2025-08-14 (the file writes 124474.0).
    { file: 'binance_spot_1m/binance_spot_BTCUSDT_1m_2025-05-20_2025-08-18.csv', market: 'spot', rows: 130708, maxHigh: '124474.0' },
    { file: 'binance_spot_1m/binance_spot_ETHUSDT_1m_2025-05-20_2025-08-18.csv', market: 'spot', rows: 130708 },
    { file: 'binance_perp_1m/binance_usdm_BTCUSDT_perp_1m_2025-05-04_2025-06-24.csv', market: 'contract', rows: 73139 },
    { file: 'binance_perp_1m/binance_usdm_ETHUSDT_perp_1m_2025-05-04_2025-06-24.csv', market: 'contract', rows: 73140 },
    { file: 'mexc_spot_1m/mexc_spot_DOGEUSDT_1m_2026-05-20_2026-06-19.Last.txt', market: 'spot', rows: 43148 },
  ];

  for (const k of KLINES) {
    it(`imports_every_bar_of_${k.file.split('/')[1]!.replace(/[^A-Za-z0-9]+/g, '_')}_without_gaps`, async () => {
      const { summary, recs } = await load('klines', k.market, [k.file]);
      expect(summary.records).to.equal(k.rows);
      expect(summary.counters).to.deep.equal({});
      if (k.maxHigh !== undefined) {
        const top = (recs as KlineRecord[]).reduce((a, b) => (Number(b.h) > Number(a.h) ? b : a));
        expect(top.h).to.equal(k.maxHigh);
        // 2025-08-14 00:32 UTC
        expect(top.ot).to.equal(Date.UTC(2025, 7, 14, 0, 32));
      }
    });
  }

  for (const [file, rows] of [
    ['binance_usdm_BTCUSDT_funding_rate_8h_2022-01-01_2025-10-27.csv', 4188],
    ['binance_usdm_ETHUSDT_funding_rate_8h_2025-03-06_2025-06-24.csv', 329],
  ] as const) {
    it(`replays_the_funding_history_${file.split('_')[2]}_settling_every_row`, async () => {
      const { recs } = await load('funding', 'contract', [join('binance_perp_funding_mark', file)]);
      // One record per row plus the carried-forward one; replay settles exactly `rows` times.
      expect(recs).to.have.length(rows + 1);
      let settled = 0;
      let prev: FundingRecord | undefined;
      for (const r of recs as FundingRecord[]) {
        if (prev && r.nt! > prev.nt!) settled++;
        prev = r;
      }
      expect(settled).to.equal(rows);
    });
  }

  for (const [file, rows] of [
    ['binance_usdm_BTCUSDT_mark_price_8h_2022-01-01_2025-10-28.csv', 4189],
    ['binance_usdm_ETHUSDT_mark_price_8h_2025-03-06_2025-06-24.csv', 329],
  ] as const) {
    it(`imports_mark_price_candles_${file.split('_')[2]}_as_fair_prices`, async () => {
      const { summary } = await load('mark', 'contract', [join('binance_perp_funding_mark', file)]);
      expect(summary.byStream).to.deep.equal({ fair: rows });
    });
  }
});
