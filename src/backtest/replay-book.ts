/**
 * The recorded order book of one instrument during a replay, in integer ticks and lots, plus what our
 * own taker orders took from it.
 *
 * The recording does not know we traded: when our order takes 3 lots at a level, the next diff may
 * still show the old size. The lots we took are kept as `consumed` per level and subtracted from what
 * we see (visibleLots) until the recording next reports that level (a diff naming it, or a snapshot),
 * which is the venue telling us its real size again.
 *
 * Every change of a level's recorded size at a price `onLevel` listens to (listenRange) goes to it
 * (queue positions follow it).
 *
 * Layout (the replay's hottest code: a Binance diff carries ≈46 levels on a book of 2–3 thousand): each
 * side keeps the levels within a window of 2^19 ticks around the touch in a dense array of 32-bit lots
 * indexed by price, with a two-level bitset to find the next occupied price (one `clz32` per 32 ticks,
 * one per 1024 empty ticks); the few levels outside the window (≈1 % of updates on BTCUSDT, thousands
 * of dollars away) go to a sorted block list and a Map. Which part holds a level changes nothing but
 * speed: every query merges both. The window follows the touch (recentred when the best level leaves
 * its middle part; checked after every few hundred updates outside it and at each snapshot).
 */
export type Side = 'buy' | 'sell';

export type LevelListener = (side: Side, priceTicks: number, prevLots: number, newLots: number) => void;

const BLOCK = 64;

/** Ticks covered by a side's dense window: 2^19 (2 MB of lots per side, allocated on the first level). */
const WINDOW_BITS = 19;
/** Updates outside the window between two checks of the window's position. */
const MISSES_PER_CHECK = 512;
/** Marks a window slot whose size is kept in BookSide.big (not a whole number below 2^32 − 1). */
const BIG = 0xffffffff;

export interface ReplayBookOptions {
  /** log2 of the dense window in ticks, 10–24 (default 19). Tests use small windows to make the book move them. */
  readonly windowBits?: number;
  /** Updates outside the window between two checks of its position (default 512). */
  readonly missesPerCheck?: number;
}

/**
 * The prices of one side in order, WORST FIRST and best last, held in blocks of at most 2·BLOCK
 * sorted numbers: a recorded side runs to thousands of levels and its diffs touch deep ones too, so a
 * flat sorted array would move thousands of numbers per change; a block moves at most 2·BLOCK.
 */
class PriceList {
  /** Keys (price for bids, −price for asks): ascending keys are worst first for both sides. */
  private blocks: number[][] = [];
  size = 0;
  private readonly sign: number;

  constructor(isBid: boolean) {
    this.sign = isBid ? 1 : -1;
  }

  clear(): void {
    this.blocks = [];
    this.size = 0;
  }

