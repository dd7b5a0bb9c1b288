/** Backtest reports: the run the runner hands over, metrics, report.json / report.html, sweeps. */
export * from './backtest-run.js';
export * from './metrics.js';
export * from './metric-defs.js';
export * from './run-codec.js';
export {
  REPORT_FORMAT,
  REPORT_SERIES_MAX,
  buildReportJson,
  buildReportModel,
  metricsToJson,
  ordersHash,
  fillsHash,
  serialiseReportJson,
} from './report-json.js';
export type { ReportJson, ReportModel, MetricsJson, BandEntryJson, RoundTripJson } from './report-json.js';
export { renderReportHtml, HTML_TABLE_LIMIT } from './report-html.js';
export type { ReportHtmlOptions } from './report-html.js';
export { writeReport, renderReport, REPORT_JSON_FILE, REPORT_HTML_FILE } from './write-report.js';
export type { WriteReportOptions } from './write-report.js';
export * from './sweep-report.js';
