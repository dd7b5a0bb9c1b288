/** Windowed history reads (allOrders, myTrades): oldest first, the most recent `limit` that pass. */

export function clampLimit(limit: number | undefined, dflt: number, max: number): number {
  if (limit === undefined || !Number.isFinite(limit) || limit <= 0) return dflt;
  return Math.min(Math.floor(limit), max);
}

/** The last `limit` entries that pass, oldest first. */
export function takeLatest<T>(list: readonly T[], pass: (t: T) => boolean, limit: number): T[] {
  const out: T[] = [];
  for (let i = list.length - 1; i >= 0 && out.length < limit; i--) if (pass(list[i]!)) out.push(list[i]!);
  return out.reverse();
}
