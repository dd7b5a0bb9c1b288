import { expect } from 'chai';
import fc from 'fast-check';
import { ReplayBook, type Side } from '../../src/backtest/replay-book.js';

/** The obvious model: a map per side, sorted on demand. */
class NaiveBook {
  readonly sides = { buy: new Map<number, number>(), sell: new Map<number, number>() };
  set(side: Side, p: number, q: number): void {
    if (q <= 0) this.sides[side].delete(p);
    else this.sides[side].set(p, q);
  }
  top(side: Side, n: number): [number, number][] {
    return [...this.sides[side].entries()].sort((a, b) => (side === 'buy' ? b[0] - a[0] : a[0] - b[0])).slice(0, n);
  }
}

/** The model's levels of `side` with what our takers took subtracted, best first, empty ones left out. */
function visibleLevels(naive: NaiveBook, taken: ReadonlyMap<number, number>, side: Side): [number, number][] {
  return naive
    .top(side, 100_000)
    .map(([p, l]): [number, number] => [p, Math.max(0, l - (taken.get(p) ?? 0))])
    .filter(([, v]) => v > 0);
}

describe('replay book', () => {
  it('keeps_the_same_levels_in_the_same_order_as_a_sorted_map', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 600 }), fc.integer({ min: 0, max: 3 })), { maxLength: 2000 }),
        (ops) => {
          const book = new ReplayBook();
          const naive = new NaiveBook();
          for (const [bid, p, q] of ops) {
            const side: Side = bid ? 'buy' : 'sell';
            book.setLevel(side, p, q);
            naive.set(side, p, q);
          }
          for (const side of ['buy', 'sell'] as const) {
            expect(book.top(side, 1000)).to.deep.equal(naive.top(side, 1000));
            expect(book.levelCount(side)).to.equal(naive.sides[side].size);
            const all = naive.top(side, 1000);
            for (let k = 0; k < all.length; k += 37) expect(book.levelPrice(side, k)).to.equal(all[k]![0]);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('keeps_the_sorted_map_order_for_levels_far_apart_and_a_touch_that_travels', () => {
    // Prices spread over ±2 000 000 ticks around a touch that walks by up to 300 000 ticks: levels land
    // both inside and outside the book's dense window, and the window has to follow the market. The
    // small window (1024 ticks, checked every 4 misses) makes it move many times per run.
    fc.assert(
      fc.property(
        fc.constantFrom({}, { windowBits: 10, missesPerCheck: 4 }),
        fc.array(
          fc.tuple(
            fc.boolean(),
            fc.integer({ min: -300_000, max: 300_000 }),
            fc.integer({ min: -2_000_000, max: 2_000_000 }),
            fc.boolean(),
            fc.integer({ min: 0, max: 3 }),
          ),
          { minLength: 200, maxLength: 3000, size: 'max' },
        ),
        (opts, ops) => {
          const book = new ReplayBook(opts);
          const naive = new NaiveBook();
          let touch = 5_000_000;
          for (const [bid, move, offset, near, q] of ops) {
            touch += move >> 6;
            const side: Side = bid ? 'buy' : 'sell';
            // Half the updates near the touch, half anywhere on the side.
            const distance = near ? Math.abs(offset) % 64 : Math.abs(offset);
            const p = bid ? touch - distance : touch + 1 + distance;
            book.setLevel(side, p, q);
            naive.set(side, p, q);
          }
          for (const side of ['buy', 'sell'] as const) {
            const all = naive.top(side, 100_000);
            expect(book.top(side, 100_000)).to.deep.equal(all);
            expect(book.levelCount(side)).to.equal(all.length);
            expect(side === 'buy' ? book.bestBid() : book.bestAsk()).to.equal(all[0]?.[0]);
            for (let k = 0; k < all.length; k += 41) expect(book.levelPrice(side, k)).to.equal(all[k]![0]);
            for (const [p, q] of all.slice(0, 50)) expect(book.recordedLots(side, p)).to.equal(q);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('replaces_the_whole_book_from_flat_lists_as_a_sorted_map_would', () => {
    // Whole-book replacements (replaceFlat: an intra-bar path point's synthetic book, a compiled depth
    // snapshot) between single-level updates, near a touch that travels and far from it: after each
    // replacement the book must hold exactly the given levels (nothing left of the old ones, in the
    // window's bitsets either), and later updates must land on that book. Checked against the naive
    // map, which is cleared and refilled.
    fc.assert(
      fc.property(
        fc.constantFrom({}, { windowBits: 10, missesPerCheck: 4 }),
        fc.array(
          fc.oneof(
            fc.record({
              kind: fc.constant('replace' as const),
              move: fc.integer({ min: -200_000, max: 200_000 }),
              bids: fc.array(fc.tuple(fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 0, max: 4 })), { maxLength: 40 }),
              asks: fc.array(fc.tuple(fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 0, max: 4 })), { maxLength: 40 }),
            }),
            fc.record({
              kind: fc.constant('set' as const),
              bid: fc.boolean(),
              distance: fc.integer({ min: 0, max: 3_000_000 }),
              q: fc.integer({ min: 0, max: 3 }),
            }),
          ),
          { minLength: 1, maxLength: 300 },
        ),
        (opts, ops) => {
          const book = new ReplayBook(opts);
          const naive = new NaiveBook();
          let touch = 5_000_000;
          const check = (): void => {
            for (const side of ['buy', 'sell'] as const) {
              const all = naive.top(side, 100_000);
              expect(book.top(side, 100_000)).to.deep.equal(all);
              expect(book.levelCount(side)).to.equal(all.length);
              expect(side === 'buy' ? book.bestBid() : book.bestAsk()).to.equal(all[0]?.[0]);
            }
          };
          for (const op of ops) {
            if (op.kind === 'set') {
              const side: Side = op.bid ? 'buy' : 'sell';
              const p = op.bid ? touch - (op.distance % 2 === 0 ? op.distance % 64 : op.distance) : touch + 1 + op.distance;
              book.setLevel(side, p, op.q);
              naive.set(side, p, op.q);
              continue;
            }
            touch += op.move;
            const bids = op.bids.flatMap(([d, q]) => [touch - d, q]);
            const asks = op.asks.flatMap(([d, q]) => [touch + 1 + d, q]);
            book.replaceFlat(bids, asks);
            naive.sides.buy.clear();
            naive.sides.sell.clear();
            for (let k = 0; k < bids.length; k += 2) naive.set('buy', bids[k]!, bids[k + 1]!);
            for (let k = 0; k < asks.length; k += 2) naive.set('sell', asks[k]!, asks[k + 1]!);
            check();
          }
          check();
        },
      ),
      { numRuns: 60 },
    );
  });

  it('lays_a_synthetic_book_given_for_later_as_if_given_at_once', () => {
    // replaceFlatLater (issue 13: a path point's synthetic book is laid when something reads the book)
    // against replaceFlat at once on a twin book, through random replacements, level changes, takes,
    // reads of every kind and a level listener switched on and off: every read and every level change
    // the listener hears must be the same on both, at the same step.
    type Op =
      | { kind: 'later'; bids: [number, number][]; asks: [number, number][] }
      | { kind: 'set'; bid: boolean; d: number; q: number }
      | { kind: 'consume'; bid: boolean; d: number; q: number }
      | { kind: 'listen'; on: boolean }
      | { kind: 'read'; what: number; bid: boolean; d: number };
    const lvls = fc.array(fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 4 })), { maxLength: 12 });
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant('later' as const), bids: lvls, asks: lvls }),
      fc.record({
        kind: fc.constant('set' as const),
        bid: fc.boolean(),
        d: fc.integer({ min: 0, max: 30 }),
        q: fc.integer({ min: 0, max: 4 }),
      }),
      fc.record({
        kind: fc.constant('consume' as const),
        bid: fc.boolean(),
        d: fc.integer({ min: 0, max: 30 }),
        q: fc.integer({ min: 1, max: 4 }),
      }),
      fc.record({ kind: fc.constant('listen' as const), on: fc.boolean() }),
      fc.record({
        kind: fc.constant('read' as const),
        what: fc.integer({ min: 0, max: 8 }),
        bid: fc.boolean(),
        d: fc.integer({ min: 0, max: 30 }),
      }),
    );
    const touch = 1_000;
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 200 }), (ops) => {
        const lazy = new ReplayBook();
        const eager = new ReplayBook();
        const heard: { lazy: unknown[]; eager: unknown[] } = { lazy: [], eager: [] };
        const scratch: [number[], number[]] = [[], []];
        const read = (b: ReplayBook, what: number, side: Side, p: number): unknown => {
          switch (what) {
            case 0:
              return b.top(side, 100);
            case 1:
              return b.bestVisible(side);
            case 2:
              return [b.bestBid(), b.bestAsk(), b.isCrossed()];
            case 3:
              return [b.visibleLots(side, p), b.recordedLots(side, p)];
            case 4:
              return [b.levelPrice(side, 1), b.levelCount(side)];
            case 5: {
              const prices: number[] = [];
              const lots: number[] = [];
              const n = b.visibleTop(side, 5, prices, lots);
              return [n, prices.slice(0, n), lots.slice(0, n)];
            }
            case 6: {
              const seen: number[] = [];
              b.walkLevels(side, (x) => seen.push(x) < 4);
              return seen;
            }
            default:
              return b.top(side === 'buy' ? 'sell' : 'buy', 3);
          }
        };
        for (const o of ops) {
          const side: Side = 'bid' in o && o.bid ? 'buy' : 'sell';
          const price = 'd' in o ? (side === 'buy' ? touch - o.d : touch + 1 + o.d) : 0;
          if (o.kind === 'later') {
            const bids = o.bids.flatMap(([d, q]) => [touch - d, q]);
            const asks = o.asks.flatMap(([d, q]) => [touch + 1 + d, q]);
            eager.replaceFlat(bids, asks);
            lazy.replaceFlatLater(
              (_: undefined, b, a) => {
                b.length = 0;
                a.length = 0;
                b.push(...bids);
                a.push(...asks);
              },
              undefined,
              scratch[0],
              scratch[1],
            );
          } else if (o.kind === 'set') {
            eager.setLevel(side, price, o.q);
            lazy.setLevel(side, price, o.q);
          } else if (o.kind === 'consume') {
            eager.consume(side, price, o.q);
            lazy.consume(side, price, o.q);
          } else if (o.kind === 'listen') {
            eager.onLevel = o.on ? (...x) => heard.eager.push(x) : undefined;
            lazy.onLevel = o.on ? (...x) => heard.lazy.push(x) : undefined;
          } else expect(read(lazy, o.what, side, price)).to.deep.equal(read(eager, o.what, side, price));
          expect(heard.lazy).to.deep.equal(heard.eager);
        }
        for (const side of ['buy', 'sell'] as const) expect(lazy.top(side, 100)).to.deep.equal(eager.top(side, 100));
      }),
      { numRuns: 100 },
    );
  });

  it('tells_its_listener_exactly_the_changes_inside_the_range_it_listens_to', () => {
    // listenRange (the fill model listens only where our orders rest) through diffs (setLevels: levels
    // near and far, sizes beyond 32 bits), single levels, takes, snapshots and range changes, with
    // small windows too, against the naive map: after every step the book holds the model's levels
    // minus what was taken, and the listener heard exactly the model's changes at prices inside the
    // range at that step (old and new size, in order).
    type Op =
      | { kind: 'diff'; bid: boolean; levels: [number, number][] }
      | { kind: 'set'; bid: boolean; d: number; q: number }
      | { kind: 'consume'; bid: boolean; d: number; q: number }
      | { kind: 'snapshot'; bids: [number, number][]; asks: [number, number][] }
      | { kind: 'range'; bid: boolean; lo: number; width: number };
    const size = fc.oneof(fc.integer({ min: 0, max: 4 }), fc.constant(5_000_000_000));
    const distance = fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 3_000 }));
    const levels = fc.array(fc.tuple(distance, size), { maxLength: 30 });
    const op: fc.Arbitrary<Op> = fc.oneof(
      { arbitrary: fc.record({ kind: fc.constant('diff' as const), bid: fc.boolean(), levels }), weight: 4 },
      fc.record({ kind: fc.constant('set' as const), bid: fc.boolean(), d: distance, q: fc.integer({ min: 0, max: 4 }) }),
      {
        arbitrary: fc.record({
          kind: fc.constant('consume' as const),
          bid: fc.boolean(),
          d: fc.integer({ min: 0, max: 40 }),
          q: fc.integer({ min: 1, max: 4 }),
        }),
        weight: 2,
      },
      fc.record({ kind: fc.constant('snapshot' as const), bids: levels, asks: levels }),
      {
        arbitrary: fc.record({
          kind: fc.constant('range' as const),
          bid: fc.boolean(),
          lo: fc.integer({ min: -5, max: 45 }),
          width: fc.integer({ min: -2, max: 10 }),
        }),
        weight: 2,
      },
    );
    const touch = 1_000_000;
    const priceOf = (bid: boolean, d: number): number => (bid ? touch - d : touch + 1 + d);
    fc.assert(
      fc.property(
        fc.constantFrom({}, { windowBits: 10, missesPerCheck: 4 }),
        fc.array(op, { minLength: 1, maxLength: 150 }),
        (opts, ops) => {
          const book = new ReplayBook(opts);
          const naive = new NaiveBook();
          const taken = { buy: new Map<number, number>(), sell: new Map<number, number>() };
          const heard: [Side, number, number, number][] = [];
          const expected: [Side, number, number, number][] = [];
          book.onLevel = (...x) => heard.push(x);
          const range = { buy: [-Infinity, Infinity], sell: [-Infinity, Infinity] };
          const inRange = (side: Side, p: number): boolean => p >= range[side][0]! && p <= range[side][1]!;
          const set = (side: Side, p: number, q: number): void => {
            const prev = naive.sides[side].get(p) ?? 0;
            if (prev !== q && inRange(side, p)) expected.push([side, p, prev, Math.max(0, q)]);
            naive.set(side, p, q);
            taken[side].delete(p);
          };
          for (const o of ops) {
            heard.length = 0;
            expected.length = 0;
            if (o.kind === 'diff') {
              const side: Side = o.bid ? 'buy' : 'sell';
              const flat = o.levels.flatMap(([d, q]) => [priceOf(o.bid, d), q]);
              book.setLevels(side, flat);
              for (let k = 0; k < flat.length; k += 2) set(side, flat[k]!, flat[k + 1]!);
            } else if (o.kind === 'set') {
              const side: Side = o.bid ? 'buy' : 'sell';
              book.setLevel(side, priceOf(o.bid, o.d), o.q);
              set(side, priceOf(o.bid, o.d), o.q);
            } else if (o.kind === 'consume') {
              const side: Side = o.bid ? 'buy' : 'sell';
              const p = priceOf(o.bid, o.d);
              book.consume(side, p, o.q);
              if ((naive.sides[side].get(p) ?? 0) > 0) taken[side].set(p, (taken[side].get(p) ?? 0) + o.q);
            } else if (o.kind === 'snapshot') {
              const given = {
                buy: o.bids.map(([d, q]): [number, number] => [priceOf(true, d), q]),
                sell: o.asks.map(([d, q]): [number, number] => [priceOf(false, d), q]),
              };
              book.replace(given.buy, given.sell);
              for (const side of ['buy', 'sell'] as const) {
                // Old levels from the best whose size changed, then new prices in the order first given.
                const before = new Map(naive.top(side, 100_000));
                naive.sides[side].clear();
                taken[side].clear();
                for (const [p, q] of given[side]) naive.set(side, p, q);
                for (const [p, q] of before) {
                  const now = naive.sides[side].get(p) ?? 0;
                  if (now !== q && inRange(side, p)) expected.push([side, p, q, now]);
                }
                for (const p of new Set(given[side].map(([x]) => x))) {
                  const now = naive.sides[side].get(p) ?? 0;
                  if (!before.has(p) && now > 0 && inRange(side, p)) expected.push([side, p, 0, now]);
                }
              }
            } else {
              const side: Side = o.bid ? 'buy' : 'sell';
              const a = priceOf(o.bid, o.lo);
              const b = priceOf(o.bid, o.lo + o.width);
              range[side] = [Math.min(a, b), o.width < 0 ? Math.min(a, b) - 1 : Math.max(a, b)];
              book.listenRange(side, range[side][0]!, range[side][1]!);
            }
            expect(heard).to.deep.equal(expected);
            for (const side of ['buy', 'sell'] as const) {
              const visible = visibleLevels(naive, taken[side], side);
              expect(book.top(side, 100_000)).to.deep.equal(visible);
              expect(book.levelCount(side)).to.equal(naive.sides[side].size);
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('hides_consumed_lots_in_every_view_until_the_level_is_reported_again', () => {
    // Random sets, takes (consume) at the touch and deep, with small windows: top(), visibleTop(),
    // bestVisible() and visibleLots() against a model that subtracts what was taken until the
    // level is set again.
    fc.assert(
      fc.property(
        fc.constantFrom({}, { windowBits: 10, missesPerCheck: 4 }),
        fc.array(fc.tuple(fc.boolean(), fc.boolean(), fc.integer({ min: 0, max: 3_000 }), fc.integer({ min: 0, max: 4 })), {
          minLength: 100,
          maxLength: 1500,
          size: 'max',
        }),
        (opts, ops) => {
          const book = new ReplayBook(opts);
          const naive = new NaiveBook();
          const taken = { buy: new Map<number, number>(), sell: new Map<number, number>() };
          for (const [bid, take, d, q] of ops) {
            const side: Side = bid ? 'buy' : 'sell';
            // Prices up to 3000 ticks from 1 000 000: beyond the 1024-tick window when small.
            const p = bid ? 1_000_000 - d : 1_000_001 + d;
            if (take) {
              const best = naive.top(side, 1)[0];
              // Half the takes at the best level, half anywhere.
              const at = q % 2 === 0 && best ? best[0] : p;
              if ((naive.sides[side].get(at) ?? 0) > 0 && q > 0) taken[side].set(at, (taken[side].get(at) ?? 0) + q);
              book.consume(side, at, q);
            } else {
              book.setLevel(side, p, q);
              naive.set(side, p, q);
              taken[side].delete(p);
            }
          }
          for (const side of ['buy', 'sell'] as const) {
            const visible = visibleLevels(naive, taken[side], side);
            expect(book.top(side, 100_000)).to.deep.equal(visible);
            const prices: number[] = [];
            const lots: number[] = [];
            const n = book.visibleTop(side, 20, prices, lots);
            expect(prices.slice(0, n).map((p, k) => [p, lots[k]])).to.deep.equal(visible.slice(0, 20));
            expect(book.bestVisible(side)).to.equal(visible[0]?.[0]);
            for (const [p, v] of visible.slice(0, 30)) expect(book.visibleLots(side, p)).to.equal(v);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('starts_empty_on_the_memory_a_released_book_gave_back', () => {
    // A book full of levels (some far, some oversized) is released; books made after it may reuse its
    // window arrays and must start from nothing.
    for (let round = 0; round < 3; round++) {
      const first = new ReplayBook();
      first.replace(
        Array.from({ length: 500 }, (_, k): [number, number] => [6_000_000 - 7 * k, k === 3 ? 5_000_000_000 : k + 1]),
        Array.from({ length: 500 }, (_, k): [number, number] => [6_000_001 + 11 * k, k + 1]),
      );
      first.setLevel('buy', 100, 4); // far below the window
      first.consume('sell', 6_000_001, 1);
      first.release();
      expect(first.levelCount('buy')).to.equal(0);
      const second = new ReplayBook();
      expect(second.top('buy', 5)).to.deep.equal([]);
      second.setLevel('buy', 6_000_000, 2);
      second.setLevel('sell', 6_000_001, 3);
      expect(second.top('buy', 5)).to.deep.equal([[6_000_000, 2]]);
      expect(second.top('sell', 5)).to.deep.equal([[6_000_001, 3]]);
      expect(second.recordedLots('buy', 6_000_000 - 21)).to.equal(0);
      second.release();
    }
  });

  it('moves_its_window_to_a_snapshot_far_from_the_last_one', () => {
    // 10 000 000 ticks apart: the second snapshot lies wholly outside the first one's window.
    const book = new ReplayBook({ windowBits: 10 });
    book.replace(
      [
        [1_000_000, 1],
        [999_990, 2],
      ],
      [[1_000_010, 3]],
    );
    book.replace(
      [
        [11_000_000, 4],
        [10_999_000, 5],
      ],
      [
        [11_000_001, 6],
        [11_500_000, 7],
      ],
    );
    expect(book.top('buy', 5)).to.deep.equal([
      [11_000_000, 4],
      [10_999_000, 5],
    ]);
    expect(book.top('sell', 5)).to.deep.equal([
      [11_000_001, 6],
      [11_500_000, 7],
    ]);
    expect(book.recordedLots('buy', 1_000_000)).to.equal(0);
    book.setLevel('buy', 11_000_000, 0);
    expect(book.bestBid()).to.equal(10_999_000);
  });

  it('counts_levels_of_diffs_with_sizes_that_fill_all_32_bits', () => {
    // setLevels' inner loop tells an occupied level from an empty one by 32-bit arithmetic, not by a
    // comparison: a size with its top bit set (2^31 … 2^32 − 2, stored in the window) is a negative
    // 32-bit integer there, and a price at bit 31 of its word sets that word's sign bit. Diffs of such
    // sizes opening and closing levels, against the naive map: the same levels, count and best.
    const size = fc.constantFrom(0, 0, 1, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 2, 2 ** 32 - 1, 5_000_000_000);
    fc.assert(
      fc.property(
        fc.constantFrom({}, { windowBits: 10, missesPerCheck: 4 }),
        fc.array(fc.tuple(fc.boolean(), fc.array(fc.tuple(fc.integer({ min: 0, max: 100 }), size), { maxLength: 20 })), {
          minLength: 1,
          maxLength: 200,
        }),
        (opts, diffs) => {
          const book = new ReplayBook(opts);
          const naive = new NaiveBook();
          const touch = 1_000_000;
          for (const [bid, levels] of diffs) {
            const side: Side = bid ? 'buy' : 'sell';
            const flat = levels.flatMap(([d, q]) => [bid ? touch - d : touch + 1 + d, q]);
            book.setLevels(side, flat);
            for (let k = 0; k < flat.length; k += 2) naive.set(side, flat[k]!, flat[k + 1]!);
            for (const s of ['buy', 'sell'] as const) {
              const all = naive.top(s, 1000);
              expect(book.levelCount(s)).to.equal(all.length);
              expect(s === 'buy' ? book.bestBid() : book.bestAsk()).to.equal(all[0]?.[0]);
            }
          }
          for (const s of ['buy', 'sell'] as const) expect(book.top(s, 1000)).to.deep.equal(naive.top(s, 1000));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('keeps_sizes_beyond_32_bits_and_fractions_exactly', () => {
    // The window holds sizes as 32-bit integers; anything else is kept aside, exactly.
    const book = new ReplayBook();
    const seen: string[] = [];
    book.onLevel = (side, p, prev, now) => seen.push(`${side} ${p} ${prev}→${now}`);
    book.replace(
      [
        [100, 5_000_000_000],
        [99, 2.5],
      ],
      [[101, 4_294_967_295]],
    );
    book.setLevels('buy', [100, 7, 99, 9_007_199_254_740_991]);
    book.setLevel('sell', 101, 0);
    expect(book.top('buy', 5)).to.deep.equal([
      [100, 7],
      [99, 9_007_199_254_740_991],
    ]);
    expect(book.levelCount('sell')).to.equal(0);
    expect(seen).to.deep.equal([
      'buy 100 0→5000000000',
      'buy 99 0→2.5',
      'sell 101 0→4294967295',
      'buy 100 5000000000→7',
      'buy 99 2.5→9007199254740991',
      'sell 101 4294967295→0',
    ]);
  });

  it('reports_each_level_change_with_its_old_and_new_size', () => {
    const book = new ReplayBook();
    const seen: string[] = [];
    book.onLevel = (side, p, prev, now) => seen.push(`${side} ${p} ${prev}→${now}`);
    book.replace([[100, 5]], [[101, 7]]);
    book.setLevel('buy', 100, 3);
    book.setLevel('buy', 100, 3); // unchanged: not reported
    book.replace([[99, 2]], [[101, 7]]);
    expect(seen).to.deep.equal(['buy 100 0→5', 'sell 101 0→7', 'buy 100 5→3', 'buy 100 3→0', 'buy 99 0→2']);
  });

  it('hides_what_our_takers_consumed_until_the_level_is_reported_again', () => {
    const book = new ReplayBook();
    book.replace(
      [[99, 4]],
      [
        [101, 2],
        [102, 5],
      ],
    );
    book.consume('sell', 101, 2);
    expect(book.bestVisible('sell')).to.equal(102);
    expect(book.top('sell', 2)).to.deep.equal([[102, 5]]);
    book.setLevel('sell', 101, 2);
    expect(book.bestVisible('sell')).to.equal(101);
  });
});
