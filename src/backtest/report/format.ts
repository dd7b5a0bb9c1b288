/**
 * Text formatting shared by the HTML page and the sweep table. Everything here is deterministic
 * (UTC, fixed decimals, no locale) so identical runs render identical bytes.
 */

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;'));
}

/**
 * JSON that is safe inside an inline `<script>`: `<` can never close the element, and the line
 * separators JavaScript once treated as newlines are escaped.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** 2024-03-01 14:05:09 UTC style (no zone suffix: every time in a report is UTC). */
export function formatTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`;
}

/** "3d 4h 12m", "5m 3s", "250ms". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  let s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86_400);
  s -= d * 86_400;
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  const parts: string[] = [];
  if (d) parts.push(`${d}d`);
  if (h) parts.push(`${h}h`);
  if (m && d === 0) parts.push(`${m}m`);
  if (s && d === 0 && h === 0) parts.push(`${s}s`);
  return parts.length ? parts.join(' ') : '0s';
}

/** Thousands-separated fixed decimals: 12345.678 → "12,345.68". */
export function formatAmount(x: number, decimals = 2): string {
  if (!Number.isFinite(x)) return '—';
  const fixed = Math.abs(x).toFixed(decimals);
  const [int, frac] = fixed.split('.') as [string, string | undefined];
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const sign = x < 0 && Number(fixed) !== 0 ? '−' : '';
  return `${sign}${grouped}${frac !== undefined ? `.${frac}` : ''}`;
}

/**
 * A fraction as a percentage. Without `decimals` the precision adapts: two decimals from 1 % up, and
 * below that enough to show two significant digits (up to 6 decimals), so a 0.0012 % drawdown reads
 * "0.0012%", not "0.00%". Zero is "0.00%".
 */
export function formatPercent(x: number, decimals?: number): string {
  const pct = x * 100;
  return `${formatAmount(pct, decimals ?? percentDecimals(pct))}%`;
}

/** Decimals that show |pct| with at least two significant digits: 2 at and above 1, at most 6. */
export function percentDecimals(pct: number): number {
  const a = Math.abs(pct);
  if (!(a > 0) || !Number.isFinite(a) || a >= 1) return 2;
  return Math.min(6, Math.max(2, 1 - Math.floor(Math.log10(a))));
}
export const formatRatio = (x: number): string => formatAmount(x, 2);

/** A price as short as it can be while keeping ~6 significant digits. */
export function formatPrice(x: number): string {
  if (!Number.isFinite(x)) return '—';
  const abs = Math.abs(x);
  const decimals = abs >= 1000 ? 2 : abs >= 1 ? 4 : abs === 0 ? 2 : Math.min(10, 2 - Math.floor(Math.log10(abs)) + 3);
  return formatAmount(x, decimals);
}

/**
 * Compact axis label: 1.2M, 35k, 0.015. `scale` (the largest |tick| of the axis) picks one unit for
 * the whole axis, so 9 800 and 10 000 do not come out as "9800" and "10k".
 */
export function formatAxis(x: number, step: number, scale = Math.abs(x)): string {
  const unit = scale >= 1e6 && step >= 1e4 ? 1e6 : scale >= 1e4 && step >= 100 ? 1e3 : 1;
  const suffix = unit === 1e6 ? 'M' : unit === 1e3 ? 'k' : '';
  if (Math.abs(x) < step * 1e-9) return '0';
  const text = (Math.abs(x) / unit).toFixed(decimalsOf(step / unit));
  return `${x < 0 ? '−' : ''}${unit === 1 ? text : trimZeros(text)}${suffix}`;
}

/** Decimals needed to write `step` (2.5 → 1, 0.05 → 2, 200 → 0), from its shortest decimal form. */
function decimalsOf(step: number): number {
  const t = Number(step.toPrecision(6)).toString();
  if (t.includes('e-')) return Math.min(12, Number(t.split('e-')[1]) + (t.split('e')[0]!.split('.')[1]?.length ?? 0));
  return t.split('.')[1]?.length ?? 0;
}

const trimZeros = (s: string): string => (s.includes('.') ? s.replace(/\.?0+$/, '') : s);
