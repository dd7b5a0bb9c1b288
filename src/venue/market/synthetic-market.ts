/**
 * A seeded synthetic market around a reference ("true") price, acting on real order books through a
 * LiquidityPort: it keeps a crowd book of resting orders around the reference and sends aggressive
 * crowd orders, so every print — including fills of our own resting orders — comes from matching.
 *
 * Per step, at the injected clock's time t (Δt = t − previous step):
 *   S      reference, JumpDiffusionProcess (price-process.ts)
 *   p      premium, MeanRevertingPremium (price-process.ts)
 *   index  = S · (1 + ε·Z)                         ε = indexNoise
 *   fair   = index · (1 + p)
 *   centre = S (spot books) or S · (1 + p) (contract books, so the perpetual trades at its premium)
 *   funding: premium index (fair − index)/index = p is sampled into a FundingAccumulator
 *            (funding-rate.ts: F = clamp(P̄ + clamp(I − P̄, −c, c), min, max)), settled each cycle.
 *
 * Crowd book, per instrument, in integer ticks and lots:
 *   bidTouch = floor(centre/tick − spread/2), askTouch = bidTouch + spread
 *   levels k = 0 … L−1: the touch, then the multiples of `gap` beyond it (a fixed grid, so a move of
 *   the touch re-lays one level, not the side)
 *   mean crowd size of level k: touchLots · decay^k (the profile thins away from the touch)
 *   a level holding less than refillBelow × its mean gets n ~ U{minOrders…maxOrders} new orders of
 *   lognormal size (mean/n, dispersion σ), at least one lot each; with churnProbability the oldest
 *   crowd order of a level is cancelled and a fresh one joins the back of the queue.
 *   Crowd orders outside the band are cancelled BEFORE anything is placed, so the crowd never crosses
 *   itself; a new crowd order that crosses someone else's resting order trades with it.
 * Crowd takers: N ~ Poisson(rate · Δt/1 s) IOC orders, buy with probability takerBuyProbability,
 *   lognormal size (takerMeanLots, takerSizeDispersion), limit = the opposite touch at the start of
 *   the takers' turn ± takerMaxSweepTicks (a burst cannot empty a side deeper than the sweep).
 *
 * Determinism: every draw comes from SeededRandom streams forked in a fixed order at construction;
 * the same seed, config and clock steps give the same orders and therefore the same tape.
 */
import type { Clock, TimerHandle } from '../../core/clock.js';
import { D, type Decimal, type DecimalLike } from '../../core/decimal.js';
import { ValidationError } from '../../core/errors.js';
import { SeededRandom } from '../../core/random.js';
import { ContractPriceBoard } from './contract-price-board.js';
import { FundingAccumulator, resolveFundingConfig, type FundingConfig, type ResolvedFundingConfig } from './funding-rate.js';
import type { BookSide, LiquidityPort } from './liquidity-port.js';
import type { MarketSource } from './market-source.js';
import { JumpDiffusionProcess, MeanRevertingPremium, type PremiumConfig, type PriceProcessConfig } from './price-process.js';

