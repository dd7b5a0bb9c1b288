/** UTC day, week (from Monday) and month boundaries in ms: the analysis buckets by 00:00 UTC. */
export const DAY_MS = 86_400_000;

export const dayStart = (t: number): number => Math.floor(t / DAY_MS) * DAY_MS;

/** Monday 00:00 UTC of the week holding `t` (1970-01-01 was a Thursday). */
export function weekStart(t: number): number {
  const d = Math.floor(t / DAY_MS);
  return (d - ((d + 3) % 7)) * DAY_MS;
}

export function monthStart(t: number): number {
  const d = new Date(t);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

export function nextMonthStart(t: number): number {
  const d = new Date(t);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** Day starts from the day of `from` to the day of `to`, both included. */
export function daysBetween(from: number, to: number): number[] {
  const out: number[] = [];
  for (let d = dayStart(from); d <= to; d += DAY_MS) out.push(d);
  return out;
}

/** `YYYY-MM-DD` of a UTC day. */
export function isoDay(t: number): string {
  return new Date(t).toISOString().slice(0, 10);
}