  private blockOf(key: number): number {
    const bs = this.blocks;
    let lo = 0;
    let hi = bs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const b = bs[mid]!;
      if (b[b.length - 1]! < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(price: number): void {
    const key = this.sign * price;
    this.size++;
    const bs = this.blocks;
    const n = bs.length;
    if (n === 0) {
      bs.push([key]);
      return;
    }
    const last = bs[n - 1]!;
    // A new best level is the common case: append.
    if (last[last.length - 1]! < key) {
      if (last.length < 2 * BLOCK) last.push(key);
      else bs.push([key]);
      return;
    }
    const k = this.blockOf(key);
    const b = bs[k]!;
    b.splice(lowerBound(b, key), 0, key);
    if (b.length > 2 * BLOCK) bs.splice(k + 1, 0, b.splice(BLOCK));
  }

  remove(price: number): void {
    const key = this.sign * price;
    const bs = this.blocks;
    const n = bs.length;
    if (n === 0) return;
    const last = bs[n - 1]!;
    let k: number;
    let b: number[];
    if (last[last.length - 1] === key) {
      k = n - 1;
      b = last;
      b.pop();
    } else {
      k = this.blockOf(key);
      b = bs[k]!;
      const i = lowerBound(b, key);
      if (b[i] !== key) return;
      b.splice(i, 1);
    }
    this.size--;
    if (b.length === 0) bs.splice(k, 1);
  }

  best(): number | undefined {
    const bs = this.blocks;
    if (bs.length === 0) return undefined;
    const b = bs[bs.length - 1]!;
    return this.sign * b[b.length - 1]!;
  }

  /** Prices from the best, for as long as `visit` returns true. */
  walk(visit: (price: number) => boolean): void {
    const bs = this.blocks;
    for (let j = bs.length - 1; j >= 0; j--) {
      const b = bs[j]!;
      for (let i = b.length - 1; i >= 0; i--) if (!visit(this.sign * b[i]!)) return;
    }
  }
}

function lowerBound(b: readonly number[], key: number): number {
  let lo = 0;
  let hi = b.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (b[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A side's window arrays, all zero. */
interface WindowArrays {
  readonly lots: Uint32Array;
  readonly words: Int32Array;
  readonly blocks: Int32Array;
  readonly aside: Int32Array;
}

/**
 * Window arrays given back by released books (a run's end), for the next book: a fresh window is
 * megabytes to zero, and a run of a few minutes of data would otherwise pay that (and the collector's
 * reaction to it) every time — once per fill model of a report, once per sweep point.
 */
const POOL: WindowArrays[] = [];
const POOL_MAX = 8;

function takeWindow(W: number): WindowArrays {
  for (let k = POOL.length - 1; k >= 0; k--) {
    if (POOL[k]!.lots.length === W) return POOL.splice(k, 1)[0]!;
  }
  return { lots: new Uint32Array(W), words: new Int32Array(W >>> 5), blocks: new Int32Array(W >>> 10), aside: new Int32Array(W >>> 5) };
}

function giveWindow(w: WindowArrays): void {
  if (POOL.length < POOL_MAX) POOL.push(w);
}

/** [price, lots] pairs of a flat list [price, lots, price, lots, …]. */
export function pairsOf(flat: readonly number[]): [number, number][] {
  const out = new Array<[number, number]>(flat.length >>> 1);
  for (let k = 0; k < out.length; k++) out[k] = [flat[2 * k]!, flat[2 * k + 1]!];
  return out;
}

/** Index of the lowest set bit of a non-zero 32-bit word. */
const lowestBit = (x: number): number => 31 - Math.clz32(x & -x);

/** One side's levels: recorded size per price (dense window + far levels), what our takers consumed. */
class BookSide {
  /** Levels outside the window. */
  private readonly far: PriceList;
  private readonly farLots = new Map<number, number>();
  readonly consumed = new Map<number, number>();
  /**
   * Price range of the `consumed` keys (what our takers took sits at the touch): a diff's deep levels
   * cannot clear anything there, and are not looked up.
   */
  private consumedLo = Infinity;
  private consumedHi = -Infinity;
  /** Price of the window's index 0. */
  private base = 0;
  /**
   * Recorded lots per window index, as 32-bit integers: half the memory of doubles, so more of the
   * touched part stays in cache between diffs. A size that is not a whole number below BIG is kept
   * in `big` (by index) and marked BIG here.
   */
  private lots: Uint32Array | undefined;
  private readonly big = new Map<number, number>();
  /** One bit per tick of the window: the level holds lots (finds the next level 32 ticks at a time). */
  private words: Int32Array | undefined;
  /** One bit per word of `words`: the word holds a level (skips empty stretches 1024 ticks at a time). */
  private blocks: Int32Array | undefined;
  /**
   * One bit per tick of the window: the level's size is kept in `big` (its slot in `lots` holds BIG).
   * A diff's level is then written without reading its slot first: occupancy comes from `words`, and
   * this bitset, as small as `words`, says whether the slot may be overwritten (setFlatWindow).
   */
  private aside: Int32Array | undefined;
  /** Best occupied index of the window, −1 when it holds nothing. */
  private denseBest = -1;
  private misses = 0;
  /** Levels on this side. */
  size = 0;
  /** Prices whose changes the level listener hears (ReplayBook.listenRange): all by default. */
  listenLo = -Infinity;
  listenHi = Infinity;
  /** Window length in ticks, its words of 32 ticks, and the words of the word bitset. */
  private readonly W: number;
  private readonly NW: number;
  private readonly NS: number;

  constructor(
    private readonly isBid: boolean,
    windowBits: number,
    private readonly missesPerCheck: number,
  ) {
    this.far = new PriceList(isBid);
    this.W = 1 << windowBits;
    this.NW = this.W >>> 5;
    this.NS = this.NW >>> 5;
  }

  clear(): void {
    this.clearWindow();
    // A synthetic intra-bar book is cleared at every path point: the far list and the maps are
    // almost always empty, and clearing an empty one still made a new block list.
    if (this.far.size !== 0) this.far.clear();
    if (this.farLots.size !== 0) this.farLots.clear();
    if (this.consumed.size !== 0) this.consumed.clear();
    this.consumedLo = Infinity;
    this.consumedHi = -Infinity;
    this.size = 0;
  }

  /** Records that our takers took `lots` more at `price` (ReplayBook.consume). */
  consume(price: number, lots: number): void {
    this.consumed.set(price, (this.consumed.get(price) ?? 0) + lots);
    if (price < this.consumedLo) this.consumedLo = price;
    if (price > this.consumedHi) this.consumedHi = price;
  }

  /** The recording reported `price` again: what our takers took there is forgotten. */
  private unconsume(price: number): void {
    if (price < this.consumedLo || price > this.consumedHi) return;
    if (this.consumed.delete(price) && this.consumed.size === 0) {
      this.consumedLo = Infinity;
      this.consumedHi = -Infinity;
    }
  }

  private clearWindow(): void {
    const lots = this.lots;
    if (lots) {
      // Only what is occupied (a synthetic intra-bar book of a few levels is replaced at every path
      // point: zeroing whole bitsets each time would cost more than the replay).
      // Each word is zeroed once the walk has left it, and so is each word of the word bitset (the
      // walk uses both to skip empty stretches): only the bits of occupied levels are set, so that
      // leaves both bitsets all zero without filling the block bitset (a few hundred words) each time.
      const words = this.words!;
      const blocks = this.blocks!;
      let left = this.denseSize();
      let i = this.denseBest;
      while (i >= 0) {
        const next = --left > 0 ? this.nextWorse(i) : -1;
        lots[i] = 0;
        if (next < 0 || next >>> 5 !== i >>> 5) words[i >>> 5] = 0;
        if (next < 0 || next >>> 10 !== i >>> 10) blocks[i >>> 10] = 0;
        i = next;
      }
      if (this.big.size !== 0) {
        const aside = this.aside!;
        for (const i of this.big.keys()) aside[i >>> 5] = 0;
        this.big.clear();
      }
    }
    this.denseBest = -1;
  }

  /** Recorded size at a price (0 when absent). */
  get(price: number): number {
    const i = price - this.base;
    if (this.lots !== undefined && i >>> 0 === i && i < this.W) {
      const v = this.lots[i]!;
      return v === BIG ? this.big.get(i)! : v;
    }
    return this.farLots.get(price) ?? 0;
  }

  /** Sets a level's recorded size; returns the previous one. */
  set(price: number, lots: number): number {
    if (this.consumed.size !== 0) this.unconsume(price);
    return this.put(price, lots);
  }

  /**
   * set() for each [price, lots] pair of a flat list, telling `listener` of each change of a price in
   * [listenLo, listenHi]: the replay's inner loop (a diff's levels), with the window's arrays in locals.
   * Only the levels inside the listened range or the range of consumed prices need more than a store
   * (the previous size, forgetting what was consumed): the fill model listens at the few prices our
   * orders rest at, while a diff's ≈46 levels lie mostly hundreds of ticks away. Telling the listener
   * of every level doubled the cost of a level (52 ns against 25 ns on the 11-minute BTCUSDT diffs).
   */
  setFlat(flat: readonly number[], side: Side, listener: LevelListener | undefined): void {
    if (this.lots === undefined) {
      this.setFlatFirst(flat, side, listener);
      return;
    }
    let lo = Infinity;
    let hi = -Infinity;
    if (this.consumed.size !== 0) {
      lo = this.consumedLo;
      hi = this.consumedHi;
    }
    if (listener !== undefined) {
      if (this.listenLo < lo) lo = this.listenLo;
      if (this.listenHi > hi) hi = this.listenHi;
    }
    this.setFlatWindow(flat, side, listener, lo, hi);
  }

  /**
   * setFlat() with the window in place. A level outside [lo, hi] inside the window with a 32-bit size
   * is a store and an occupancy count; anything else (a price in the range, a size kept aside in `big`,
   * a level outside the window) goes through set(). A recorded book almost always holds a few sizes
   * kept aside (a quantity finer than the step), so their presence must not send every diff elsewhere.
   */
  private setFlatWindow(flat: readonly number[], side: Side, listener: LevelListener | undefined, lo: number, hi: number): void {
    let dl = this.lots!;
    let words = this.words!;
    let blocks = this.blocks!;
    let aside = this.aside!;
    let base = this.base;
    let best = this.denseBest;
    let size = this.size;
    const W = this.W;
    const bid = this.isBid;
    for (let k = 0; k < flat.length; k += 2) {
      const p = flat[k]!;
      const q = flat[k + 1]!;
      const i = p - base;
      if ((p < lo || p > hi) && i >>> 0 === i && i < W && q >>> 0 === q && q !== BIG) {
        const w = i >>> 5;
        const bit = 1 << (i & 31);
        if ((aside[w]! & bit) === 0) {
          // The slot is not read: in a run its line is usually out of cache (a 2 MB window per side,
          // the levels of a diff hundreds of ticks apart), and the store need not wait for it, where a
          // load held the loop up. A slot not kept aside holds lots exactly when its `words` bit is set.
          // (Both builds in one process, 16 alternating blocks of 10 runs: MA cross −7.9 % median, 12
          // blocks of 16 faster; the reference market maker −1.2 %, 10 of 16.)
          dl[i] = q;
          // A recorded diff opens and closes deep levels at random (three in four of its updates
          // flip a level's occupancy): the bitsets and the count are rewritten without branching on
          // that, which the processor could not predict. A conditional expression is still a branch
          // once compiled, so occupancy is arithmetic: (x | −x) >>> 31 is 1 for a non-zero 32-bit x,
          // else 0, and −that is a mask of all ones or none (22–32 → 15–20 ns a level on the
          // 11-minute BTCUSDT diffs, the loop alone).
          const qi = q | 0;
          const occupied = (qi | -qi) >>> 31;
          const m = words[w]!;
          const nm = (m & ~bit) | (bit & -occupied);
          words[w] = nm;
          const sw = w >>> 5;
          const sbit = 1 << (w & 31);
          blocks[sw] = (blocks[sw]! & ~sbit) | (sbit & -((nm | -nm) >>> 31));
          size += occupied - ((m >>> (i & 31)) & 1);
          // Rarely true first, so these branches predict well.
          if ((bid ? i > best : i < best || best < 0) && occupied !== 0) best = i;
          else if (i === best && occupied === 0) best = this.nextWorse(i);
          continue;
        }
      }
      this.denseBest = best;
      this.size = size;
      this.setOne(p, q, side, listener);
      // put() may have moved the window, or kept a size aside.
      dl = this.lots!;
      words = this.words!;
      blocks = this.blocks!;
      aside = this.aside!;
      base = this.base;
      best = this.denseBest;
      size = this.size;
    }
    this.denseBest = best;
    this.size = size;
  }

  /** setFlat() before the side has a window (its first levels): set() level by level. */
  private setFlatFirst(flat: readonly number[], side: Side, listener: LevelListener | undefined): void {
    for (let k = 0; k < flat.length; k += 2) this.setOne(flat[k]!, flat[k + 1]!, side, listener);
  }

  /** set() of one level, telling `listener` of a change at a price it listens to. */
  private setOne(p: number, q: number, side: Side, listener: LevelListener | undefined): void {
    const prev = this.set(p, q);
    if (prev !== q && listener !== undefined && p >= this.listenLo && p <= this.listenHi) listener(side, p, prev, Math.max(0, q));
  }

  /** Marks window index i occupied (its lots already written). */
  private occupy(i: number): void {
    const w = i >>> 5;
    const m = this.words![w]!;
    if (m === 0) this.blocks![w >>> 5]! |= 1 << (w & 31);
    this.words![w] = m | (1 << (i & 31));
    this.size++;
    const best = this.denseBest;
    if (best < 0 || (this.isBid ? i > best : i < best)) this.denseBest = i;
  }

  /** Marks window index i empty (its lots already zeroed). */
  private vacate(i: number): void {
    const w = i >>> 5;
    const m = this.words![w]! & ~(1 << (i & 31));
    this.words![w] = m;
    if (m === 0) this.blocks![w >>> 5]! &= ~(1 << (w & 31));
    this.size--;
    if (i === this.denseBest) this.denseBest = this.nextWorse(i);
  }

  private put(price: number, lots: number): number {
    if (this.lots === undefined) {
      if (lots <= 0) return 0;
      this.allocate(price);
    }
    const i = price - this.base;
    if (i >>> 0 === i && i < this.W) return this.putDense(i, lots);
    return this.putFar(price, lots);
  }

  private putDense(i: number, lots: number): number {
    const dl = this.lots!;
    const raw = dl[i]!;
    let prev = raw;
    if (raw === BIG) {
      prev = this.big.get(i)!;
      this.big.delete(i);
      this.aside![i >>> 5]! &= ~(1 << (i & 31));
    }
    if (lots <= 0) {
      if (raw === 0) return 0;
      dl[i] = 0;
      this.vacate(i);
      return prev;
    }
    if (lots >>> 0 === lots && lots !== BIG) dl[i] = lots;
    else {
      dl[i] = BIG;
      this.big.set(i, lots);
      this.aside![i >>> 5]! |= 1 << (i & 31);
    }
    if (raw === 0) this.occupy(i);
    return prev;
  }

  private putFar(price: number, lots: number): number {
    if (++this.misses >= this.missesPerCheck) {
      this.misses = 0;
      // A window left behind by the market is moved first, so this level may land in it.
      if (this.recentreIfNeeded()) return this.put(price, lots);
    }
    const prev = this.farLots.get(price);
    if (lots <= 0) {
      if (prev === undefined) return 0;
      this.farLots.delete(price);
      this.far.remove(price);
      this.size--;
      return prev;
    }
    this.farLots.set(price, lots);
    if (prev === undefined) {
      this.far.insert(price);
      this.size++;
      return 0;
    }
    return prev;
  }

  private allocate(center: number): void {
    const w = takeWindow(this.W);
    this.lots = w.lots;
    this.words = w.words;
    this.blocks = w.blocks;
    this.aside = w.aside;
    this.base = this.baseFor(center);
  }

  /** Empties the side and gives its window arrays back for another book (ReplayBook.release). */
  release(): void {
    this.clear();
    if (this.lots !== undefined) giveWindow({ lots: this.lots, words: this.words!, blocks: this.blocks!, aside: this.aside! });
    this.lots = undefined;
    this.words = undefined;
    this.blocks = undefined;
    this.aside = undefined;
  }

  /** Bids: the touch three quarters up the window (room for the market to rise); asks: a quarter up. */
  private baseFor(best: number): number {
    return this.isBid ? best - ((3 * this.W) >>> 2) : best - (this.W >>> 2);
  }

  /** Moves the window to the best level when it has left the window's middle part; true when moved. */
  recentreIfNeeded(): boolean {
    if (this.lots === undefined) return false;
    const best = this.best();
    if (best === undefined) return false;
    const i = best - this.base;
    const ok = this.isBid ? i >= this.W >>> 1 && i < this.W - (this.W >>> 4) : i >= this.W >>> 4 && i < this.W >>> 1;
    if (ok) return false;
    const levels: number[] = [];
    this.walk((p) => {
      levels.push(p, this.get(p));
      return true;
    });
    this.clearWindow();
    this.far.clear();
    this.farLots.clear();
    this.size = 0;
    this.base = this.baseFor(best);
    this.misses = 0;
    for (let k = 0; k < levels.length; k += 2) {
      const p = levels[k]!;
      const q = levels[k + 1]!;
      const j = p - this.base;
      if (j >>> 0 === j && j < this.W) this.putDense(j, q);
      else {
        this.farLots.set(p, q);
        this.far.insert(p);
        this.size++;
      }
    }
    return true;
  }

  /** The next occupied index worse than `i` in the window, −1 when none. */
  private nextWorse(i: number): number {
    return this.isBid ? this.highestBelow(i) : this.lowestAbove(i);
  }

  /** Highest occupied index < i, −1 when none (bit scans: a word of 32 ticks, then the block bitset). */
  private highestBelow(i: number): number {
    const j = i - 1;
    if (j < 0) return -1;
    const words = this.words!;
    let w = j >>> 5;
    const m = words[w]! & (0xffffffff >>> (31 - (j & 31)));
    if (m !== 0) return (w << 5) + 31 - Math.clz32(m);
    const sw = w - 1;
    if (sw < 0) return -1;
    const blocks = this.blocks!;
    let s = sw >>> 5;
    let sm = blocks[s]! & (0xffffffff >>> (31 - (sw & 31)));
    while (sm === 0) {
      if (--s < 0) return -1;
      sm = blocks[s]!;
    }
    w = (s << 5) + 31 - Math.clz32(sm);
    return (w << 5) + 31 - Math.clz32(words[w]!);
  }

  /** Lowest occupied index > i, −1 when none. */
  private lowestAbove(i: number): number {
    const j = i + 1;
    if (j >= this.W) return -1;
    const words = this.words!;
    let w = j >>> 5;
    const m = words[w]! & (-1 << (j & 31));
    if (m !== 0) return (w << 5) + lowestBit(m);
    const sw = w + 1;
    if (sw >= this.NW) return -1;
    const blocks = this.blocks!;
    let s = sw >>> 5;
    let sm = blocks[s]! & (-1 << (sw & 31));
    while (sm === 0) {
      if (++s >= this.NS) return -1;
      sm = blocks[s]!;
    }
    w = (s << 5) + lowestBit(sm);
    return (w << 5) + lowestBit(words[w]!);
  }

  /**
   * Levels in the window. The walks over it stop at the last one instead of asking nextWorse() for
   * one more: that last search finds nothing only after scanning the block bitset to the window's end
   * (hundreds of words), which on a synthetic intra-bar book of ten levels, laid at every path point,
   * cost more than the levels themselves.
   */
  private denseSize(): number {
    return this.size - this.far.size;
  }

  /** Whether a far level is better than every price the window can hold. */
  private aboveWindow(price: number): boolean {
    return this.isBid ? price >= this.base + this.W : price < this.base;
  }

  best(): number | undefined {
    const d = this.denseBest;
    const far = this.far.size === 0 ? undefined : this.far.best();
    if (d < 0) return far;
    const dense = this.base + d;
    if (far === undefined) return dense;
    return this.isBid ? (far > dense ? far : dense) : far < dense ? far : dense;
  }

  /** Prices from the best, for as long as `visit` returns true. */
  walk(visit: (price: number) => boolean): void {
    const far = this.far.size === 0 ? undefined : this.far;
    // Far levels better than the window (only while the window lags the market), then the window,
    // then the far levels behind it.
    let stopped = false;
    if (far) {
      far.walk((p) => {
        if (!this.aboveWindow(p)) return false;
        if (visit(p)) return true;
        stopped = true;
        return false;
      });
      if (stopped) return;
    }
    if (this.lots !== undefined) {
      let left = this.denseSize();
      for (let i = this.denseBest; i >= 0; i = --left > 0 ? this.nextWorse(i) : -1) if (!visit(this.base + i)) return;
    }
    if (far) far.walk((p) => this.aboveWindow(p) || visit(p));
  }

  /**
   * Up to `n` visible levels from the best into `prices` / `lots`; returns how many. The snapshot of
   * every poll: a plain loop over the window (walk() takes a callback per level).
   */
  fillTop(n: number, prices: number[], lots: number[]): number {
    if (n <= 0) return 0;
    const far = this.far.size === 0 ? undefined : this.far;
    if (far !== undefined && this.aboveWindow(far.best()!)) return this.fillTopWalking(n, prices, lots);
    const consumed = this.consumed.size !== 0;
    let k = 0;
    const dl = this.lots;
    if (dl !== undefined) {
      const base = this.base;
      let left = this.denseSize();
      for (let i = this.denseBest; i >= 0 && k < n; i = --left > 0 ? this.nextWorse(i) : -1) {
        const raw = dl[i]!;
        let v = raw === BIG ? this.big.get(i)! : raw;
        if (consumed) {
          const c = this.consumed.get(base + i);
          if (c !== undefined) v = Math.max(0, v - c);
        }
        if (v > 0) {
          prices[k] = base + i;
          lots[k] = v;
          k++;
        }
      }
    }
    if (k < n && far !== undefined) {
      // Fewer than n levels in the window: the far ones behind it follow.
      far.walk((p) => {
        const v = this.visible(p);
        if (v > 0) {
          prices[k] = p;
          lots[k] = v;
          k++;
        }
        return k < n;
      });
    }
    return k;
  }

  private fillTopWalking(n: number, prices: number[], lots: number[]): number {
    let k = 0;
    this.walk((p) => {
      const v = this.visible(p);
      if (v > 0) {
        prices[k] = p;
        lots[k] = v;
        k++;
      }
      return k < n;
    });
    return k;
  }

  /** The k-th price from the best (0 = best). */
  at(k: number): number | undefined {
    if (k < 0 || k >= this.size) return undefined;
    let found: number | undefined;
    let n = k;
    this.walk((p) => {
      if (n-- > 0) return true;
      found = p;
      return false;
    });
    return found;
  }

  all(): number[] {
    const out: number[] = [];
    this.walk((p) => {
      out.push(p);
      return true;
    });
    return out;
  }

  /** Levels as a Map price → lots (the snapshot diff in ReplayBook.replace). */
  entries(): Map<number, number> {
    const out = new Map<number, number>();
    this.walk((p) => {
      out.set(p, this.get(p));
      return true;
    });
    return out;
  }

  visible(price: number): number {
    const l = this.get(price);
    if (l === 0) return 0;
    const c = this.consumed.size === 0 ? undefined : this.consumed.get(price);
    return c === undefined ? l : Math.max(0, l - c);
  }
}

export class ReplayBook {
  private readonly bids: BookSide;
  private readonly asks: BookSide;
  /** Recorded lastUpdateId / version of the last depth record applied. */
  updateId: number | undefined;
  /** Exchange time of the last depth change, ms. */
  updateTime: number | undefined;
  #onLevel: LevelListener | undefined;
  /**
   * A synthetic book given but not laid yet (replaceFlatLater): laid at the first read or change of
   * the book, so a path point nobody reads the book at costs nothing (issue 13). The writer, its
   * argument and the two lists are kept as they are: a closure over them, and the caller's closure
   * over its point, were four objects per path point (applyPath allocated ~1,000 B a bar of the
   * 50.8-day kline run with them, 6 B without).
   */
  #later: ((arg: never, bids: number[], asks: number[]) => void) | undefined;
  #laterArg: unknown;
  #laterBids: number[] = [];
  #laterAsks: number[] = [];

  /**
   * Hears the level changes at the prices it listens to (listenRange: every price until narrowed); a
   * fill model's queues. Set while a synthetic book waits, that book is laid first.
   */
  get onLevel(): LevelListener | undefined {
    return this.#onLevel;
  }

  set onLevel(l: LevelListener | undefined) {
    this.settle();
    this.#onLevel = l;
  }

  constructor(opts: ReplayBookOptions = {}) {
    const bits = opts.windowBits ?? WINDOW_BITS;
    if (!Number.isInteger(bits) || bits < 10 || bits > 24) throw new RangeError(`windowBits must be a whole number in 10..24, got ${bits}`);
    const misses = opts.missesPerCheck ?? MISSES_PER_CHECK;
    this.bids = new BookSide(true, bits, misses);
    this.asks = new BookSide(false, bits, misses);
  }

  /**
   * The level listener hears only changes of prices in [loTicks, hiTicks] on `side` from now on (an
   * empty range when lo > hi); what it does not hear changes the book as before.
   */
  listenRange(side: Side, loTicks: number, hiTicks: number): void {
    const s = side === 'buy' ? this.bids : this.asks;
    s.listenLo = loTicks;
    s.listenHi = hiTicks;
  }

  private side(s: Side): BookSide {
    this.settle();
    return s === 'buy' ? this.bids : this.asks;
  }

  /** Lays the synthetic book that waits, if any (every read and change of the book comes here first). */
  private settle(): void {
    const lay = this.#later as ((arg: unknown, bids: number[], asks: number[]) => void) | undefined;
    if (lay === undefined) return;
    const arg = this.#laterArg;
    this.#later = undefined;
    this.#laterArg = undefined;
    lay(arg, this.#laterBids, this.#laterAsks);
    this.replaceFlat(this.#laterBids, this.#laterAsks);
  }

  /**
   * replaceFlat() of the lists `lay(arg, bids, asks)` writes, done at the first read or change of the
   * book (or at once when a listener hears level changes). A later call replaces a waiting book:
   * replaceFlat replaces the whole book, so the one never read would have left no trace.
   */
  replaceFlatLater<T>(lay: (arg: T, bids: number[], asks: number[]) => void, arg: T, bids: number[], asks: number[]): void {
    if (this.#onLevel) {
      lay(arg, bids, asks);
      this.replaceFlat(bids, asks);
      return;
    }
    this.#later = lay as (arg: never, bids: number[], asks: number[]) => void;
    this.#laterArg = arg;
    this.#laterBids = bids;
    this.#laterAsks = asks;
  }

  /** Replaces the whole book (a depth snapshot). */
  replace(bids: Iterable<readonly [number, number]>, asks: Iterable<readonly [number, number]>): void {
    this.settle();
    const listener = this.#onLevel;
    const old = listener ? { b: this.bids.entries(), a: this.asks.entries() } : undefined;
    this.bids.clear();
    this.asks.clear();
    const seenB = listener ? new Map<number, number>() : undefined;
    const seenA = listener ? new Map<number, number>() : undefined;
    for (const [p, q] of bids) {
      this.bids.set(p, q);
      seenB?.set(p, q);
    }
    for (const [p, q] of asks) {
      this.asks.set(p, q);
      seenA?.set(p, q);
    }
    this.bids.recentreIfNeeded();
    this.asks.recentreIfNeeded();
    if (!listener || !old) return;
    for (const [s, before, side, given] of [['buy', old.b, this.bids, seenB!] as const, ['sell', old.a, this.asks, seenA!] as const]) {
      const lo = side.listenLo;
      const hi = side.listenHi;
      for (const [p, q] of before) {
        const now = side.get(p);
        if (now !== q && p >= lo && p <= hi) listener(s, p, q, now);
      }
      // In the order the snapshot gave them; a price given twice is reported once.
      for (const p of given.keys()) {
        if (before.has(p) || p < lo || p > hi) continue;
        const now = side.get(p);
        if (now > 0) listener(s, p, 0, now);
      }
    }
  }

  /**
   * replace() from flat lists [price, lots, price, lots, …] (an intra-bar path point's synthetic book,
   * replaced at every point): the same book and the same level changes, without a pair per level.
   */
  replaceFlat(bids: readonly number[], asks: readonly number[]): void {
    this.settle();
    if (this.#onLevel) {
      this.replace(pairsOf(bids), pairsOf(asks));
      return;
    }
    this.bids.clear();
    this.asks.clear();
    this.bids.setFlat(bids, 'buy', undefined);
    this.asks.setFlat(asks, 'sell', undefined);
    this.bids.recentreIfNeeded();
    this.asks.recentreIfNeeded();
  }

  /** Sets one level's recorded size (0 removes it). */
  setLevel(side: Side, priceTicks: number, lots: number): void {
    const s = this.side(side);
    const prev = s.set(priceTicks, lots);
    if (prev !== lots && this.#onLevel && priceTicks >= s.listenLo && priceTicks <= s.listenHi)
      this.#onLevel(side, priceTicks, prev, Math.max(0, lots));
  }

  /** setLevel for a flat list [price, lots, price, lots, …] (a compiled depth diff). */
  setLevels(side: Side, flat: readonly number[]): void {
    this.side(side).setFlat(flat, side, this.#onLevel);
  }

  /** A top-of-book-only source (bookTicker): the book becomes those two levels. */
  setTop(bidTicks: number, bidLots: number, askTicks: number, askLots: number): void {
    this.settle();
    this.setOnly(this.bids, 'buy', bidTicks, bidLots);
    this.setOnly(this.asks, 'sell', askTicks, askLots);
  }

  private setOnly(side: BookSide, s: Side, price: number, lots: number): void {
    for (const p of side.all()) if (p !== price) this.setLevel(s, p, 0);
    this.setLevel(s, price, lots);
  }

  /** Records that our taker order took `lots` at a level. */
  consume(side: Side, priceTicks: number, lots: number): void {
    const s = this.side(side);
    if (s.get(priceTicks) <= 0 || lots <= 0) return;
    s.consume(priceTicks, lots);
  }

  bestBid(): number | undefined {
    this.settle();
    return this.bids.best();
  }

  bestAsk(): number | undefined {
    this.settle();
    return this.asks.best();
  }

  /** Best price of a side ignoring levels our takers emptied. */
  bestVisible(side: Side): number | undefined {
    const s = this.side(side);
    const best = s.best();
    if (best === undefined || s.consumed.size === 0 || s.visible(best) > 0) return best;
    let found: number | undefined;
    s.walk((p) => {
      if (s.visible(p) > 0) {
        found = p;
        return false;
      }
      return true;
    });
    return found;
  }

  /** Recorded size of a level (0 when absent). */
  recordedLots(side: Side, priceTicks: number): number {
    return this.side(side).get(priceTicks);
  }

  /** Recorded size minus what our takers took from it. */
  visibleLots(side: Side, priceTicks: number): number {
    return this.side(side).visible(priceTicks);
  }

  /** Price of the k-th recorded level from the best (0 = best). */
  levelPrice(side: Side, k: number): number | undefined {
    return this.side(side).at(k);
  }

  levelCount(side: Side): number {
    return this.side(side).size;
  }

  /**
   * Empties the book and gives its memory back for the next book (a replay's end). The book stays
   * usable (it starts again from nothing), but a run that is over has no reason to touch it.
   */
  release(): void {
    this.settle();
    this.bids.release();
    this.asks.release();
    this.updateId = undefined;
    this.updateTime = undefined;
  }

  /** Recorded prices of a side from the best, for as long as `visit` returns true. */
  walkLevels(side: Side, visit: (priceTicks: number) => boolean): void {
    this.side(side).walk(visit);
  }

  isCrossed(): boolean {
    this.settle();
    const b = this.bids.best();
    const a = this.asks.best();
    return b !== undefined && a !== undefined && b >= a;
  }

  /**
   * top() into two arrays the caller keeps (no pair per level): writes up to `n` visible levels, best
   * first, and returns how many.
   */
  visibleTop(side: Side, n: number, prices: number[], lots: number[]): number {
    return this.side(side).fillTop(n, prices, lots);
  }

  /** Up to `n` visible levels [priceTicks, lots], best first (levels our takers emptied are skipped). */
  top(side: Side, n: number): [number, number][] {
    const s = this.side(side);
    const out: [number, number][] = [];
    if (n <= 0) return out;
    s.walk((p) => {
      const v = s.visible(p);
      if (v > 0) out.push([p, v]);
      return out.length < n;
    });
    return out;
  }
}
