/**
 * The live triggers of each contract indexed by the price that makes them act (issue 12), so a price
 * update visits only the triggers it crosses — O(k) plus O(1) per ladder — instead of every live one.
 *
 * The index only PRE-SELECTS: the trigger book still runs each kind's exact `evaluate` (Decimal
 * comparisons against the update's price) on what the index hands it, in activation order — the
 * order the book's live map has always iterated in — so which triggers fire, in what order and with
 * what outcome is exactly what a scan of every live trigger gives. What the index must guarantee is
 * a superset: every trigger whose `evaluate` would do anything on the update is selected. Keys are
 * doubles of the Decimal prices; Decimal→double rounding is monotonic, so an exact `p ≥ X` implies
 * double(p) ≥ double(X) (and likewise for ≤, <, >), and comparing doubles non-strictly never misses.
 * A selected trigger that does not act is a no-op in `evaluate`.
 *
 * Per contract and price kind (fair, index, last — a trigger watches one kind per leg):
 *   up    triggers that act when the price rises to their key (p ≥ key): a long's take-profit, a
 *         short's stop-loss, a plan order of trigger type 1, an inactive trailing order activated from
 *         below. Keys ascending: the ones an update crosses are a prefix, walked from the low end.
 *   down  the mirror (p ≤ key), a suffix walked from the high end.
 *   trail active trailing orders. Their keys move with the price (a sell-side one acts on a new high,
 *         p > benchmark, or on a fall to its trigger, p ≤ trigger; a buy-side one mirrors that), so
 *         they are kept out of the sorted ladders — re-keying on every new extreme would shift the
 *         arrays each time — in a small set with two conservative bounds, the lowest "act above" key
 *         and the highest "act below" key. An update inside both bounds skips the set in O(1); one
 *         outside them walks the set, evaluates the ones that act, and recomputes the bounds. A
 *         trailing order is re-keyed after each evaluation (its benchmark may have moved), with a
 *         trigger bound worked out in doubles with a 1e-9 relative slack when the exact trigger is
 *         not computed yet (track-orders computes it lazily), so a new extreme costs no Decimal work.
 * Per contract, plan orders also sit in an expiry ladder keyed by their expiry time: `evaluate`
 * expires a due plan order on an update of ANY kind, so every update selects the due ones.
 */
import { Decimal } from '../../../core/decimal.js';
import { BackType, PositionType, TrackOrderState, TriggerType } from '../../../domain/contract-enums.js';
import type { PriceUpdate } from '../contract-events.js';
import type { PlanRecord } from './plan-orders.js';
import type { StopRecord } from './stop-orders.js';
import type { TrackRecord } from './track-orders.js';
import { PriceLadder, priceKey } from '../price-ladder.js';
import { priceKindOf, type PriceKind } from './trigger-prices.js';
import type { TriggerRecord } from './trigger-store.js';

/** Relative slack of a trailing trigger bound computed in doubles (doubles carry ~1e-16). */
const SLACK = 1e-9;

/** Where an entry sits in one ladder (to take it out again). */
interface Leg {
  readonly ladder: PriceLadder<TriggerEntry>;
  readonly key: number;
}

export interface TriggerEntry {
  readonly rec: TriggerRecord;
  /** Activation order: the order the book's live map iterates in, and so the evaluation order. */
  readonly order: number;
  legs: Leg[];
  /**
   * The trailing set it is in (active trailing orders), with its keys: acts when p ≤ lo or p ≥ hi.
   * A key with an exact price (the benchmark: acts only when p is strictly beyond it) is decided
   * exactly when the update's key equals it — a price that only returns to the high is no new high.
   */
  trail: TrailSet | undefined;
  lo: number;
  hi: number;
  loPrice: Decimal | undefined;
  hiPrice: Decimal | undefined;
  /** A trailing order's callback (backValue) and its double, converted once per value. */
  back: Decimal | undefined;
  backKey: number;
  /** The last update that selected it (an entry can be in two ladders: a stop's two legs). */
  stamp: number;
}

