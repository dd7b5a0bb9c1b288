import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import type { FundingRecord } from '../../../src/marketdata/record/record.js';
import { importFundingFile } from '../../../src/marketdata/import/funding-csv-importer.js';
import { ImportStats } from '../../../src/marketdata/import/import-stats.js';
import { TempFiles, collect, dataFixture } from './support/data-fixtures.js';

const H = 3_600_000;

async function run(file: string, opts: Parameters<typeof importFundingFile>[1]): Promise<{ recs: FundingRecord[]; stats: ImportStats }> {
  const stats = new ImportStats();
  const recs = (await collect(importFundingFile(file, opts, stats))) as FundingRecord[];
  return { recs, stats };
}

/** The replay's rule (record-applier.ts): when the announced nt moves on, the previous rate settles at its nt. */
function settlements(recs: readonly FundingRecord[]): [number, string][] {
  const out: [number, string][] = [];
  let prev: FundingRecord | undefined;
  for (const r of recs) {
    if (prev && r.nt! > prev.nt!) out.push([prev.nt!, prev.r]);
    prev = r;
  }
  return out;
}

describe('funding csv importer', () => {
  const temp = new TempFiles();
  afterEach(() => temp.remove());

  it('announces_each_rate_for_its_period_so_the_replay_settles_every_row_at_its_time', async () => {
    const file = dataFixture('binance_usdm_BTCUSDT_funding_rate_8h_2022-01-01.head30.csv');
    const { recs, stats } = await run(file, { market: 'contract' });
    // 30 rows + one record carrying the last rate forward.
    expect(recs).to.have.length(31);
    // Row 1: 1640995200006,0.00010000; cycle from the next row: (1641024000009 − 1640995200006) / 1 h ≈ 8.
    expect(recs[0]).to.deep.equal({
      s: 'funding',
      m: 'contract',
      i: 'BTC_USDT',
      et: 1640995200006 - 8 * H,
      lt: 1640995200006 - 8 * H,
      r: '0.00010000',
      nt: 1640995200006,
      cy: 8,
    });
    // Row 2 is announced at row 1's settlement.
    expect(recs[1]).to.include({ et: 1640995200006, nt: 1641024000009, r: '0.00010000', cy: 8 });
    // Last row 1641830400007,0.00010000 → carried forward to 1641830400007 + 8 h.
    expect(recs[30]).to.include({ et: 1641830400007, nt: 1641830400007 + 8 * H, r: '0.00010000' });
    expect(stats.counters).to.deep.equal({ carriedForward: 1 });
    // Replayed, the settlements are exactly the file's rows.
    const rows = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','))
      .map(([t, r]) => [Number(t), r] as [number, string]);
    expect(settlements(recs)).to.deep.equal(rows);
  });

  it('keeps_negative_rates_exactly', async () => {
    const { recs } = await run(dataFixture('binance_usdm_ETHUSDT_funding_rate_8h_2025-03-06.head20.csv'), { market: 'contract' });
    // Row 2: 1741305600000,-0.00002474, announced at row 1's time 1741276800000.
    expect(recs[1]).to.include({ i: 'ETH_USDT', et: 1741276800000, nt: 1741305600000, r: '-0.00002474' });
  });

  it('reads_the_data_binance_vision_layout_with_its_interval_column', async () => {
    const file = temp.write(
      'funding.csv',
      'calc_time,funding_interval_hours,last_funding_rate\n1704067200000,4,0.00010000\n1704081600000,4,-0.00003000\n',
    );
    const { recs } = await run(file, { market: 'contract', symbol: 'BTC_USDT' });
    // cycle 4 h from the column: first announced at 1704067200000 − 4 h.
    expect(recs.map((r) => [r.et, r.nt, r.r, r.cy])).to.deep.equal([
      [1704067200000 - 4 * H, 1704067200000, '0.00010000', 4],
      [1704067200000, 1704081600000, '-0.00003000', 4],
      [1704081600000, 1704081600000 + 4 * H, '-0.00003000', 4],
    ]);
  });

  it('skips_a_row_that_does_not_move_forward_and_names_a_bad_rate', async () => {
    const file = temp.write(
      'BTCUSDT_funding.csv',
      'funding_time,funding_rate\n1704067200000,0.0001\n1704067200000,0.0001\n1704096000000,x\n',
    );
    const { stats } = await run(file, { market: 'contract', onBadRow: 'skip' });
    expect(stats.counters.duplicates).to.equal(1);
    expect(stats.badRows).to.equal(1);
    expect(stats.warnings.some((w) => w.includes('line 4 field funding_rate'))).to.equal(true);
  });
});
