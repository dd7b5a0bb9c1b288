/**
 * One duration syntax for every config key and command-line flag: `90s`, `15m`, `2h`, `1d`, `250ms`,
 * or a plain number of seconds (`30`, `2.5`).
 */

/** Milliseconds of a duration, or undefined when `v` is not a positive duration. */
export function parseDuration(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) && v > 0 ? Math.round(v * 1000) : undefined;
  if (typeof v !== 'string') return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(v);
  if (!m) return undefined;
  const n = Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h' | 'd'];
  return n > 0 ? Math.round(n) : undefined;
}

export const DURATION_EXPECTED = 'seconds > 0 or a duration like 90s, 15m, 2h, 1d';

/** A command-line duration flag's value in seconds; throws naming the flag and the syntax. */
export function durationFlagSeconds(flag: string, v: string): number {
  const ms = parseDuration(v);
  if (ms === undefined) throw new Error(`${flag}: expected ${DURATION_EXPECTED}, received ${JSON.stringify(v)}`);
  return ms / 1000;
}
