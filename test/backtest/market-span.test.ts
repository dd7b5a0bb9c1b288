/**
 * A run spans its market data, with the context in force carried to its start (market-span.ts): over a
 * list in memory and over a record store read as the replay goes, which must agree; and before an
 * explicit `from` too, so that a span opening between two funding settlements books the next one.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataRecord } from '../../src/marketdata/record/record.js';
import { loadBacktestData, openRecordStore } from '../../src/backtest/backtest-data.js';
import { runBacktest } from '../../src/backtest/backtest-runner.js';
import { marketSpanStream, trimToMarketSpan } from '../../src/backtest/market-span.js';
import { carriedFrom } from '../../src/backtest/replay-market.js';
import { importCommand } from '../../src/app/cli/import-command.js';
import { PERP_FUNDING_FILE, PERP_KLINES_FILE, perpTrendConfig, perpTrendDoc } from './support/backtest-fixtures.js';

const HOUR = 3_600_000;
const at = (iso: string): number => Date.parse(iso);
/** A record's fields plus when a carried one was really stamped, for comparing two cuts. */
const shown = (r: DataRecord): unknown => ({ ...r, carriedFrom: carriedFrom.get(r) });

describe('market span', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'perpetua-span-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('cuts_a_stream_exactly_as_a_list_for_random_records', () => {
    const arb = fc.array(
      fc.record({
        t: fc.integer({ min: 0, max: 50 }),
        kind: fc.constantFrom('funding', 'fair', 'trade', 'kline'),
        sym: fc.constantFrom('A', 'B'),
      }),
      { maxLength: 40 },
    );
    fc.assert(
      fc.property(arb, (raw) => {
        const records: DataRecord[] = raw
          .map(({ t, kind, sym }): DataRecord => {
            const et = t * 1000;
            const head = { m: 'contract' as const, i: sym, et, lt: et };
            if (kind === 'funding') return { s: 'funding', ...head, r: String(t), nt: et + 8000 };
            if (kind === 'fair') return { s: 'fair', ...head, p: String(t + 1) };
            if (kind === 'trade') return { s: 'trade', ...head, p: '1', q: '1', ts: 'buy', id: String(t) } as DataRecord;
            return { s: 'kline', ...head, iv: '1m', ot: et - 3000, o: '1', h: '1', l: '1', c: '1', v: '1', x: true } as DataRecord;
          })
          .sort((a, b) => a.et - b.et);
        const market = records.filter((r) => r.s === 'trade' || r.s === 'kline');
        const end = market.length ? Math.max(...market.map((r) => r.et)) : undefined;
        const list = trimToMarketSpan(records).map(shown);
        const stream = [...marketSpanStream(records, end)].map((r) => shown(r as DataRecord));
        expect(stream).to.deep.equal(list);
      }),
      { numRuns: 300 },
    );
  });

  it('carries_the_funding_in_force_before_an_unaligned_from_to_it', async () => {
    // The fixture's settlements are at 00:00, 08:00, 16:00 UTC; its funding file turns row (T, r) into
    // a record stamped at the previous settlement saying "r settles at T" (funding-csv-importer.ts).
    // The record stamped 2025-05-04 16:00:00.002 says −0.00002404 settles at 05-05 00:00 (the file's
    // row 1746403200000,-0.00002404). A run from 17:00 must start knowing it, or 00:00 is not settled.
    const from = at('2025-05-04T17:00:00Z');
    const { records } = await loadBacktestData(
      [
        { kind: 'klines', files: [PERP_KLINES_FILE], market: 'contract', symbol: 'BTCUSDT', interval: '1m' },
        { kind: 'funding', files: [PERP_FUNDING_FILE], market: 'contract', symbol: 'BTCUSDT' },
      ],
      { from },
    );
    const funding = records.filter((r) => r.s === 'funding');
    expect(funding[0]).to.deep.include({ et: from, r: '-0.00002404', nt: at('2025-05-05T00:00:00Z') });
    expect(carriedFrom.get(funding[0]!)).to.equal(1_746_374_400_002);
    expect(records[0]).to.equal(funding[0]);
  });

  it('books_the_first_settlement_after_an_unaligned_from', async () => {
    // Hourly settlements (a hand-made file: rate 0.00005 × the hour of the day, below the venue's 0.0018 cap), a run from 17:00:30:
    // the record saying "0.0009 settles at 18:00" is stamped 17:00, before `from`. Every settlement
    // at which the run holds a position must be booked at its rate, the first (18:00) included: on
    // the code before the carry it was missing.
    const hourly = join(dir, 'funding-1h.csv');
    const rows = ['funding_time,funding_rate'];
    for (let t = at('2025-05-04T12:00:00Z'); t <= at('2025-05-05T03:00:00Z'); t += HOUR)
      rows.push(`${t},${(new Date(t).getUTCHours() * 5e-5).toFixed(5)}`);
    writeFileSync(hourly, rows.join('\n'));
    const data = [
      { kind: 'klines', files: [PERP_KLINES_FILE], market: 'contract', symbol: 'BTCUSDT', interval: '1m' },
      { kind: 'funding', files: [hourly], market: 'contract', symbol: 'BTCUSDT' },
    ];
    const config = perpTrendConfig({
      backtest: { ...(perpTrendDoc().backtest as Record<string, unknown>), from: '2025-05-04T17:00:30Z', data },
    });
    const { records } = await loadBacktestData(config.backtest.data, { from: config.backtest.from! });
    const { run } = await runBacktest({ config, records, fillModel: config.fillModels.find((m) => m.name === 'neutral')! });
    // Independently of the venue: the position at each settlement from the run's own fills.
    const held = (t: number): number =>
      run.fills.filter((f) => f.time < t).reduce((q, f) => q + (f.side === 'buy' ? 1 : -1) * Number(f.quantity.toFixed()), 0);
    const settlements: number[] = [];
    for (let t = at('2025-05-04T18:00:00Z'); t <= run.dataRange.lastTime; t += HOUR) if (held(t) !== 0) settlements.push(t);
    expect(settlements[0], 'a position is held at 18:00 (else this test proves nothing)').to.equal(at('2025-05-04T18:00:00Z'));
    expect(run.funding.map((f) => f.time)).to.deep.equal(settlements);
    for (const f of run.funding) {
      expect(Number(f.rate!.toFixed()), new Date(f.time).toISOString()).to.be.closeTo(new Date(f.time).getUTCHours() * 5e-5, 1e-12);
      // A long pays a positive rate, a short receives it.
      expect(Math.sign(Number(f.amount.toFixed())), new Date(f.time).toISOString()).to.equal(held(f.time) > 0 ? -1 : 1);
    }
  });

  it('reads_a_store_over_its_market_span_as_a_list_is_cut', async () => {
    // Four years of 8-hourly funding beside 600 one-minute bars (2025-05-04 15:33 → 05-05 01:33): the
    // store holds all of it; a run must read from the first bar's open to the last bar's close.
    const long = join(dir, 'funding-4y.csv');
    const rows = ['funding_time,funding_rate'];
    for (let t = at('2022-01-01T00:00:00Z'); t <= at('2025-12-31T16:00:00Z'); t += 8 * HOUR) rows.push(`${t},${((t / HOUR) % 7) * 1e-5}`);
    writeFileSync(long, rows.join('\n'));
    const store = join(dir, 'store');
    await importCommand({
      kind: 'klines',
      input: [PERP_KLINES_FILE],
      out: store,
      market: 'contract',
      symbol: 'BTCUSDT',
      interval: '1m',
      progress: false,
    });
    await importCommand({ kind: 'funding', input: [long], out: store, market: 'contract', symbol: 'BTCUSDT', progress: false });
    const fromStore = openRecordStore(store);
    const read = [...fromStore.records] as DataRecord[];
    fromStore.close();
    const bars = read.filter((r) => r.s === 'kline');
    expect(bars).to.have.length(600);
    const firstOpen = at('2025-05-04T15:33:00Z');
    expect(bars[0]!.s === 'kline' && bars[0]!.ot).to.equal(firstOpen);
    expect(read[0]!.et).to.equal(firstOpen);
    expect(read[read.length - 1]!.et).to.equal(bars[bars.length - 1]!.et);
    // The funding in force at 15:33 is the record of 08:00 (for 16:00), carried to the start.
    expect(read[0]).to.deep.include({ s: 'funding', nt: at('2025-05-04T16:00:00Z') });
    expect(carriedFrom.get(read[0]!)).to.equal(at('2025-05-04T08:00:00Z'));
    // Differential: the list the loaders cut from the same files is the same, record for record.
    const { records: loaded } = await loadBacktestData([
      { kind: 'klines', files: [PERP_KLINES_FILE], market: 'contract', symbol: 'BTCUSDT', interval: '1m' },
      { kind: 'funding', files: [long], market: 'contract', symbol: 'BTCUSDT' },
    ]);
    expect(read.map(shown)).to.deep.equal(loaded.map(shown));
  });
});
