import type { BookTickerRecord, DataRecord } from '../../../../src/marketdata/record/record.js';

/**
 * Rebuilds the book from the records in their final order (Binance's rules: drop diffs already in
 * the snapshot, apply the rest) and compares it with every bookTicker that names the same update id
 * as the last applied diff. Returns [matches, mismatches].
 */
export function compareBookWithTickers(recs: readonly DataRecord[]): [number, string[]] {
  const bids = new Map<string, string>();
  const asks = new Map<string, string>();
  let lastId: number | undefined;
  const tickers = new Map<number, BookTickerRecord>();
  let matches = 0;
  const mismatches: string[] = [];
  const best = (side: Map<string, string>, high: boolean): [string, string] | undefined => {
    let bp: string | undefined;
    for (const p of side.keys()) if (bp === undefined || (high ? Number(p) > Number(bp) : Number(p) < Number(bp))) bp = p;
    return bp === undefined ? undefined : [bp, side.get(bp)!];
  };
  const check = (t: BookTickerRecord): void => {
    const b = best(bids, true);
    const a = best(asks, false);
    if (b && a && b[0] === t.bp && b[1] === t.bq && a[0] === t.ap && a[1] === t.aq) matches++;
    else mismatches.push(`u ${t.u}: book ${JSON.stringify([b, a])} ticker ${JSON.stringify([t.bp, t.bq, t.ap, t.aq])}`);
  };
  for (const r of recs) {
    if (r.s === 'depth.snapshot') {
      bids.clear();
      asks.clear();
      for (const [p, q] of r.b) bids.set(p, q);
      for (const [p, q] of r.a) asks.set(p, q);
      lastId = r.u;
    } else if (r.s === 'depth.diff' && lastId !== undefined && r.u > lastId) {
      for (const [p, q] of r.b) Number(q) === 0 ? bids.delete(p) : bids.set(p, q);
      for (const [p, q] of r.a) Number(q) === 0 ? asks.delete(p) : asks.set(p, q);
      lastId = r.u;
      // A ticker may arrive before or after the diff that ends at its id.
      const t = tickers.get(r.u);
      if (t) check(t);
    } else if (r.s === 'bookTicker' && r.u !== undefined) {
      tickers.set(r.u, r);
      if (r.u === lastId) check(r);
    }
  }
  return [matches, mismatches];
}