export interface SyntheticBookConfig {
  readonly symbol: string;
  readonly kind: 'spot' | 'contract';
  /** Price tick (spot tick, contract priceUnit). */
  readonly tick: DecimalLike;
  /** Precision of the published index price (contract only). Default: the tick. */
  readonly indexTick?: DecimalLike;
  /** Ask touch − bid touch, in ticks, ≥ 1. */
  readonly spreadTicks: number;
  /** Crowd price levels per side, ≥ 1. */
  readonly levels: number;
  /** Ticks between crowd levels beyond the touch; they sit on multiples of it. Default 1. */
  readonly levelGapTicks?: number;
  /** Mean crowd lots at the touch, ≥ 1. */
  readonly touchLots: number;
  /** Mean of level k = touchLots · depthDecay^k; 0 < decay ≤ 1. Default 0.85. */
  readonly depthDecay?: number;
  /** [min, max] crowd orders placed into an empty level. Default [1, 4]. */
  readonly ordersPerLevel?: readonly [number, number];
  /** Lognormal σ of crowd order sizes. Default 0.5. */
  readonly sizeDispersion?: number;
  /** A level below this fraction of its mean is topped up. Default 0.3. */
  readonly refillBelow?: number;
  /** Per level per step. Default 0.02. */
  readonly churnProbability?: number;
  /** Mean crowd taker orders per second. */
  readonly takerArrivalPerSec: number;
  /** Mean lots of a taker order, ≥ 1. */
  readonly takerMeanLots: number;
  /** Lognormal σ of taker sizes. Default 1. */
  readonly takerSizeDispersion?: number;
  /**
   * How far past the touch (as it stood at the start of the step) takers sweep, ticks. Crowd levels
   * beyond it are never taken, so the book keeps depth between steps. Default
   * min(2, levels − 1) × levelGapTicks.
   */
  readonly takerMaxSweepTicks?: number;
  /** Default 0.5. */
  readonly takerBuyProbability?: number;
}

export interface SyntheticMarketConfig extends PriceProcessConfig {
  readonly seed: number | string;
  /** Clock period of a step, ms. */
  readonly stepMs: number;
  /** ε, relative standard deviation of the index around the reference. Default 0.0001. */
  readonly indexNoise?: number;
  readonly premium?: PremiumConfig;
  readonly funding?: FundingConfig;
  readonly books: readonly SyntheticBookConfig[];
}

export interface SyntheticMarketDeps {
  readonly clock: Clock;
  readonly port: LiquidityPort;
}

interface CrowdOrder {
  readonly id: string;
  lots: number;
}

interface BookState {
  readonly cfg: SyntheticBookConfig;
  readonly tick: number;
  readonly indexTick: number;
  readonly gap: number;
  readonly decay: number;
  readonly minOrders: number;
  readonly maxOrders: number;
  readonly dispersion: number;
  readonly refillBelow: number;
  readonly churn: number;
  readonly takerDispersion: number;
  readonly sweep: number;
  readonly buyProbability: number;
  readonly bookRng: SeededRandom;
  readonly takerRng: SeededRandom;
  /** price ticks → crowd orders, oldest first. */
  readonly bids: Map<number, CrowdOrder[]>;
  readonly asks: Map<number, CrowdOrder[]>;
  readonly board: ContractPriceBoard | undefined;
}

/** One side of the crowd book as [priceTicks, lots, orders], best first. */
export type CrowdLevel = readonly [priceTicks: number, lots: number, orders: number];

export class SyntheticMarket implements MarketSource {
  readonly kind = 'synthetic' as const;
  private readonly clock: Clock;
  private readonly port: LiquidityPort;
  private readonly process: JumpDiffusionProcess;
  private readonly premiumProcess: MeanRevertingPremium;
  private readonly noiseRng: SeededRandom;
  private readonly indexNoise: number;
  private readonly funding: ResolvedFundingConfig;
  private readonly minRate: Decimal;
  private readonly maxRate: Decimal;
  private readonly accumulator: FundingAccumulator;
  private readonly books: BookState[] = [];
  private readonly boards = new Map<string, ContractPriceBoard>();
  private timer: TimerHandle | undefined;
  private lastStep: number | undefined;
  private indexValue: number;
  private fairValue: number;

