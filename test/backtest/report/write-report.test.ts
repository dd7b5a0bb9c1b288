import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { D } from '../../../src/core/decimal.js';
import { ValidationError } from '../../../src/core/errors.js';
import { canonicalJson, configHash, fillToJson, multiplierOf, stableNumber } from '../../../src/backtest/report/backtest-run.js';
import { escapeHtml, formatAxis, formatDuration, jsonForScript } from '../../../src/backtest/report/format.js';
import { METRIC_DEFS } from '../../../src/backtest/report/metric-defs.js';
import { computeMetrics, roundTripsFifo } from '../../../src/backtest/report/metrics.js';
import type { ReportJson } from '../../../src/backtest/report/report-json.js';
import { buildReportModel, fillsHash, ordersHash } from '../../../src/backtest/report/report-json.js';
import { runFromJson, runToJson } from '../../../src/backtest/report/run-codec.js';
import { renderReport, writeReport } from '../../../src/backtest/report/write-report.js';
import { syntheticBand, syntheticRun } from './support/synthetic-run.js';

describe('backtest/report/write-report', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'perpetua-report-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes_byte_identical_files_for_identical_runs', async () => {
    // Two independently built (identical) bands, written to two folders.
    const a = await writeReport(syntheticBand({ minutes: 600, holdMinutes: 60 }), join(dir, 'a'));
    const b = await writeReport(syntheticBand({ minutes: 600, holdMinutes: 60 }), join(dir, 'b'));
    expect(await readFile(a.json, 'utf8')).to.equal(await readFile(b.json, 'utf8'));
    expect(await readFile(a.html, 'utf8')).to.equal(await readFile(b.html, 'utf8'));
  });

  it('hashes_the_fill_list_as_its_json_text', () => {
    // fillsHash feeds the hash one fill at a time; the reference hashes the whole list's JSON at once.
    const run = syntheticBand({ minutes: 600, holdMinutes: 60 })[0]!;
    const whole = (fills: typeof run.fills) =>
      createHash('sha256')
        .update(JSON.stringify(fills.map(fillToJson)))
        .digest('hex');
    expect(run.fills.length).to.be.greaterThan(2);
    for (const fills of [run.fills, run.fills.slice(0, 1), []]) expect(fillsHash({ ...run, fills })).to.equal(whole(fills));
  });

  it('lists_every_round_trip_of_the_run_with_or_without_a_metrics_window', () => {
    // The table's trips come from the metrics' own FIFO pass when it matches every fill (no window):
    // they must be the trips of a separate match over all fills, and so when a window narrows the metrics.
    const run = syntheticBand({ minutes: 600, holdMinutes: 60 })[0]!;
    const settle = new Map(run.instruments.map((i) => [i.symbol, i.settleAsset]));
    const all = roundTripsFifo(run.fills, multiplierOf(run), (s) => settle.get(s));
    expect(all.length).to.be.greaterThan(2);
    const plain = buildReportModel([run]);
    expect(plain.roundTripCount).to.equal(all.length);
    expect(plain.roundTrips).to.deep.equal(all);
    const mid = run.samples[Math.floor(run.samples.length / 2)]!.time;
    const windowed = buildReportModel([run], { window: { from: run.samples[0]!.time, to: mid } });
    expect(windowed.roundTripCount).to.equal(all.length);
    expect(windowed.roundTrips).to.deep.equal(all);
    expect(windowed.primaryMetrics.roundTrips).to.be.lessThan(all.length);
  });

  it('changes_the_json_when_the_run_changes', () => {
    const a = renderReport(syntheticBand({ minutes: 600, holdMinutes: 60, seed: 1 })).json;
    const b = renderReport(syntheticBand({ minutes: 600, holdMinutes: 60, seed: 2 })).json;
    expect(a).to.not.equal(b);
  });

  it('puts_every_order_fill_metric_config_and_range_in_the_json', () => {
    const runs = syntheticBand({ minutes: 600, holdMinutes: 60 });
    const report = JSON.parse(renderReport(runs).json) as ReportJson;
    const neutral = runs[0]!;
    expect(report.orders).to.have.length(neutral.orders.length);
    expect(report.fills).to.have.length(neutral.fills.length);
    expect(report.fills[0]!.price).to.equal(neutral.fills[0]!.price.toFixed());
    expect(report.run.configHash).to.equal(configHash(neutral.config));
    expect(report.run.config).to.deep.equal(canonicalJson(neutral.config));
    expect(report.run.dataRange.firstTime).to.equal(neutral.dataRange.firstTime);
    expect(report.run.dataRange.recordCount).to.equal(neutral.dataRange.recordCount);
    // metric keys in the documented order, values as computed
    expect(Object.keys(report.metrics)).to.deep.equal(METRIC_DEFS.map((d) => d.key));
    const m = computeMetrics(neutral);
    expect(report.metrics['totalReturn']).to.equal(stableNumber(m.totalReturn));
    expect(report.metrics['trades']).to.equal(neutral.fills.length);
  });

  it('describes_every_metric_once', () => {
    const keys = Object.keys(computeMetrics(syntheticRun({ minutes: 60, holdMinutes: 30 }))).sort();
    expect(METRIC_DEFS.map((d) => d.key).sort()).to.deep.equal(keys);
  });

  it('lists_the_band_in_model_order_with_order_hashes', () => {
    const runs = syntheticBand({ minutes: 600, holdMinutes: 60 });
    const report = JSON.parse(renderReport(runs).json) as ReportJson;
    expect(report.band.map((b) => b.fillModel)).to.deep.equal(['optimistic', 'neutral', 'pessimistic']);
    expect(report.band[1]!.ordersHash).to.equal(ordersHash(runs[0]!));
    // more slippage, lower return: optimistic (0 bp) ≥ neutral (2 bp) ≥ pessimistic (5 bp)
    const r = report.band.map((b) => b.metrics['totalReturn'] as number);
    expect(r[0]).to.be.greaterThan(r[1]!);
    expect(r[1]).to.be.greaterThan(r[2]!);
  });

  it('runs_the_whole_band_on_the_primarys_return_period', () => {
    const report = JSON.parse(renderReport(syntheticBand({ minutes: 600, holdMinutes: 60 })).json) as ReportJson;
    const periods = new Set(report.band.map((b) => b.metrics['returnPeriodMs']));
    expect(periods.size).to.equal(1);
  });

  it('rejects_an_empty_run_list_and_a_band_with_another_config', () => {
    expect(() => renderReport([])).to.throw(ValidationError);
    const other = syntheticRun({ minutes: 60, holdMinutes: 30, strategyName: 'Other' });
    expect(() => renderReport([syntheticRun({ minutes: 60, holdMinutes: 30 }), other])).to.throw(ValidationError, /configHash/);
  });

  it('renders_a_run_without_fills_or_samples', () => {
    const run = { ...syntheticRun({ minutes: 60, holdMinutes: 600 }), samples: [], orders: [], fills: [] };
    const { json, html } = renderReport([run]);
    const report = JSON.parse(json) as ReportJson;
    // no samples: final equity = initial capital, nothing traded, undefined ratios are null
    expect(report.metrics['totalReturn']).to.equal(0);
    expect(report.metrics['trades']).to.equal(0);
    expect(report.metrics['sharpe']).to.equal(null);
    expect(report.metrics['winRate']).to.equal(null);
    expect(html).to.contain('No fills.');
    expect(html).to.contain('id="chart-equity"');
  });

  it('rejects_fills_out_of_time_order', () => {
    const run = syntheticRun({ minutes: 600, holdMinutes: 60 });
    const bad = { ...run, fills: [...run.fills].reverse() };
    expect(() => renderReport([bad])).to.throw(ValidationError, /fills/);
  });

  it('escapes_strings_from_the_config_in_the_html', () => {
    const { html } = renderReport([syntheticRun({ minutes: 120, holdMinutes: 30, strategyName: '<img src=x onerror=alert(1)>&"\'' })]);
    expect(html).to.not.contain('<img src=x');
    expect(html).to.contain('&lt;img src=x onerror=alert(1)&gt;&amp;&quot;&#39;');
  });

  it('shows_the_intra_bar_notice_only_for_kline_only_data', () => {
    expect(renderReport([syntheticRun({ minutes: 120, holdMinutes: 30, klineOnly: true })]).html).to.contain('id="kline-notice"');
    expect(renderReport([syntheticRun({ minutes: 120, holdMinutes: 30 })]).html).to.not.contain('id="kline-notice"');
  });

  it('loads_nothing_from_outside_the_page', () => {
    const { html } = renderReport(syntheticBand({ minutes: 600, holdMinutes: 60 }));
    expect(html).to.not.match(/<script[^>]+src=/i);
    expect(html).to.not.match(/<link[^>]+href=/i);
    expect(html).to.not.match(/https?:\/\//i);
  });

  it('keeps_large_series_small_in_the_json', () => {
    // 2 days of minutes = 2 881 samples ≤ 5 000 → stride 1; 5 days = 7 201 → stride 2, 3 601 rows incl. the last
    const small = JSON.parse(renderReport([syntheticRun({ minutes: 2880 })]).json) as ReportJson;
    expect(small.series.stride).to.equal(1);
    expect(small.series.samples).to.have.length(2881);
    const big = JSON.parse(renderReport([syntheticRun({ minutes: 7200 })]).json) as ReportJson;
    expect(big.series.stride).to.equal(2);
    expect(big.series.samples).to.have.length(3601);
  });

  describe('config hash and codec', () => {
    it('hashes_configs_independently_of_key_order', () => {
      expect(configHash({ a: 1, b: { c: '2', d: [1, 2] } })).to.equal(configHash({ b: { d: [1, 2], c: '2' }, a: 1 }));
      expect(configHash({ a: 1 })).to.not.equal(configHash({ a: 2 }));
      expect(configHash({ p: D('1.50') })).to.equal(configHash({ p: '1.5' })); // Decimals as plain strings
    });

    it('round_trips_a_run_through_plain_json', () => {
      const run = syntheticRun({ minutes: 300, holdMinutes: 60 });
      const json = runToJson(run);
      // what a worker thread would post: a structured clone of plain data
      const back = runFromJson(structuredClone(json));
      expect(runToJson(back)).to.deep.equal(json);
      expect(renderReport([back]).json).to.equal(renderReport([run]).json);
    });
  });

  describe('format', () => {
    it('escapes_html_and_script_json', () => {
      expect(escapeHtml(`<a href="x">'&'</a>`)).to.equal('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
      expect(jsonForScript({ s: '</script><b>' })).to.equal('{"s":"\\u003c/script\\u003e\\u003cb\\u003e"}');
    });

    it('labels_an_axis_in_one_unit', () => {
      // ticks 9 600 … 10 000 step 200: all in k
      expect([9600, 9800, 10000].map((v) => formatAxis(v, 200, 10000))).to.deep.equal(['9.6k', '9.8k', '10k']);
      expect(formatAxis(-0.02, 0.01, 0.04)).to.equal('−0.02');
      expect(formatDuration(27 * 3_600_000)).to.equal('1d 3h');
    });

    it('writes_numbers_stably', () => {
      expect(stableNumber(0.1 + 0.2)).to.equal(0.3);
      expect(Object.is(stableNumber(-0), 0)).to.equal(true);
      expect(stableNumber(Infinity)).to.equal(null);
    });
  });
});