/** Whether a price with key p may make a trailing entry act (exact at a key equal to a strict one). */
function trailActs(e: TriggerEntry, p: number, price: Decimal): boolean {
  const low = p < e.lo || (p === e.lo && (e.loPrice === undefined || price.lt(e.loPrice)));
  return low || p > e.hi || (p === e.hi && (e.hiPrice === undefined || price.gt(e.hiPrice)));
}

/**
 * Active trailing orders of one contract and price kind, with conservative bounds of their keys: no
 * member has hi below minHi or lo above maxLo; at a key equal to a bound, minHiPrice (maxLoPrice) is
 * the least (greatest) exact price of the members keyed there, undefined when one of them has none.
 */
export class TrailSet {
  readonly entries = new Set<TriggerEntry>();
  minHi = Infinity;
  minHiPrice: Decimal | undefined = undefined;
  maxLo = -Infinity;
  maxLoPrice: Decimal | undefined = undefined;
  /** Set when an update walked the set: the bounds are recomputed once its triggers were evaluated. */
  walked = false;

  add(e: TriggerEntry): void {
    this.entries.add(e);
    this.widen(e);
  }

  /** Removal leaves the bounds as they are: still conservative, tightened at the next walk. */
  delete(e: TriggerEntry): void {
    this.entries.delete(e);
  }

  /** False when no member can act at a price with key p (exact at a key equal to a bound's). */
  mayAct(p: number, price: Decimal): boolean {
    if (this.entries.size === 0) return false;
    const clearOfLo = p > this.maxLo || (p === this.maxLo && this.maxLoPrice !== undefined && !price.lt(this.maxLoPrice));
    const clearOfHi = p < this.minHi || (p === this.minHi && this.minHiPrice !== undefined && !price.gt(this.minHiPrice));
    return !(clearOfLo && clearOfHi);
  }

  collect(p: number, price: Decimal, stamp: number, out: TriggerEntry[]): void {
    if (!this.mayAct(p, price)) return;
    this.walked = true;
    for (const e of this.entries) if (trailActs(e, p, price)) select(e, stamp, out);
  }

  tighten(): void {
    this.walked = false;
    this.minHi = Infinity;
    this.maxLo = -Infinity;
    this.minHiPrice = this.maxLoPrice = undefined;
    for (const e of this.entries) this.widen(e);
  }

  /** Takes a member's keys into the bounds (a member re-keyed in place comes through here too). */
  widen(e: TriggerEntry): void {
    if (e.hi < this.minHi) {
      this.minHi = e.hi;
      this.minHiPrice = e.hiPrice;
    } else if (e.hi === this.minHi && this.minHiPrice !== undefined && e.hiPrice !== this.minHiPrice) {
      this.minHiPrice = e.hiPrice === undefined || e.hiPrice.lt(this.minHiPrice) ? e.hiPrice : this.minHiPrice;
    }
    if (e.lo > this.maxLo) {
      this.maxLo = e.lo;
      this.maxLoPrice = e.loPrice;
    } else if (e.lo === this.maxLo && this.maxLoPrice !== undefined && e.loPrice !== this.maxLoPrice) {
      this.maxLoPrice = e.loPrice === undefined || e.loPrice.gt(this.maxLoPrice) ? e.loPrice : this.maxLoPrice;
    }
  }
}

/** The triggers of one contract watching one price kind. */
export class KindIndex {
  readonly up = new PriceLadder<TriggerEntry>();
  readonly down = new PriceLadder<TriggerEntry>();
  readonly trail = new TrailSet();
}

export class SymbolIndex {
  readonly fair = new KindIndex();
  readonly index = new KindIndex();
  readonly last = new KindIndex();
  /** Untriggered plan orders by expiry time (they expire on an update of any kind). */
  readonly expiry = new PriceLadder<TriggerEntry>();

