/**
 * Position drift between our books and the venue, confirmed before it is acted on: a fill that lands
 * at the venue between our fill query and our position query shows as a difference for one pass and
 * is explained by the fill at the next. A difference seen in two consecutive passes, with the same
 * quantities, is a drift: reported, and the venue's position adopted.
 */
import { type Decimal, ZERO } from '../core/decimal.js';
import type { PositionDrift } from '../domain/execution-event.js';
import { type Position, positionKey } from '../domain/position.js';

export class DriftWatch {
  private previous = new Map<string, string>();

  /** Compares; returns the differences seen for the second pass in a row. */
  check(local: readonly Position[], venue: readonly Position[], now: number): readonly PositionDrift[] {
    // The pass of every reconciliation tick: nothing differs now and nothing differed last time, so
    // nothing is confirmed and nothing is remembered (what the general pass below would find).
    if (this.previous.size === 0 && agree(local, venue)) return NO_DRIFT;
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

/**
 * Whether every position key has the same quantity in both lists (a key missing on one side counts
 * as zero there; with a key listed twice, the later entry counts, as in the maps of check()).
 */
function agree(local: readonly Position[], venue: readonly Position[]): boolean {
  for (const p of local) if (!quantityOf(local, p).eq(quantityOf(venue, p))) return false;
  for (const q of venue) if (!quantityOf(venue, q).eq(quantityOf(local, q))) return false;
  return true;
}

/** The quantity of `p`'s key in `list` (its later entry; zero when missing). */
function quantityOf(list: readonly Position[], p: Position): Decimal {
  for (let i = list.length - 1; i >= 0; i--) if (list[i]!.symbol === p.symbol && list[i]!.leg === p.leg) return list[i]!.quantity;
  return ZERO;
}

/** What a pass with nothing confirmed finds (nearly every reconciliation tick; a module-level closure and list were made per pass). */
const NO_DRIFT: readonly PositionDrift[] = Object.freeze([]);
