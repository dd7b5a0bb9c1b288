/**
 * How a backtest decides when and how much of our orders fill against recorded market data. The same
 * data is replayed under several of these so a report can show how much a result depends on them.
 *
 * Maker side (our resting orders):
 *  - `queue: 'front'`    nothing is ahead of us: any recorded trade at our price fills us;
 *  - `queue: 'displayed'` the recorded size at our price when the order reached the book is ahead of
 *                        us; trades at our price eat it first, and a fall of the displayed size that
 *                        trades do not explain (cancellations) is shared between the lots ahead and
 *                        behind us in proportion to their size (hftbacktest's ProbQueueModel, linear);
 *  - `queue: 'back-plus'` the displayed size plus `queueExtraFraction` of it is ahead (hidden and
 *                        later-arriving orders that still beat us), and only trades move us forward:
 *                        cancellations never do (hftbacktest's RiskAdverseQueueModel, plus the extra).
 *  A trade at a price worse than ours (through our level), or the recorded opposite book reaching our
 *  price, fills us whatever the queue: the level we sat in was cleared.
 *
 * Taker side (orders that cross): they walk the recorded book level by level and consume what they
 * take (the consumed lots stay gone until the recording next updates that level). `takerDepthFraction`
 * of each level is available and `adverseTicks` shifts every level against us: liquidity that fades
 * and prices that move away when we come to take them — adverse selection.
 *
 * Latency: a request reaches the venue `orderEntryMs` (place, amend) or `cancelMs` (cancel) after it
 * was sent, and its answer reaches the bot `responseMs` after the venue handled it. Queries (open
 * orders, fills, balances) are answered from the venue's state at once. All deterministic.
 */
import { ConfigError } from '../core/errors.js';

export type QueueModel = 'front' | 'displayed' | 'back-plus';

export interface LatencyModel {
  /** Send → the venue handles a placement or an amend, ms. */
  readonly orderEntryMs: number;
  /** Send → the venue handles a cancel, ms. */
  readonly cancelMs: number;
  /** The venue answered → the answer reaches the bot, ms. */
  readonly responseMs: number;
  /** Each leg of each request takes up to this much longer, drawn from the run's seeded random. Default 0. */
  readonly jitterMs?: number;
}

export interface FillModel {
  /** `optimistic`, `neutral`, `pessimistic` or a custom name. */
  readonly name: string;
  readonly queue: QueueModel;
  /** back-plus only: extra lots ahead, as a fraction of the displayed size (0.5 = half as much again). */
  readonly queueExtraFraction: number;
  readonly latency: LatencyModel;
  /** Fraction (0, 1] of each recorded level a taker order of ours may take. */
  readonly takerDepthFraction: number;
  /** Ticks every recorded level is moved against our taker orders (adverse selection). */
  readonly adverseTicks: number;
  /**
   * A trade through our price fills the whole order (true), or at most the trade's size (false: the
   * taker that went through our level had at least that much to trade, nothing more is known).
   */
  readonly tradeThroughFillsAll: boolean;
}

export const STANDARD_FILL_MODEL_NAMES = ['optimistic', 'neutral', 'pessimistic'] as const;
export type StandardFillModelName = (typeof STANDARD_FILL_MODEL_NAMES)[number];

export const FILL_MODEL_PRESETS: Readonly<Record<StandardFillModelName, FillModel>> = Object.freeze({
  optimistic: Object.freeze({
    name: 'optimistic',
    queue: 'front',
    queueExtraFraction: 0,
    latency: Object.freeze({ orderEntryMs: 0, cancelMs: 0, responseMs: 0 }),
    takerDepthFraction: 1,
    adverseTicks: 0,
    tradeThroughFillsAll: true,
  }),
  neutral: Object.freeze({
    name: 'neutral',
    queue: 'displayed',
    queueExtraFraction: 0,
    // A REST round trip to a venue in the same region: ~25 ms each way.
    latency: Object.freeze({ orderEntryMs: 25, cancelMs: 25, responseMs: 25 }),
    takerDepthFraction: 1,
    adverseTicks: 0,
    tradeThroughFillsAll: false,
  }),
  pessimistic: Object.freeze({
    name: 'pessimistic',
    queue: 'back-plus',
    queueExtraFraction: 0.5,
    latency: Object.freeze({ orderEntryMs: 100, cancelMs: 100, responseMs: 100 }),
    takerDepthFraction: 0.5,
    adverseTicks: 1,
    tradeThroughFillsAll: false,
  }),
});

/** Overrides a config may give on top of a preset. */
export interface FillModelOverrides {
  readonly queue?: QueueModel;
  readonly queueExtraFraction?: number;
  readonly latency?: Partial<LatencyModel>;
  readonly takerDepthFraction?: number;
  readonly adverseTicks?: number;
  readonly tradeThroughFillsAll?: boolean;
}

export const isStandardFillModel = (name: string): name is StandardFillModelName =>
  (STANDARD_FILL_MODEL_NAMES as readonly string[]).includes(name);

/** A preset with overrides applied and checked; `name` of a custom model defaults to `<base>+custom`. */
export function resolveFillModel(
  base: StandardFillModelName,
  overrides: FillModelOverrides = {},
  name?: string,
  path = 'backtest.fillModel',
): FillModel {
  const p = FILL_MODEL_PRESETS[base];
  if (!p) throw new ConfigError(`${path}.base`, `expected one of ${STANDARD_FILL_MODEL_NAMES.join(', ')}, got ${JSON.stringify(base)}`);
  const changed = Object.keys(overrides).length > 0;
  const m: FillModel = {
    name: name ?? (changed ? `${base}+custom` : base),
    queue: overrides.queue ?? p.queue,
    queueExtraFraction: overrides.queueExtraFraction ?? p.queueExtraFraction,
    latency: { ...p.latency, ...(overrides.latency ?? {}) },
    takerDepthFraction: overrides.takerDepthFraction ?? p.takerDepthFraction,
    adverseTicks: overrides.adverseTicks ?? p.adverseTicks,
    tradeThroughFillsAll: overrides.tradeThroughFillsAll ?? p.tradeThroughFillsAll,
  };
  checkFillModel(m, path);
  return m;
}

export function checkFillModel(m: FillModel, path = 'fillModel'): void {
  const nonNegInt = (v: number, field: string): void => {
    if (!Number.isSafeInteger(v) || v < 0) throw new ConfigError(`${path}.${field}`, `expected a whole number >= 0, got ${v}`);
  };
  nonNegInt(m.latency.orderEntryMs, 'latency.orderEntryMs');
  nonNegInt(m.latency.cancelMs, 'latency.cancelMs');
  nonNegInt(m.latency.responseMs, 'latency.responseMs');
  nonNegInt(m.latency.jitterMs ?? 0, 'latency.jitterMs');
  nonNegInt(m.adverseTicks, 'adverseTicks');
  if (!(m.takerDepthFraction > 0 && m.takerDepthFraction <= 1))
    throw new ConfigError(`${path}.takerDepthFraction`, `expected a fraction in (0, 1], got ${m.takerDepthFraction}`);
  if (!(m.queueExtraFraction >= 0 && Number.isFinite(m.queueExtraFraction)))
    throw new ConfigError(`${path}.queueExtraFraction`, `expected a number >= 0, got ${m.queueExtraFraction}`);
}
