import { expect } from 'chai';
import { ValidationError } from '../../../src/core/errors.js';
import type { DataRecord, RecordMarket } from '../../../src/marketdata/record/record.js';
import { BinanceL2Importer, type L2ImportOptions } from '../../../src/marketdata/import/binance-l2-importer.js';
import { ImportStats } from '../../../src/marketdata/import/import-stats.js';
import { compareBookWithTickers } from './support/book-check.js';
import { TempFiles, dataFixture } from './support/data-fixtures.js';

const SPOT = 'binance_spot_btcusdt_20240808.head300.gz';
const USDM_2023 = 'binance_usdm_btcusdt_20230404.head250.dat.gz';
const USDM_2023_LATER = 'binance_usdm_btcusdt_20230405.lines12830-12850.dat.gz';
const USDM_2024 = 'binance_usdm_btcusdt_20240808.head120.gz';

async function importAll(
  files: string[],
  opts: Partial<L2ImportOptions> & { market: RecordMarket },
): Promise<{ recs: DataRecord[]; stats: ImportStats }> {
  const stats = new ImportStats();
  const imp = new BinanceL2Importer(opts, stats);
  const recs: DataRecord[] = [];
  for (const f of files) for await (const r of imp.importFile(f)) recs.push(r);
  for (const r of imp.finish()) recs.push(r);
  return { recs, stats };
}

const countBy = (recs: readonly DataRecord[]): Record<string, number> =>
  recs.reduce<Record<string, number>>((acc, r) => ((acc[r.s] = (acc[r.s] ?? 0) + 1), acc), {});

