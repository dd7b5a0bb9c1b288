/**
 * The tape (run-tape.ts) must change where the record lives, never what it says: the same run with and
 * without a tape gives the same metrics, the same order-list hash, and CSV files holding every order,
 * fill and sample that the in-memory run holds (compared row by row, decoded independently here).
 */
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBacktestData } from '../../../src/backtest/backtest-data.js';
import { prepareReplay, runBacktest } from '../../../src/backtest/backtest-runner.js';
import { fillToJson, multiplierOf, orderToJson } from '../../../src/backtest/report/backtest-run.js';
import { computeMetrics, roundTripsFifo } from '../../../src/backtest/report/metrics.js';
import { HTML_TABLE_LIMIT, buildReportJson, buildReportModel, ordersHash } from '../../../src/backtest/report/report-json.js';
import { RunTape, SampleThinner } from '../../../src/backtest/report/run-tape.js';
import { D } from '../../../src/core/decimal.js';
import { perpTrendConfig, spotMmConfig } from '../support/backtest-fixtures.js';

/** Minimal RFC 4180 reader (quotes only where the writer puts them). */
function readCsv(path: string): string[][] {
  const rows: string[][] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line === '') continue;
    const cells: string[] = [];
    let cur = '';
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i]!;
      if (quoted) {
        if (ch === '"' && line[i + 1] === '"') ((cur += '"'), i++);
        else if (ch === '"') quoted = false;
        else cur += ch;
      } else if (ch === '"') quoted = true;
      else if (ch === ',') (cells.push(cur), (cur = ''));
      else cur += ch;
    }
    cells.push(cur);
    rows.push(cells);
  }
  return rows;
}
const asCells = (o: object): string[] => Object.values(o).map((v) => (v === null ? '' : String(v)));