  constructor(
    readonly config: SyntheticMarketConfig,
    deps: SyntheticMarketDeps,
  ) {
    validate(config);
    this.clock = deps.clock;
    this.port = deps.port;
    const root = new SeededRandom(config.seed);
    // Fork order is part of the determinism contract: never reorder these lines.
    this.process = new JumpDiffusionProcess(config, root.fork('reference'));
    this.premiumProcess = new MeanRevertingPremium(config.premium ?? {}, root.fork('premium'));
    this.noiseRng = root.fork('index-noise');
    this.indexNoise = config.indexNoise ?? 0.0001;
    this.funding = resolveFundingConfig(config.funding);
    this.minRate = D(this.funding.minRate);
    this.maxRate = D(this.funding.maxRate);
    this.accumulator = new FundingAccumulator(this.funding);
    this.indexValue = config.initialPrice;
    this.fairValue = config.initialPrice;
    for (const b of config.books) {
      const tick = D(b.tick).toNumber();
      const board = b.kind === 'contract' ? new ContractPriceBoard(b.symbol, b.indexTick ?? b.tick, b.tick) : undefined;
      if (board) this.boards.set(b.symbol, board);
      const gap = b.levelGapTicks ?? 1;
      this.books.push({
        cfg: b,
        tick,
        indexTick: D(b.indexTick ?? b.tick).toNumber(),
        gap,
        decay: b.depthDecay ?? 0.85,
        minOrders: b.ordersPerLevel?.[0] ?? 1,
        maxOrders: b.ordersPerLevel?.[1] ?? 4,
        dispersion: b.sizeDispersion ?? 0.5,
        refillBelow: b.refillBelow ?? 0.3,
        churn: b.churnProbability ?? 0.02,
        takerDispersion: b.takerSizeDispersion ?? 1,
        sweep: b.takerMaxSweepTicks ?? Math.min(2, b.levels - 1) * gap,
        buyProbability: b.takerBuyProbability ?? 0.5,
        bookRng: root.fork(`book:${b.symbol}`),
        takerRng: root.fork(`taker:${b.symbol}`),
        bids: new Map(),
        asks: new Map(),
        board,
      });
    }
  }

  /** Builds the book now and then steps every `stepMs` on the clock. */
  start(): void {
    if (this.timer) return;
    this.step();
    this.timer = this.clock.setInterval(this.config.stepMs, () => this.step());
  }

  stop(): void {
    this.clock.clearTimer(this.timer);
    this.timer = undefined;
  }

  contractPrices(symbol: string): ContractPriceBoard | undefined {
    return this.boards.get(symbol);
  }

  /** The reference price (a plain number; books quote it rounded to their ticks). */
  referencePrice(): number {
    return this.process.price;
  }

  premium(): number {
    return this.premiumProcess.value;
  }

  indexPrice(): number {
    return this.indexValue;
  }

  fairPrice(): number {
    return this.fairValue;
  }

  /** Crowd liquidity the model believes it has resting, best first (as of the last step). */
  crowdLevels(symbol: string, side: BookSide): CrowdLevel[] {
    const b = this.books.find((x) => x.cfg.symbol === symbol);
    if (!b) return [];
    const levels = side === 'buy' ? b.bids : b.asks;
    const out: CrowdLevel[] = [];
    for (const [price, q] of levels) out.push([price, q.reduce((s, o) => s + o.lots, 0), q.length]);
    return out.sort((x, y) => (side === 'buy' ? y[0] - x[0] : x[0] - y[0]));
  }

  /** One step at the clock's current time (start() calls this on the timer). */
  step(): void {
    const now = this.clock.now();
    if (this.lastStep !== undefined) {
      const dt = now - this.lastStep;
      if (dt <= 0) return;
      this.process.step(dt);
      this.premiumProcess.step(dt);
      this.advanceBooks(dt);
    } else {
      this.advanceBooks(0);
    }
    this.lastStep = now;
    this.publish(now);
  }

  private advanceBooks(dt: number): void {
    const s = this.process.price;
    const p = this.premiumProcess.value;
    this.indexValue = s * (1 + this.indexNoise * this.noiseRng.normal());
    this.fairValue = this.indexValue * (1 + p);
    for (const b of this.books) {
      const centre = b.cfg.kind === 'contract' ? s * (1 + p) : s;
      this.maintain(b, centre / b.tick);
      if (dt > 0) this.takers(b, dt);
    }
  }

