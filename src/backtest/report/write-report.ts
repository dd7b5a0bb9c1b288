/**
 * Writes a backtest's report folder: report.json (deterministic bytes) and report.html (one
 * self-contained page). The runner calls this once per backtest with the neutral run first and the
 * other fill models after it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BacktestRun } from './backtest-run.js';
import type { MetricsOptions } from './metrics.js';
import { type ReportHtmlOptions, renderReportHtml } from './report-html.js';
import { buildReportJson, buildReportModel, serialiseReportJson } from './report-json.js';

export const REPORT_JSON_FILE = 'report.json';
export const REPORT_HTML_FILE = 'report.html';

export interface WriteReportOptions extends MetricsOptions, ReportHtmlOptions {}

/** The two files' contents, without touching the disk. */
export function renderReport(runs: readonly BacktestRun[], options: WriteReportOptions = {}): { json: string; html: string } {
  const model = buildReportModel(runs, options);
  return { json: serialiseReportJson(buildReportJson(model)), html: renderReportHtml(model, options) };
}

/**
 * `runs`: the neutral run first, then the band (optimistic, pessimistic, custom models).
 * Returns the paths written.
 */
export async function writeReport(
  runs: readonly BacktestRun[],
  outDir: string,
  options: WriteReportOptions = {},
): Promise<{ json: string; html: string }> {
  const { json, html } = renderReport(runs, options);
  await mkdir(outDir, { recursive: true });
  const jsonPath = join(outDir, REPORT_JSON_FILE);
  const htmlPath = join(outDir, REPORT_HTML_FILE);
  await writeFile(jsonPath, json, 'utf8');
  await writeFile(htmlPath, html, 'utf8');
  return { json: jsonPath, html: htmlPath };
}