describe('backtest/report/run-tape', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'perpetua-tape-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('streams_the_same_record_the_in_memory_run_holds', async () => {
    const config = spotMmConfig();
    const data = await loadBacktestData(config.backtest.data);
    const prepared = prepareReplay(config, data.records);
    const fillModel = config.fillModels.find((m) => m.name === 'neutral')!;
    const plain = (await runBacktest({ config, records: prepared.events, streams: prepared.streams, fillModel })).run;
    const taped = (
      await runBacktest({ config, records: prepared.events, streams: prepared.streams, fillModel, tapeDir: join(dir, 'neutral') })
    ).run;
    expect(plain.orders.length).to.be.greaterThan(10);
    expect(taped.tape!.orderCount).to.equal(plain.orders.length);
    expect(ordersHash(taped)).to.equal(ordersHash(plain));
    expect(computeMetrics(taped)).to.deep.equal(computeMetrics(plain));

    const orders = readCsv(join(dir, 'neutral', 'orders.csv'));
    expect(orders.slice(1)).to.deep.equal(plain.orders.map((o) => asCells(orderToJson(o))));
    const fills = readCsv(join(dir, 'neutral', 'fills.csv'));
    expect(fills.slice(1)).to.deep.equal(plain.fills.map((f) => asCells(fillToJson(f))));
    const equity = readCsv(join(dir, 'neutral', 'equity.csv'));
    expect(equity[0]).to.deep.equal(['time', 'equity', 'cash', 'position:BTCUSDT', 'mark:BTCUSDT']);
    expect(equity.slice(1).map((r) => [Number(r[0]), r[1]])).to.deep.equal(plain.samples.map((x) => [x.time, x.equity.toFixed()]));
    // The full-resolution equity column (the metrics' curve) holds each sample's toNumber().
    expect(taped.tape!.equity.times).to.deep.equal(plain.samples.map((x) => x.time));
    expect(taped.tape!.equity.values).to.deep.equal(plain.samples.map((x) => x.equity.toNumber()));

    // report.json of a taped run: no lists, a pointer to the tape, the same metrics.
    const json = buildReportJson(buildReportModel([taped]));
    expect(json.orders).to.deep.equal([]);
    expect(json.tape![0]).to.include({
      fillModel: 'neutral',
      orders: plain.orders.length,
      fills: plain.fills.length,
      samples: plain.samples.length,
    });
    expect(json.metrics).to.deep.equal(buildReportJson(buildReportModel([plain])).metrics);
    // The page's round trips of a taped run: the first HTML_TABLE_LIMIT of the full FIFO list, and its count.
    const all = roundTripsFifo(plain.fills, multiplierOf(plain), (sym) => plain.instruments.find((i) => i.symbol === sym)?.settleAsset);
    const model = buildReportModel([taped]);
    expect(all.length).to.be.greaterThan(0);
    expect(model.roundTripCount).to.equal(all.length);
    expect(model.roundTrips).to.deep.equal(all.slice(0, HTML_TABLE_LIMIT));
    expect(buildReportModel([plain]).roundTrips).to.deep.equal(all);
  });

  // Fill archiving (fill-log.ts) must change where fills live, never the record: a venue keeping one
  // fill as an object (the rest archived after every few fills) writes the same tape, byte for byte,
  // and the same report as one that never archives, and the same fills as the in-memory run.
  for (const [name, config] of [
    ['spot market maker on L2', spotMmConfig()],
    ['perp-trend on bars with funding', perpTrendConfig()],
  ] as const) {
    it(`archives_fills_without_changing_the_record_of_the_${name.replace(/\W+/g, '_')}`, async () => {
      const data = await loadBacktestData(config.backtest.data);
      const prepared = prepareReplay(config, data.records);
      const fillModel = config.fillModels.find((m) => m.name === 'neutral')!;
      const base = { config, records: prepared.events, streams: prepared.streams, fillModel };
      const plain = (await runBacktest(base)).run;
      const kept = (await runBacktest({ ...base, tapeDir: join(dir, 'kept') })).run;
      const archived = (await runBacktest({ ...base, tapeDir: join(dir, 'archived'), keepFills: 1 })).run;
      expect(plain.fills.length).to.be.greaterThan(3);
      expect(archived.fills.map(fillToJson)).to.deep.equal(plain.fills.map(fillToJson));
      for (const f of ['equity.csv', 'orders.csv', 'fills.csv', 'funding.csv'])
        expect(readFileSync(join(dir, 'archived', f), 'utf8'), f).to.equal(readFileSync(join(dir, 'kept', f), 'utf8'));
      const report = (run: typeof kept) => {
        const j = buildReportJson(buildReportModel([run]));
        return { ...j, tape: j.tape!.map((t) => ({ ...t, dir: '' })) };
      };
      expect(report(archived)).to.deep.equal(report(kept));
      expect(archived.tape!.equity).to.deep.equal(kept.tape!.equity);
    });
  }

  it('answers_each_samples_equity_as_the_plain_text_whose_number_is_its_toNumber', () => {
    // The runner reads the equity column's number back from this text (a zero from the Decimal: -0 shows as 0).
    const tape = new RunTape(join(dir, 'texts'), ['BTCUSDT'], 0);
    for (const v of ['9310.1534567890123456789', '-12.5', '1e-9', '-3.000000001e-12', '123456789012345678901234.5', '0', '-0']) {
      const equity = D(v);
      const text = tape.sample({ time: 1, equity, cash: equity, positions: {}, marks: {} });
      expect(text).to.equal(equity.toFixed());
      if (!equity.isZero()) expect(Number(text), v).to.equal(equity.toNumber());
    }
    expect(Object.is(Number(D('-0').toFixed()), D('-0').toNumber()), 'the -0 the runner asks the Decimal for').to.equal(false);
    tape.close([], []);
  });

  it('thins_samples_to_at_most_twice_the_maximum_keeping_the_newest', () => {
    const t = new SampleThinner(10);
    const mk = (i: number) => ({ time: i, equity: undefined as never, cash: undefined as never, positions: {}, marks: {} });
    for (let i = 0; i < 1000; i++) t.add(mk(i));
    const r = t.result();
    // 1000 samples, max 10: the stride doubles to 64 (1000 / 64 ≈ 15.6 kept ≤ 20), then the newest.
    expect(r.stride).to.equal(64);
    expect(r.samples.map((x) => x.time)).to.deep.equal([...Array.from({ length: 16 }, (_, k) => k * 64), 999]);
  });
});
