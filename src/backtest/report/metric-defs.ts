/**
 * Label, unit and ranking direction of every metric, in the order reports list them. The JSON key
 * order of `metrics` in report.json and sweep.json is this order.
 */
import { formatAmount, formatDuration, formatPercent, formatRatio, formatTime } from './format.js';
import type { MetricKey, Metrics } from './metrics.js';

export type MetricFormat = 'percent' | 'ratio' | 'amount' | 'count' | 'duration' | 'time' | 'number';

export interface MetricDef {
  readonly key: MetricKey;
  readonly label: string;
  readonly format: MetricFormat;
  /** A smaller value is better (drawdowns, volatility, fees): sweeps rank ascending. */
  readonly lowerIsBetter?: boolean;
  /** One line for the page's tooltip: how the number is computed. */
  readonly help: string;
}

export const METRIC_DEFS: readonly MetricDef[] = [
  { key: 'totalReturn', label: 'Total return', format: 'percent', help: 'E_end / E₀ − 1' },
  { key: 'annualisedReturn', label: 'Annualised return', format: 'percent', help: '(E_end / E₀)^(365 d / span) − 1' },
  { key: 'netPnl', label: 'Net PnL', format: 'amount', help: 'E_end − E₀, valuation asset' },
  { key: 'sharpe', label: 'Sharpe', format: 'ratio', help: 'mean(r − rf) / sd(r − rf) · √periods per year' },
  { key: 'sortino', label: 'Sortino', format: 'ratio', help: 'mean(r − rf) / √(Σ min(r − rf, 0)² / n) · √periods per year' },
  { key: 'calmar', label: 'Calmar', format: 'ratio', help: 'annualised return / max drawdown' },
  { key: 'volatility', label: 'Volatility (ann.)', format: 'percent', lowerIsBetter: true, help: 'sd(r) · √periods per year' },
  { key: 'maxDrawdown', label: 'Max drawdown', format: 'percent', lowerIsBetter: true, help: 'max (peak − E) / peak' },
  {
    key: 'maxDrawdownDurationMs',
    label: 'Max drawdown duration',
    format: 'duration',
    lowerIsBetter: true,
    help: 'peak to recovery, or to the end when not recovered',
  },
  { key: 'roundTrips', label: 'Round trips', format: 'count', help: 'FIFO matches of an open lot with a closing fill' },
  { key: 'winRate', label: 'Win rate', format: 'percent', help: 'round trips with net PnL > 0 / round trips' },
  { key: 'profitFactor', label: 'Profit factor', format: 'ratio', help: 'Σ winning net PnL / |Σ losing net PnL|' },
  { key: 'expectancy', label: 'Expectancy', format: 'amount', help: 'mean net PnL per round trip' },
  { key: 'averageWin', label: 'Average win', format: 'amount', help: 'mean net PnL of winning round trips' },
  { key: 'averageLoss', label: 'Average loss', format: 'amount', help: 'mean net PnL of losing round trips' },
  { key: 'exposure', label: 'Exposure', format: 'percent', help: 'share of the data range with a non-zero position' },
  { key: 'turnover', label: 'Turnover', format: 'ratio', help: 'traded notional / mean equity' },
  { key: 'tradedNotional', label: 'Traded notional', format: 'amount', help: 'Σ price · qty · multiplier' },
  { key: 'fees', label: 'Fees', format: 'amount', lowerIsBetter: true, help: 'fees paid, valuation asset' },
  { key: 'funding', label: 'Funding', format: 'amount', help: 'funding received (+) or paid (−)' },
  { key: 'trades', label: 'Fills', format: 'count', help: 'number of fills' },
  { key: 'orders', label: 'Orders', format: 'count', help: 'number of orders' },
  { key: 'initialEquity', label: 'Initial equity', format: 'amount', help: 'initial capital' },
  { key: 'finalEquity', label: 'Final equity', format: 'amount', help: 'equity at the last sample' },
  { key: 'returnPeriodMs', label: 'Return period', format: 'duration', help: 'period of the returns behind Sharpe / Sortino' },
  { key: 'periodsPerYear', label: 'Periods per year', format: 'number', help: '365 d / return period' },
  { key: 'riskFreeRate', label: 'Risk-free rate', format: 'percent', help: 'annual, for Sharpe / Sortino' },
  { key: 'startTime', label: 'Start', format: 'time', help: 'first equity sample (UTC)' },
  { key: 'endTime', label: 'End', format: 'time', help: 'last equity sample (UTC)' },
  { key: 'maxDrawdownPeakTime', label: 'Max drawdown peak', format: 'time', help: 'peak before the deepest trough (UTC)' },
  { key: 'maxDrawdownTroughTime', label: 'Max drawdown trough', format: 'time', help: 'deepest trough (UTC)' },
  { key: 'maxDrawdownRecoveryTime', label: 'Max drawdown recovery', format: 'time', help: 'back at the peak (UTC); — when not recovered' },
];

export const metricDef = (key: MetricKey): MetricDef | undefined => METRIC_DEFS.find((d) => d.key === key);

/** The human form of a metric value; "—" for null (undefined ratio). */
export function formatMetric(value: number | null, format: MetricFormat): string {
  if (value === null || !Number.isFinite(value)) return '—';
  switch (format) {
    case 'percent':
      return formatPercent(value);
    case 'ratio':
      return formatRatio(value);
    case 'amount':
      return formatAmount(value);
    case 'count':
      return formatAmount(value, 0);
    case 'duration':
      return formatDuration(value);
    case 'time':
      return formatTime(value);
    case 'number':
      return formatAmount(value, Number.isInteger(value) ? 0 : 2);
  }
}

export const metricValue = (m: Metrics, key: MetricKey): number | null => m[key];
