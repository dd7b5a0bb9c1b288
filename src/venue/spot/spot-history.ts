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

/** Sort order of an account's closed orders (Array.prototype.sort is stable: equal times keep their close order). */
export const byUpdateTime = (a: { readonly updateTime: number }, b: { readonly updateTime: number }): number => a.updateTime - b.updateTime;

/**
 * Removes from `list`, in place and keeping the order of the rest, the `count` entries that are `expired`
 * (the caller knows how many there are): the scan stops at the last of them, and the tail after it moves
 * down in one splice.
 */
export function dropExpired<T>(list: T[], count: number, expired: (t: T) => boolean): void {
  let w = 0;
  let i = 0;
  for (; count > 0 && i < list.length; i++) {
    const t = list[i]!;
    if (expired(t)) count--;
    else list[w++] = t;
  }
  if (i > w) list.splice(w, i - w);
}