  private maintain(b: BookState, centreTicks: number): void {
    const { spreadTicks, levels } = b.cfg;
    const bidTouch = Math.floor(centreTicks - spreadTicks / 2);
    const askTouch = bidTouch + spreadTicks;
    const bids = levelPrices(bidTouch, -1, b.gap, levels);
    const asks = levelPrices(askTouch, 1, b.gap, levels);
    const wantedBids = new Set(bids);
    const wantedAsks = new Set(asks);
    this.refresh(b, b.bids, (price) => wantedBids.has(price));
    this.refresh(b, b.asks, (price) => wantedAsks.has(price));
    bids.forEach((price, k) => this.fillLevel(b, 'buy', price, k));
    asks.forEach((price, k) => this.fillLevel(b, 'sell', price, k));
  }

  /** Drops filled orders from the model's view and cancels those outside the band. */
  private refresh(b: BookState, side: Map<number, CrowdOrder[]>, wanted: (price: number) => boolean): void {
    const symbol = b.cfg.symbol;
    for (const [price, queue] of side) {
      const keep = wanted(price);
      let w = 0;
      for (const o of queue) {
        const rem = this.port.remaining(symbol, o.id);
        if (rem <= 0) continue;
        if (!keep) {
          this.port.cancel(symbol, o.id);
          continue;
        }
        o.lots = rem;
        queue[w++] = o;
      }
      queue.length = w;
      if (w === 0) side.delete(price);
    }
  }

  private fillLevel(b: BookState, side: BookSide, price: number, k: number): void {
    const levels = side === 'buy' ? b.bids : b.asks;
    let queue = levels.get(price);
    const mean = b.cfg.touchLots * Math.pow(b.decay, k);
    const rng = b.bookRng;
    if (queue && queue.length > 0 && rng.next() < b.churn) {
      const oldest = queue.shift()!;
      this.port.cancel(b.cfg.symbol, oldest.id);
      this.placeCrowd(b, side, price, lognormalLots(rng, mean / ((b.minOrders + b.maxOrders) / 2), b.dispersion), levels);
      queue = levels.get(price);
    }
    const total = queue ? queue.reduce((s, o) => s + o.lots, 0) : 0;
    if (total < mean * b.refillBelow) {
      const n = rng.int(b.minOrders, b.maxOrders);
      for (let i = 0; i < n; i++) this.placeCrowd(b, side, price, lognormalLots(rng, mean / n, b.dispersion), levels);
    }
  }

  private placeCrowd(b: BookState, side: BookSide, price: number, lots: number, levels: Map<number, CrowdOrder[]>): void {
    const r = this.port.place(b.cfg.symbol, side, price, lots, 'limit');
    if (r.id === undefined) return;
    const rest = lots - r.filledLots;
    if (rest <= 0) return;
    let queue = levels.get(price);
    if (!queue) levels.set(price, (queue = []));
    queue.push({ id: r.id, lots: rest });
  }

  private takers(b: BookState, dt: number): void {
    const rng = b.takerRng;
    const n = rng.poisson((b.cfg.takerArrivalPerSec * dt) / 1000);
    const symbol = b.cfg.symbol;
    // Limits are fixed from the touch as it stood before this step's takers, so a burst of takers
    // cannot walk the book away: levels further than the sweep from that touch survive every step.
    const ask = this.port.bestAsk(symbol);
    const bid = this.port.bestBid(symbol);
    for (let i = 0; i < n; i++) {
      const side: BookSide = rng.next() < b.buyProbability ? 'buy' : 'sell';
      const lots = lognormalLots(rng, b.cfg.takerMeanLots, b.takerDispersion);
      if (side === 'buy') {
        if (ask !== undefined) this.port.place(symbol, side, ask + b.sweep, lots, 'ioc');
      } else if (bid !== undefined) {
        this.port.place(symbol, side, Math.max(1, bid - b.sweep), lots, 'ioc');
      }
    }
  }

