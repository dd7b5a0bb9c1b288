/**
 * Position drift between our books and the venue, confirmed before it is acted on: a fill that lands
 * at the venue between our fill query and our position query shows as a difference for one pass and
 * is explained by the fill at the next. A difference seen in two consecutive passes, with the same
 * quantities, is a drift: reported, and the venue's position adopted.
 */
import { ZERO } from '../core/decimal.js';
import type { PositionDrift } from '../domain/execution-event.js';
import { type Position, positionKey } from '../domain/position.js';

export class DriftWatch {
  private previous = new Map<string, string>();

  /** Compares; returns the differences seen for the second pass in a row. */
  check(local: readonly Position[], venue: readonly Position[], now: number): PositionDrift[] {
    const mine = new Map(local.map((p) => [positionKey(p.symbol, p.leg), p]));
    const theirs = new Map(venue.map((p) => [positionKey(p.symbol, p.leg), p]));
    const seen = new Map<string, string>();
    const out: PositionDrift[] = [];
    for (const key of [...new Set([...mine.keys(), ...theirs.keys()])].sort()) {
      const a = mine.get(key);
      const b = theirs.get(key);
      const lq = a?.quantity ?? ZERO;
      const vq = b?.quantity ?? ZERO;
      if (lq.eq(vq)) continue;
      const signature = `${lq.toFixed()}|${vq.toFixed()}`;
      seen.set(key, signature);
      if (this.previous.get(key) === signature) {
        const p = (a ?? b)!;
        out.push({ type: 'PositionDrift', ts: now, symbol: p.symbol, leg: p.leg, localQuantity: lq, venueQuantity: vq });
        seen.delete(key);
      }
    }
    this.previous = seen;
    return out;
  }
}
