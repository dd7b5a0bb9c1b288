/**
 * Opens report.html in headless Chromium from a file:// URL, as a user would offline, and checks the
 * page: no console or page errors, charts drawn with a real size, the metrics table holds the run's
 * numbers, the band and the kline notice are there, the crosshair works, and nothing was fetched.
 *
 * Needs /usr/bin/chromium (Debian package `chromium`) and the npm package playwright-core; skips with
 * a message when either is missing.
 */
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeReport } from '../../../src/backtest/report/write-report.js';
import type { BacktestRun } from '../../../src/backtest/report/backtest-run.js';
import { syntheticBand } from './support/synthetic-run.js';
import { openPage, requireChromiumOrSkip, type OpenedPage, type PwPage } from './support/chromium.js';

interface Box {
  width: number;
  height: number;
}

describe('backtest/report/report-html (headless Chromium)', function () {
  this.timeout(60_000);
  let dir: string;
  let opened: OpenedPage;
  let page: PwPage;
  let runs: BacktestRun[];
  let consoleErrors: string[];
  let pageErrors: string[];
  let requests: string[];

  before(async function () {
    requireChromiumOrSkip(this);
    dir = await mkdtemp(join(tmpdir(), 'perpetua-report-html-'));
    // 2 days of minute samples, a round trip every 3 hours, kline-only data.
    runs = syntheticBand({ minutes: 2 * 24 * 60, holdMinutes: 90, klineOnly: true, strategyName: 'Swing <b>bold</b>' });
    const paths = await writeReport(runs, join(dir, 'out'));
    opened = await openPage(paths.html, dir);
    ({ page, consoleErrors, pageErrors, requests } = opened);
  });

  after(async () => {
    if (opened) await opened.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('renders_without_console_or_page_errors', () => {
    expect(pageErrors).to.deep.equal([]);
    expect(consoleErrors).to.deep.equal([]);
  });

  it('draws_every_chart_with_a_real_size', async () => {
    const boxes = await page.evaluate<Record<string, Box>>(
      `Object.fromEntries([...document.querySelectorAll('figure.chart')].map(f => { const r = f.querySelector('svg').getBoundingClientRect(); return [f.id, { width: r.width, height: r.height }]; }))`,
    );
    expect(Object.keys(boxes)).to.include.members(['chart-equity', 'chart-drawdown', 'chart-price-0', 'chart-position-0']);
    for (const [id, b] of Object.entries(boxes)) {
      expect(b.width, id).to.be.greaterThan(600);
      expect(b.height, id).to.be.greaterThan(80);
    }
    // the lines are real paths with many points, the band is shaded
    const segments = await page.evaluate<number>(`document.querySelector('#chart-equity path.series').getAttribute('d').split('L').length`);
    expect(segments).to.be.greaterThan(500);
    const band = await page.evaluate<Box>(
      `(() => { const r = document.querySelector('#chart-equity path.band').getBoundingClientRect(); return { width: r.width, height: r.height }; })()`,
    );
    expect(band.width).to.be.greaterThan(600);
    expect(band.height).to.be.greaterThan(1);
  });

  it('marks_every_fill_on_the_price_chart', async () => {
    const neutral = runs[0]!;
    const buys = neutral.fills.filter((f) => f.side === 'buy').length;
    const sells = neutral.fills.length - buys;
    const counts = await page.evaluate<{ buy: number; sell: number }>(
      `({ buy: document.querySelectorAll('#chart-price-0 path.mk.buy').length, sell: document.querySelectorAll('#chart-price-0 path.mk.sell').length })`,
    );
    expect(counts).to.deep.equal({ buy: buys, sell: sells });
    expect(buys).to.be.greaterThan(5);
  });

  it('shows_the_runs_numbers_in_the_metrics_table', async () => {
    const neutral = runs[0]!;
    const cell = (key: string): Promise<string> =>
      page.evaluate<string>(`document.querySelector('tr[data-metric="${key}"] td').textContent`);
    // total return = last equity / initial capital − 1, as a percent with 2 decimals
    const last = neutral.samples[neutral.samples.length - 1]!.equity;
    const pct = last.div(neutral.initialCapital).minus(1).mul(100).toNumber();
    expect(await cell('totalReturn')).to.equal(`${pct < 0 ? '−' : ''}${Math.abs(pct).toFixed(2)}%`);
    expect(await cell('trades')).to.equal(String(neutral.fills.length));
    expect(await cell('orders')).to.equal(String(neutral.orders.length));
    // spot, buy then sell every time: one round trip per sell
    expect(await cell('roundTrips')).to.equal(String(neutral.fills.filter((f) => f.side === 'sell').length));
  });

  it('lists_one_band_row_per_fill_model_and_the_kline_notice', async () => {
    const models = await page.evaluate<string[]>(`[...document.querySelectorAll('table.band tbody tr')].map(r => r.dataset.model)`);
    expect(models).to.deep.equal(['optimistic', 'neutral', 'pessimistic']);
    const notice = await page.evaluate<Box>(
      `(() => { const r = document.getElementById('kline-notice').getBoundingClientRect(); return { width: r.width, height: r.height }; })()`,
    );
    expect(notice.height).to.be.greaterThan(10);
  });

  it('shows_escaped_names_as_text', async () => {
    expect(await page.evaluate<string>(`document.querySelector('h1').firstChild.textContent.trim()`)).to.equal('Swing <b>bold</b>');
    expect(await page.evaluate<number>(`document.querySelectorAll('h1 b').length`)).to.equal(0);
  });

  it('shows_a_crosshair_read_out_on_hover', async () => {
    const r = await page.evaluate<{ x: number; y: number; width: number; height: number }>(
      `(() => { const b = document.querySelector('#chart-equity svg').getBoundingClientRect(); return { x: b.x, y: b.y, width: b.width, height: b.height }; })()`,
    );
    await page.evaluate(`window.scrollTo(0, 0)`);
    await page.mouse.move(r.x + r.width / 2, r.y + r.height / 2);
    const tip = await page.evaluate<{ hidden: boolean; text: string }>(
      `(() => { const t = document.querySelector('#chart-equity .tip'); return { hidden: t.hidden, text: t.textContent }; })()`,
    );
    expect(tip.hidden).to.equal(false);
    expect(tip.text).to.match(/^2024-03-0\d \d\d:\d\d:\d\d UTC/);
    expect(tip.text).to.contain('pessimistic');
  });

  it('makes_no_request_outside_the_page', () => {
    const outside = requests.filter((u) => !u.startsWith('file://') && !u.startsWith('data:'));
    expect(outside).to.deep.equal([]);
    expect(requests.filter((u) => u.startsWith('file://'))).to.have.length(1); // report.html itself
  });

  it('withholds_annualised_figures_of_a_two_day_run_with_the_reason', async () => {
    // 2 days: annualising needs 30 days, so annualised return and Calmar are withheld; the 48 hourly
    // returns are enough (≥ 30) for Sharpe, which is shown.
    const notice = await page.evaluate<string>(`document.getElementById('short-run-notice').textContent`);
    expect(notice).to.contain('Annualised return, Calmar withheld (run of 2 d; annualising needs 30 days)');
    expect(await page.evaluate<string>(`document.querySelector('tr[data-metric="annualisedReturn"] td').textContent`)).to.equal(
      '— run of 2 d; annualising needs 30 days',
    );
    expect(await page.evaluate<string>(`document.querySelector('[data-card="annualisedReturn"] .cvalue').textContent`)).to.equal('—');
    expect(await page.evaluate<string>(`document.querySelector('tr[data-metric="sharpe"] td').textContent`)).to.match(/^−?\d+\.\d\d$/);
  });

  it('shows_daily_returns_that_compound_to_the_total_return', async () => {
    // Independent: equity at each UTC midnight looked up directly in the samples (the run starts at
    // midnight, so the days are [03-01, 03-02) and [03-02, end]).
    const neutral = runs[0]!;
    const at = (t: number): number =>
      [...neutral.samples]
        .reverse()
        .find((x) => x.time <= t)!
        .equity.toNumber();
    const t0 = neutral.samples[0]!.time;
    const e0 = neutral.initialCapital.toNumber();
    const day1 = at(t0 + 86_400_000) / e0 - 1;
    const day2 = at(t0 + 2 * 86_400_000) / at(t0 + 86_400_000) - 1;
    const cells = await page.evaluate<string[]>(
      `[...document.querySelectorAll('#returns-daily td')].map(td => td.textContent).filter(t => t !== '')`,
    );
    const pct = (r: number): string =>
      `${r < 0 ? '−' : ''}${Math.abs(r * 100).toFixed(Math.abs(r * 100) >= 1 ? 2 : Math.min(6, Math.max(2, 1 - Math.floor(Math.log10(Math.abs(r * 100))))))}%`;
    expect(cells).to.deep.equal([pct(day1), pct(day2)]);
  });

  it('draws_a_buy_and_hold_benchmark_on_the_equity_chart', async () => {
    const neutral = runs[0]!;
    // B(end) = E₀ · mark(end) / mark(start): one instrument.
    const marks = neutral.samples.map((x) => x.marks['BTCUSDT']!.toNumber());
    const expected = marks[marks.length - 1]! / marks[0]! - 1;
    const note = await page.evaluate<string>(`document.getElementById('buy-and-hold').textContent`);
    const shown = `${expected < 0 ? '−' : ''}${Math.abs(expected * 100).toFixed(2)}%`;
    expect(Math.abs(expected * 100)).to.be.greaterThan(1); // the formatting above assumes ≥ 1 %
    expect(note).to.contain(`${shown} over the run`);
    const legend = await page.evaluate<string>(`document.querySelector('#chart-equity .legend').textContent`);
    expect(legend).to.contain('buy & hold BTCUSDT');
  });

  it('has_no_horizontal_scrollbar_at_desktop_or_narrow_widths', async () => {
    // With a chart's read-out left showing from the desktop width (placed in pixels of that width), as
    // after hovering a chart and then narrowing the window: the read-out must not widen the page.
    await page.setViewportSize({ width: 1360, height: 900 });
    await page.evaluate(`window.scrollTo(0, 0)`);
    const r = await page.evaluate<{ x: number; y: number; width: number; height: number }>(
      `(() => { const b = document.querySelector('#chart-equity svg').getBoundingClientRect(); return { x: b.x, y: b.y, width: b.width, height: b.height }; })()`,
    );
    await page.mouse.move(r.x + r.width * 0.6, r.y + r.height / 2);
    expect(await page.evaluate<boolean>(`document.querySelector('#chart-equity .tip').hidden`)).to.equal(false);
    for (const width of [1360, 820]) {
      await page.setViewportSize({ width, height: 900 });
      const m = await page.evaluate<{ scroll: number; client: number }>(
        `({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })`,
      );
      expect(m.scroll, `at ${width}px`).to.be.at.most(m.client);
    }
    await page.setViewportSize({ width: 1360, height: 900 });
  });
});