  of(kind: PriceKind): KindIndex {
    return kind === 'fair' ? this.fair : kind === 'index' ? this.index : this.last;
  }
}

const NOTHING: readonly TriggerEntry[] = [];

function select(e: TriggerEntry, stamp: number, out: TriggerEntry[]): void {
  if (e.stamp === stamp) return;
  e.stamp = stamp;
  out.push(e);
}

export class TriggerIndex {
  private readonly symbols = new Map<string, SymbolIndex>();
  private readonly entries = new Map<TriggerRecord, TriggerEntry>();
  private activations = 0;
  private stamp = 0;

  /** Number of indexed records (the book's invariants compare it with its live map). */
  get size(): number {
    return this.entries.size;
  }

  has(rec: TriggerRecord): boolean {
    return this.entries.has(rec);
  }

  /** A record became live (or, already live, its keys changed): (re)keys it. */
  place(rec: TriggerRecord): void {
    let e = this.entries.get(rec);
    if (e === undefined) {
      e = {
        rec,
        order: ++this.activations,
        legs: [],
        trail: undefined,
        lo: -Infinity,
        hi: Infinity,
        loPrice: undefined,
        hiPrice: undefined,
        back: undefined,
        backKey: 0,
        stamp: 0,
      };
      this.entries.set(rec, e);
    } else if (e.trail !== undefined && e.trail === this.trailOf(rec)) {
      // An active trailing order that stays active on its price kind (a new extreme): new keys, same set.
      trailKeys(e, rec as TrackRecord);
      e.trail.widen(e);
      return;
    } else {
      unplace(e);
    }
    let si = this.symbols.get(rec.symbol);
    if (si === undefined) this.symbols.set(rec.symbol, (si = new SymbolIndex()));
    switch (rec.kind) {
      case 'stop':
        placeStop(e, rec as StopRecord, si);
        break;
      case 'plan':
        placePlan(e, rec as PlanRecord, si);
        break;
      case 'track':
        placeTrack(e, rec as TrackRecord, si);
        break;
    }
  }

  /** The trailing set an active trailing order belongs in (undefined for anything else). */
  private trailOf(rec: TriggerRecord): TrailSet | undefined {
    if (rec.kind !== 'track' || (rec as TrackRecord).state !== TrackOrderState.ACTIVE) return undefined;
    return this.symbols.get(rec.symbol)?.of(priceKindOf((rec as TrackRecord).trend)).trail;
  }

  remove(rec: TriggerRecord): void {
    const e = this.entries.get(rec);
    if (e === undefined) return;
    unplace(e);
    this.entries.delete(rec);
  }

  /** The live triggers `u` may concern, in activation order. */
  select(u: PriceUpdate): readonly TriggerEntry[] {
    const si = this.symbols.get(u.symbol);
    if (si === undefined) return NOTHING;
    const p = priceKey(u.price);
    const ki = si.of(u.kind);
    const ladders = si.expiry.anyAtOrBelow(u.time) || ki.up.anyAtOrBelow(p) || ki.down.anyAtOrAbove(p);
    // Most updates cross nothing: answered from the ends of the ladders and the trailing bounds.
    if (!ladders && !ki.trail.mayAct(p, u.price)) return NOTHING;
    const out: TriggerEntry[] = [];
    const stamp = ++this.stamp;
    const pick = (e: TriggerEntry): void => select(e, stamp, out);
    si.expiry.atOrBelow(u.time, pick);
    ki.up.atOrBelow(p, pick);
    ki.down.atOrAbove(p, pick);
    ki.trail.collect(p, u.price, stamp, out);
    if (out.length > 1) out.sort((a, b) => a.order - b.order);
    return out;
  }

