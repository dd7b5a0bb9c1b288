import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { ValidationError } from '../../../src/core/errors.js';
import type { DataRecord, KlineRecord, PriceRecord } from '../../../src/marketdata/record/record.js';
import { ImportStats } from '../../../src/marketdata/import/import-stats.js';
import {
  importKlineFile,
  intervalFromFileName,
  klineCloseTime,
  type KlineImportOptions,
} from '../../../src/marketdata/import/kline-csv-importer.js';
import { TempFiles, collect, dataFixture } from './support/data-fixtures.js';

const MIN = 60_000;

async function run(file: string, opts: KlineImportOptions): Promise<{ recs: DataRecord[]; stats: ImportStats }> {
  const stats = new ImportStats();
  const recs = await collect(importKlineFile(file, opts, stats));
  return { recs, stats };
}

function thrown(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => undefined,
    (e: unknown) => e,
  );
}

describe('kline csv importer', () => {
  const temp = new TempFiles();
  afterEach(() => temp.remove());

  it('imports_freqtrade_spot_1m_csv_stamping_each_bar_at_its_close', async () => {
    const { recs, stats } = await run(dataFixture('binance_spot_BTCUSDT_1m_2025-05-20.head100.csv'), { market: 'spot' });
    expect(recs).to.have.length(100);
    // First row: 1747699200000,105573.73,105597.1,105554.31,105554.32,10.82647 — known at its close, +60 000 ms.
    expect(recs[0]).to.deep.equal({
      s: 'kline',
      m: 'spot',
      i: 'BTCUSDT',
      et: 1747699260000,
      lt: 1747699260000,
      iv: '1m',
      ot: 1747699200000,
      o: '105573.73',
      h: '105597.1',
      l: '105554.31',
      c: '105554.32',
      v: '10.82647',
      x: true,
    });
    // Last row opens 99 minutes later: 1747699200000 + 99 × 60 000 = 1747705140000.
    const last = recs[99] as KlineRecord;
    expect([last.ot, last.c, last.v]).to.deep.equal([1747705140000, '106490.15', '34.94201']);
    expect(stats.counters).to.deep.equal({});
    expect(stats.files[0]).to.include({ lines: 101, records: 100, badRows: 0 });
  });

  it('imports_the_mexc_semicolon_text_format_in_utc', async () => {
    const { recs } = await run(dataFixture('mexc_spot_DOGEUSDT_1m_2026-05-20.head100.Last.txt'), { market: 'spot' });
    expect(recs).to.have.length(100);
    const first = recs[0] as KlineRecord;
    // "20260520 150800;0.10405;0.10409;0.10401;0.10409;105279.49": 2026-05-20 15:08:00 UTC.
    expect(first).to.include({
      i: 'DOGEUSDT',
      iv: '1m',
      ot: Date.UTC(2026, 4, 20, 15, 8),
      o: '0.10405',
      h: '0.10409',
      l: '0.10401',
      c: '0.10409',
      v: '105279.49',
    });
    // Last line "20260520 164700;…;0.10446;115095.5": 15:08 + 99 min = 16:47.
    expect(recs[99]).to.include({ ot: Date.UTC(2026, 4, 20, 16, 47), c: '0.10446', v: '115095.5' });
  });

  it('reads_the_12_column_binance_layout_with_quote_volume_and_trade_count', async () => {
    // The file name says 1m; a neutral name makes the importer use close_time − open_time + 1 instead.
    const file = temp.write('bars.csv', readFileSync(dataFixture('BTCUSDT-1m-2024-08-08.binance-vision-12col.csv'), 'utf8'));
    const { recs } = await run(file, { market: 'spot', symbol: 'BTCUSDT' });
    expect(recs).to.have.length(10);
    // 1723161300000,61828.00000000,61860.80000000,61780.00000000,61782.25000000,15.07702000,1723161359999,932148.06446410,1255,…
    expect(recs[0]).to.deep.equal({
      s: 'kline',
      m: 'spot',
      i: 'BTCUSDT',
      et: 1723161360000,
      lt: 1723161360000,
      iv: '1m',
      ot: 1723161300000,
      o: '61828.00000000',
      h: '61860.80000000',
      l: '61780.00000000',
      c: '61782.25000000',
      v: '15.07702000',
      qv: '932148.06446410',
      n: 1255,
      x: true,
    });
  });

  it('tolerates_bom_crlf_quotes_blank_lines_repeated_headers_scientific_notation_and_duplicates', async () => {
    const { recs, stats } = await run(dataFixture('BTCUSDT-1m-quirks.csv'), { market: 'spot' });
    // Rows: 12:00, 12:01 (quoted), header again, 12:02 (1.06376E+01), 12:02 again (duplicate, skipped), 12:03.
    expect(recs.map((r) => (r as KlineRecord).ot)).to.deep.equal([1747699200000, 1747699260000, 1747699320000, 1747699380000]);
    expect(recs[1]).to.include({ o: '105554.32', v: '6.48334' });
    expect(recs[2]).to.include({ v: '10.6376' });
    expect(stats.counters).to.deep.equal({ repeatedHeaders: 1, duplicates: 1 });
    // The duplicate differs (10.63764 vs 10.6376): one warning.
    expect(stats.warningCount).to.equal(1);
  });

  it('maps_contract_symbols_to_the_venue_spelling_and_infers_the_interval_from_row_spacing', async () => {
    const file = temp.write('perp.csv', readFileSync(dataFixture('binance_usdm_BTCUSDT_perp_1m_2025-05-04.head60.csv'), 'utf8'));
    const named = await run(dataFixture('binance_usdm_BTCUSDT_perp_1m_2025-05-04.head60.csv'), { market: 'contract' });
    expect(named.recs[0]).to.include({ m: 'contract', i: 'BTC_USDT', iv: '1m', o: '95505.4' });
    const asSource = await run(dataFixture('binance_usdm_BTCUSDT_perp_1m_2025-05-04.head60.csv'), {
      market: 'contract',
      symbolStyle: 'source',
    });
    expect(asSource.recs[0]!.i).to.equal('BTCUSDT');
    const spaced = await run(file, { market: 'contract', symbol: 'BTC_USDT' });
    expect(spaced.recs).to.have.length(60);
    expect(spaced.recs.every((r) => (r as KlineRecord).iv === '1m')).to.equal(true);
    // 60 bars, no gaps: last open = 1746372780000 + 59 × 60 000.
    expect((spaced.recs[59] as KlineRecord).ot).to.equal(1746372780000 + 59 * MIN);
  });

  it('turns_mark_price_candles_into_fair_prices_at_the_open_or_the_close', async () => {
    const file = dataFixture('binance_usdm_BTCUSDT_mark_price_8h_2022-01-01.head30.csv');
    const open = await run(file, { market: 'contract', stream: 'fair' });
    expect(open.recs).to.have.length(30);
    // 1640995200000,46216.33098118,…,47199.71868465 (8h from the file name)
    expect(open.recs[0]).to.deep.equal({
      s: 'fair',
      m: 'contract',
      i: 'BTC_USDT',
      et: 1640995200000,
      lt: 1640995200000,
      p: '46216.33098118',
    });
    const close = await run(file, { market: 'contract', stream: 'fair', pricePoint: 'close' });
    // Close of the first bar at 1640995200000 + 8 h = 1641024000000.
    expect(close.recs[0] as PriceRecord).to.include({ et: 1641024000000, p: '47199.71868465' });
  });

  it('counts_gaps_and_missing_bars', async () => {
    // 00:00, 00:01, then 00:04 (2 bars missing), 00:05.
    const t = 1_700_000_040_000 - (1_700_000_040_000 % MIN);
    const rows = [0, 1, 4, 5].map((k) => `${t + k * MIN},1,2,0.5,1.5,10`);
    const { recs, stats } = await run(temp.write('x_1m.csv', `open_time,open,high,low,close,volume\n${rows.join('\n')}\n`), {
      market: 'spot',
      symbol: 'X',
    });
    expect(recs).to.have.length(4);
    expect(stats.counters).to.deep.equal({ gaps: 1, missingBars: 2 });
  });

  it('names_file_line_and_field_of_a_bad_row_or_skips_it_when_told', async () => {
    const file = temp.write(
      'BTCUSDT_1m.csv',
      'open_time,open,high,low,close,volume\n1700000040000,1,2,0.5,1.5,10\n1700000100000,1,abc,0.5,1.5,10\n1700000160000,1,2,0.5,1.5,10\n',
    );
    const err = await thrown(run(file, { market: 'spot' }));
    expect(err).to.be.instanceOf(ValidationError);
    expect((err as ValidationError).field).to.equal(`${file} line 3 field high`);
    const skipped = await run(file, { market: 'spot', onBadRow: 'skip' });
    expect(skipped.recs).to.have.length(2);
    expect(skipped.stats.badRows).to.equal(1);
    expect(skipped.stats.warnings[0]).to.contain('line 3 field high');
  });

  it('refuses_a_header_without_the_needed_columns_and_a_file_without_a_symbol', async () => {
    const noClose = temp.write('BTCUSDT_1m.csv', 'open_time,open,high,low,volume\n1700000040000,1,2,0.5,10\n');
    expect(await thrown(run(noClose, { market: 'spot', onBadRow: 'skip' })))
      .to.be.instanceOf(ValidationError)
      .with.property('field', `${noClose} line 1 field header`);
    const anonymous = temp.write('candles.csv', '1700000040000,1,2,0.5,1.5,10\n');
    expect(await thrown(run(anonymous, { market: 'spot' })))
      .to.be.instanceOf(ValidationError)
      .with.property('field', 'symbol');
  });

  it('reads_interval_names_and_close_times', () => {
    expect(intervalFromFileName('/x/BTCUSDT-1m-2024-01.csv')).to.equal('1m');
    expect(intervalFromFileName('binance_usdm_BTCUSDT_funding_rate_8h_2022-01-01.csv')).to.equal('8h');
    expect(intervalFromFileName('BTC_USDT-1h.csv')).to.equal('60m');
    expect(intervalFromFileName('BTC_USDT-Min15.csv')).to.equal('15m');
    expect(intervalFromFileName('BTC_USDT-3m.csv')).to.equal(undefined);
    // 1M: 2024-01-15 → next month start 2024-02-01; 2024-12 → 2025-01-01.
    expect(klineCloseTime('1M', Date.UTC(2024, 0, 1))).to.equal(Date.UTC(2024, 1, 1));
    expect(klineCloseTime('1M', Date.UTC(2024, 11, 1))).to.equal(Date.UTC(2025, 0, 1));
  });
});