describe('binance L2 importer', () => {
  const temp = new TempFiles();
  afterEach(() => temp.remove());

  it('imports_a_spot_recording_and_moves_the_snapshot_before_its_first_applicable_diff', async () => {
    const { recs, stats } = await importAll([dataFixture(SPOT)], { market: 'spot' });
    // 300 lines: 10 depth diffs, 56 trades, 233 bookTickers, 1 REST snapshot.
    expect(countBy(recs)).to.deep.equal({ 'depth.diff': 10, trade: 56, bookTicker: 233, 'depth.snapshot': 1 });
    // The snapshot (line 8, lastUpdateId 50093239218) syncs with the diff of line 6 (u 50093239224 > id),
    // received before it: it now precedes that diff and the bookTicker of line 7 (moved before 2).
    const k = recs.findIndex((r) => r.s === 'depth.snapshot');
    expect(recs[k + 1]).to.include({ s: 'depth.diff', U: 50093239208, u: 50093239224 });
    expect(recs.slice(0, k).map((r) => r.s)).to.deep.equal(['depth.diff', 'depth.diff', 'bookTicker', 'trade', 'bookTicker']);
    // Times: local 1723161254206 ms, offset from line 6 (E 1723161255408 − local 1723161254137 = 1271)
    // gives et 1723161255477; both are capped at the sync diff's (et 1723161255408, lt 1723161254137).
    expect(recs[k]).to.include({ et: 1723161255408, lt: 1723161254137, u: 50093239218 });
    expect(stats.depth.BTCUSDT).to.deep.include({ snapshots: 1, diffs: 10, unsynced: 2, stale: 0, applied: 8, gapCount: 0 });
    expect(stats.depth.BTCUSDT!.syncs).to.deep.equal([
      {
        file: dataFixture(SPOT),
        snapshotLine: 8,
        lastUpdateId: 50093239218,
        movedBefore: 2,
        diff: { file: dataFixture(SPOT), line: 6, U: 50093239208, u: 50093239224 },
        bracketed: true,
      },
    ]);
    expect(stats.warnings).to.deep.equal([]);
  });

  it('stamps_spot_book_tickers_with_local_time_plus_the_measured_exchange_offset', async () => {
    const { recs } = await importAll([dataFixture(SPOT)], { market: 'spot' });
    // Line 3 bookTicker (local 1723161254087, no E); latest E-bearing message is line 2:
    // E 1723161255308 − local 1723161254036 = 1272 → et 1723161255359.
    const t = recs.find((r) => r.s === 'bookTicker')!;
    expect(t).to.deep.equal({
      s: 'bookTicker',
      m: 'spot',
      i: 'BTCUSDT',
      et: 1723161255359,
      lt: 1723161254087,
      u: 50093239212,
      bp: '61837.63000000',
      bq: '3.78826000',
      ap: '61837.64000000',
      aq: '1.54698000',
    });
    // Line 4 trade: et is the trade time T, id t, m: true → taker sold.
    expect(recs.find((r) => r.s === 'trade')).to.deep.equal({
      s: 'trade',
      m: 'spot',
      i: 'BTCUSDT',
      et: 1723161255342,
      lt: 1723161254087,
      id: '3735683259',
      p: '61837.63000000',
      q: '0.02000000',
      ts: 'sell',
    });
  });

  it('rebuilds_a_book_from_snapshot_and_diffs_that_matches_the_book_ticker_of_the_same_update', async () => {
    // In these excerpts a ticker names the exact id of an applied diff 1 time (spot, 100 ms diffs)
    // and 5 times (USD-M 2023); the full recordings are compared in shared-data-evaluation.test.ts.
    for (const [file, market, expected] of [
      [SPOT, 'spot', 1],
      [USDM_2023, 'contract', 5],
    ] as const) {
      const { recs } = await importAll([dataFixture(file)], { market });
      const [matches, mismatches] = compareBookWithTickers(recs);
      expect(mismatches, file).to.deep.equal([]);
      expect(matches, file).to.equal(expected);
    }
  });

  it('turns_futures_mark_price_updates_into_fair_index_and_funding_records', async () => {
    const { recs, stats } = await importAll([dataFixture(USDM_2023)], { market: 'contract' });
    // 250 lines: 88 diffs, 65 trades, 94 bookTickers, 2 markPrice (each → fair + index + funding), 1 snapshot.
    expect(countBy(recs)).to.deep.equal({
      bookTicker: 94,
      trade: 65,
      'depth.snapshot': 1,
      'depth.diff': 88,
      fair: 2,
      index: 2,
      funding: 2,
    });
    // Line 51 (µs stamp 1680652701048293): E 1680652701000, p 28147.27373413, i 28159.75642857, r 0.00002754, T 1680652800000.
    const at = recs.filter((r) => r.et === 1680652701000 && r.lt === 1680652701048);
    expect(at).to.deep.equal([
      { s: 'fair', m: 'contract', i: 'BTC_USDT', et: 1680652701000, lt: 1680652701048, p: '28147.27373413' },
      { s: 'index', m: 'contract', i: 'BTC_USDT', et: 1680652701000, lt: 1680652701048, p: '28159.75642857' },
      { s: 'funding', m: 'contract', i: 'BTC_USDT', et: 1680652701000, lt: 1680652701048, r: '0.00002754', nt: 1680652800000 },
    ]);
    // The snapshot (line 17, E 1680652700590) stays in place: no diff came before it; line 18 brackets it.
    expect(stats.depth.BTC_USDT!.syncs[0]).to.deep.include({
      snapshotLine: 17,
      lastUpdateId: 2710246765483,
      movedBefore: 0,
      bracketed: true,
    });
    expect(recs.find((r) => r.s === 'depth.snapshot')).to.include({ et: 1680652700590, lt: 1680652700599 });
    expect(stats.depth.BTC_USDT).to.deep.include({ applied: 88, gapCount: 0, unsynced: 0 });
  });

  it('reports_a_sequence_gap_across_files_and_drops_the_insurance_fund_trade', async () => {
    const later = dataFixture(USDM_2023_LATER);
    const { recs, stats } = await importAll([dataFixture(USDM_2023), later], { market: 'contract' });
    const d = stats.depth.BTC_USDT!;
    // The first file ends at u 2710246809173; the excerpt's first diff (its line 1) has pu 2710254770717.
    expect(d.gapCount).to.equal(1);
    expect(d.gaps).to.deep.equal([{ file: later, line: 1, expected: 2710246809173, got: 2710254770717 }]);
    // Line 11 of the excerpt: X INSURANCE_FUND at 28722.50 is not a market trade.
    expect(stats.counters.nonMarketTrades).to.equal(1);
    expect(recs.some((r) => r.s === 'trade' && r.p === '28722.50')).to.equal(false);
    const kept = await importAll([later], { market: 'contract', includeNonMarketTrades: true });
    expect(kept.recs.some((r) => r.s === 'trade' && r.p === '28722.50')).to.equal(true);
  });

  it('syncs_a_futures_snapshot_with_a_diff_received_thirteen_records_earlier', async () => {
    const { recs, stats } = await importAll([dataFixture(USDM_2024)], { market: 'contract' });
    const sync = stats.depth.BTC_USDT!.syncs[0]!;
    // Snapshot line 55 (lastUpdateId 5123107852948); first diff with u ≥ id: line 42 (U …850310, u …853551).
    expect(sync).to.deep.include({ snapshotLine: 55, lastUpdateId: 5123107852948, movedBefore: 13, bracketed: true });
    expect(sync.diff).to.deep.include({ line: 42, U: 5123107850310, u: 5123107853551 });
    const k = recs.findIndex((r) => r.s === 'depth.snapshot');
    expect(recs[k + 1]).to.include({ s: 'depth.diff', u: 5123107853551 });
    // Snapshot E 1723161256501 < the diff's E 1723161256509: kept. Local 1723161255319 (stamp
    // 1723161255319702566 ns) > the diff's 1723161255240 (line 42, 1723161255240214766 ns): capped.
    expect(recs[k]).to.include({ et: 1723161256501, lt: 1723161255240 });
  });

  it('names_file_line_and_field_of_a_bad_line', async () => {
    const file = temp.write(
      'btcusdt_x.gz',
      '1723161253937085768 {"stream":"btcusdt@trade","data":{"e":"trade","E":1,"s":"BTCUSDT","t":1,"p":"1","q":"1","T":1,"m":true}}\n1723161253937085769 {not json\n',
      true,
    );
    const err = await importAll([file], { market: 'spot' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(ValidationError);
    expect((err as ValidationError).field).to.equal(`${file} line 2 field json`);
    const skip = await importAll([file], { market: 'spot', onBadRow: 'skip' });
    expect(skip.recs).to.have.length(1);
    expect(skip.stats.badRows).to.equal(1);
  });
});