  /** After the selected triggers of `u` were evaluated: tightens the trailing bounds it walked. */
  settle(u: PriceUpdate): void {
    const trail = this.symbols.get(u.symbol)?.of(u.kind).trail;
    if (trail?.walked) trail.tighten();
  }
}

function unplace(e: TriggerEntry): void {
  for (const leg of e.legs) leg.ladder.remove(leg.key, e);
  e.legs = [];
  e.trail?.delete(e);
  e.trail = undefined;
}

function insertLeg(e: TriggerEntry, ladder: PriceLadder<TriggerEntry>, key: number): void {
  ladder.insert(key, e);
  e.legs.push({ ladder, key });
}

/** Into `up` when the record acts at p ≥ price, into `down` when at p ≤ price. */
function putAt(e: TriggerEntry, k: KindIndex, price: Decimal, actsAbove: boolean): void {
  insertLeg(e, actsAbove ? k.up : k.down, priceKey(price));
}

function placeStop(e: TriggerEntry, r: StopRecord, si: SymbolIndex): void {
  const long = r.positionType === PositionType.LONG;
  // stop-orders `evaluate`: a long's stop-loss at p ≤ sl and take-profit at p ≥ tp; a short's the mirror.
  if (r.stopLossPrice !== undefined) putAt(e, si.of(priceKindOf(r.lossTrend)), r.stopLossPrice, !long);
  if (r.takeProfitPrice !== undefined) putAt(e, si.of(priceKindOf(r.profitTrend)), r.takeProfitPrice, long);
}

function placePlan(e: TriggerEntry, r: PlanRecord, si: SymbolIndex): void {
  putAt(e, si.of(priceKindOf(r.trend)), r.triggerPrice, r.triggerType === TriggerType.GTE);
  insertLeg(e, si.expiry, r.expireTime);
}

function placeTrack(e: TriggerEntry, r: TrackRecord, si: SymbolIndex): void {
  const k = si.of(priceKindOf(r.trend));
  if (r.state === TrackOrderState.INACTIVE) {
    putAt(e, k, r.activePrice!, r.activateWhen === TriggerType.GTE);
    return;
  }
  trailKeys(e, r);
  e.trail = k.trail;
  k.trail.add(e);
}

/** The keys of an active trailing order. */
function trailKeys(e: TriggerEntry, r: TrackRecord): void {
  if (r.markPrice === undefined) {
    // No benchmark yet: the first update of its kind sets one.
    e.lo = Infinity;
    e.hi = -Infinity;
    e.loPrice = e.hiPrice = undefined;
    return;
  }
  const mark = priceKey(r.markPrice);
  const trigger = triggerBound(e, r, mark);
  // A sell-side order acts on a new high (p > mark) or a fall to its trigger; a buy-side one mirrors it.
  e.lo = r.sells ? trigger : mark;
  e.hi = r.sells ? mark : trigger;
  e.loPrice = r.sells ? undefined : r.markPrice;
  e.hiPrice = r.sells ? r.markPrice : undefined;
}

/**
 * A bound of the trailing trigger on the side that never misses: ≥ the trigger of a sell-side order
 * (it acts at p ≤ trigger), ≤ that of a buy-side one. The exact trigger when track-orders has it, else
 * the raw callback price in doubles widened by 1e-9 of its magnitude (the tick rounding only moves the
 * trigger further: down for a sell, up for a buy; a sell's trigger is floored at 0).
 */
function triggerBound(e: TriggerEntry, r: TrackRecord, mark: number): number {
  if (!r.triggerStale && r.triggerPrice !== undefined) return r.triggerPrice.toNumber();
  if (e.back !== r.backValue) {
    e.back = r.backValue;
    e.backKey = r.backValue.toNumber();
  }
  const back = e.backKey;
  const percent = r.backType === BackType.PERCENT;
  const step = percent ? mark * back : back;
  const slack = SLACK * (mark + step);
  return r.sells ? Math.max(0, mark - step + slack) : mark + step - slack;
}