  private publish(now: number): void {
    const settled = this.accumulator.sample(now, this.premiumProcess.value);
    if (this.boards.size === 0) return;
    const estimate = this.accumulator.estimate();
    for (const b of this.books) {
      const board = b.board;
      if (!board) continue;
      board.setIndexUnits(now, Math.round(this.indexValue / b.indexTick));
      board.setFairUnits(now, Math.round(this.fairValue / b.tick));
      for (const s of settled) board.settle(s.rate, s.settleTime, this.funding.collectCycleHours);
      board.setFunding({
        rate: estimate,
        minRate: this.minRate,
        maxRate: this.maxRate,
        collectCycleHours: this.funding.collectCycleHours,
        nextSettleTime: this.accumulator.nextSettleTime(),
        time: now,
      });
    }
  }
}

/**
 * Prices of the crowd levels of one side, touch first: the touch itself, then the multiples of `gap`
 * beyond it. Deeper levels sit on a fixed grid, so a one-tick move of the touch re-lays one level,
 * not the whole side. Prices below one tick are left out.
 */
function levelPrices(touch: number, dir: 1 | -1, gap: number, levels: number): number[] {
  const out: number[] = [];
  if (touch >= 1) out.push(touch);
  let p = dir < 0 ? Math.floor((touch - 1) / gap) * gap : Math.ceil((touch + 1) / gap) * gap;
  while (out.length < levels && p >= 1) {
    out.push(p);
    p += dir * gap;
  }
  return out;
}

/** max(1, round(mean · e^{σZ − σ²/2})): lognormal with the given mean, whole lots. */
function lognormalLots(rng: SeededRandom, mean: number, sigma: number): number {
  const x = mean * Math.exp(sigma * rng.normal() - (sigma * sigma) / 2);
  return Math.max(1, Math.round(x));
}

function validate(c: SyntheticMarketConfig): void {
  const positive = (field: string, v: number): void => {
    if (!(v > 0) || !Number.isFinite(v)) throw new ValidationError(field, 'a positive number', v);
  };
  const positiveInt = (field: string, v: number): void => {
    if (!Number.isInteger(v) || v <= 0) throw new ValidationError(field, 'a positive integer', v);
  };
  positive('stepMs', c.stepMs);
  positive('initialPrice', c.initialPrice);
  if (!(c.volatilityPerYear >= 0)) throw new ValidationError('volatilityPerYear', 'a number ≥ 0', c.volatilityPerYear);
  const seen = new Set<string>();
  c.books.forEach((b, i) => {
    const f = (name: string): string => `books[${i}].${name}`;
    if (seen.has(b.symbol)) throw new ValidationError(f('symbol'), 'a symbol not configured twice', b.symbol);
    seen.add(b.symbol);
    positive(f('tick'), D(b.tick).toNumber());
    positiveInt(f('spreadTicks'), b.spreadTicks);
    positiveInt(f('levels'), b.levels);
    positiveInt(f('levelGapTicks'), b.levelGapTicks ?? 1);
    positive(f('touchLots'), b.touchLots);
    const decay = b.depthDecay ?? 0.85;
    if (!(decay > 0 && decay <= 1)) throw new ValidationError(f('depthDecay'), 'a number in (0, 1]', decay);
    const [lo, hi] = b.ordersPerLevel ?? [1, 4];
    if (!Number.isInteger(lo) || !Number.isInteger(hi) || lo < 1 || hi < lo)
      throw new ValidationError(f('ordersPerLevel'), 'integers 1 ≤ min ≤ max', b.ordersPerLevel);
    if (!(b.takerArrivalPerSec >= 0)) throw new ValidationError(f('takerArrivalPerSec'), 'a number ≥ 0', b.takerArrivalPerSec);
    positive(f('takerMeanLots'), b.takerMeanLots);
    const pb = b.takerBuyProbability ?? 0.5;
    if (!(pb >= 0 && pb <= 1)) throw new ValidationError(f('takerBuyProbability'), 'a probability in [0, 1]', pb);
  });
}
