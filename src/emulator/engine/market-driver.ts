/**
 * Builds the market model the config asks for and connects it to the engines.
 *
 * Synthetic: one SyntheticMarket per underlying (base asset), so BTCUSDT and BTC_USDT move on one
 * reference price; each symbol gets a crowd book sized in quote value (touchNotional,
 * takerMeanNotional) and converted to the symbol's lots here. Defaults: spread ≈ 0.1 bp of the price,
 * 10 levels 0.05 bp apart (whole ticks, at least one), 50 000 quote at the touch, one crowd taker per
 * second of 2 000 quote on average.
 *
 * Cost: the model re-lays every level that left its band, and at realistic volatility the touch moves
 * further than the book is deep on most 1 s steps, so each step replaces most of the crowd book
 * (≈ 2 × levels cancels and places per symbol). `levels` is the knob that bounds it.
 *
 * Stepping: the synthetic models do not run their own timers here. `start()` makes their first step
 * (the crowd book is laid) and `step()` each later one, called by the emulator's timeline, so a step can
 * be journaled as one entry and replayed (engine/market-epochs.ts). Replay and mirror sources keep their
 * own timers: their input (a file, a remote venue) is not part of the journal, so their crowd orders
 * are journaled one by one.
 */
import type { Clock } from '../../core/clock.js';
import { ConfigError } from '../../core/errors.js';
import { D } from '../../core/decimal.js';
import type { ContractInstrument, SpotInstrument } from '../../domain/instrument.js';
import { SyntheticMarket, type SyntheticBookConfig } from '../../venue/market/synthetic-market.js';
import type { ContractPriceBoard } from '../../venue/market/contract-price-board.js';
import type { BookSide, LiquidityOrderKind, LiquidityPort, PlaceResult } from '../../venue/market/liquidity-port.js';
import type { MarketSource } from '../../venue/market/market-source.js';
import { ReplayMarketSource } from '../../marketdata/record/replay-market-source.js';
import { MirrorMarketSource } from '../../marketdata/record/mirror-market-source.js';
import { contractMirrorFeed, spotMirrorFeed } from '../../marketdata/record/client-mirror-feed.js';
import { readRecordFile } from '../../marketdata/record/json-lines-codec.js';
import type { SourceInstrument } from '../../marketdata/record/record-applier.js';
import { SpotClient } from '../../client/spot-client.js';
import { ContractClient } from '../../client/contract-client.js';
import { DEFAULT_START_PRICES } from '../config/instrument-presets.js';
import type { EmulatorConfig, SyntheticBookSettings } from '../emulator-config.js';

export interface MarketDriverDeps {
  readonly config: EmulatorConfig;
  readonly clock: Clock;
  readonly spot: readonly SpotInstrument[];
  readonly contract: readonly ContractInstrument[];
  /** Where each symbol's crowd orders go. */
  readonly ports: ReadonlyMap<string, LiquidityPort>;
  /** Starting prices that override the config (after a restart: the last traded prices). */
  readonly startPrices?: ReadonlyMap<string, number>;
  /**
   * Appended to the config's seed (a later market epoch after a restart gets its own random streams
   * instead of repeating the first epoch's).
   */
  readonly seedSuffix?: string;
}

/** The market config's synthetic form. */
type SyntheticMarketSettings = Extract<EmulatorConfig['market'], { source: 'synthetic' }>;

/** All sources of the emulator behind one handle. */
export class MarketDriver {
  /** True for the seeded synthetic model: its steps are a function of seed, state and time alone. */
  readonly deterministic: boolean;
  private readonly sources: MarketSource[] = [];
  private readonly models: SyntheticMarket[] = [];
  private readonly clients: { close(): Promise<void> }[] = [];
  private started = false;

  constructor(deps: MarketDriverDeps) {
    const m = deps.config.market;
    this.deterministic = m.source === 'synthetic';
    if (m.source !== 'synthetic') {
      this.recordedOrMirrored(deps);
      return;
    }
    this.synthetic(deps, m);
  }

  private synthetic(deps: MarketDriverDeps, m: SyntheticMarketSettings): void {
    const byBase = new Map<string, { spot: SpotInstrument[]; contract: ContractInstrument[] }>();
    const group = (base: string) => {
      let g = byBase.get(base);
      if (!g) byBase.set(base, (g = { spot: [], contract: [] }));
      return g;
    };
    for (const s of deps.spot) group(s.baseAsset).spot.push(s);
    for (const c of deps.contract) group(c.baseCoin).contract.push(c);
    const port = new RoutingPort(deps.ports);
    for (const [base, g] of byBase) {
      const u = m.underlyings[base] ?? {};
      const fromRestart = [...g.spot.map((s) => s.symbol), ...g.contract.map((c) => c.symbol)]
        .map((s) => deps.startPrices?.get(s))
        .find((p) => p !== undefined);
      const configured = u.price ?? DEFAULT_START_PRICES[`${base}USDT`] ?? DEFAULT_START_PRICES[`${base}_USDT`];
      const price = fromRestart ?? (configured !== undefined ? Number(configured) : undefined);
      if (price === undefined)
        throw new ConfigError(`market.underlyings.${base}.price`, 'expected a starting price (no default is known for this asset)');
      const books: SyntheticBookConfig[] = [
        ...g.spot.map((s) => bookConfig(s.symbol, 'spot', s.tick.toNumber(), s.step.toNumber(), 1, price, m.books[s.symbol] ?? {})),
        ...g.contract.map((c) =>
          bookConfig(
            c.symbol,
            'contract',
            c.priceUnit.toNumber(),
            c.volUnit.toNumber(),
            c.contractSize.toNumber(),
            price,
            m.books[c.symbol] ?? {},
            c.priceUnit.toFixed(),
          ),
        ),
      ];
      const funding = deps.config.funding;
      this.models.push(
        new SyntheticMarket(
          {
            seed: `${String(deps.config.seed)}${deps.seedSuffix ?? ''}:${base}`,
            stepMs: m.stepMs,
            initialPrice: price,
            volatilityPerYear: u.volatilityPerYear ?? m.volatilityPerYear,
            ...(u.driftPerYear !== undefined ? { driftPerYear: u.driftPerYear } : {}),
            ...(u.jumpsPerDay !== undefined ? { jumpsPerDay: u.jumpsPerDay } : {}),
            ...(u.jumpStd !== undefined ? { jumpStd: u.jumpStd } : {}),
            ...(m.indexNoise !== undefined ? { indexNoise: m.indexNoise } : {}),
            ...(m.premium !== undefined ? { premium: m.premium } : {}),
            funding: {
              collectCycleHours: funding.cycleHours,
              ...(funding.rate !== undefined ? { minRate: funding.rate, maxRate: funding.rate, interestRate: funding.rate } : {}),
            },
            books,
          },
          { clock: deps.clock, port },
        ),
      );
    }
  }

  /** Synthetic: the first step of every model (lays the crowd book). Replay / mirror: starts their timers. */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const m of this.models) m.step();
    for (const s of this.sources) s.start();
  }

  /** One step of every synthetic model at the clock's time (no-op for replay / mirror). */
  step(): void {
    if (!this.started) return;
    for (const m of this.models) m.step();
  }

  stop(): void {
    this.started = false;
    for (const s of this.sources) s.stop();
    for (const c of this.clients.splice(0)) void c.close();
  }

  /**
   * Replay: a recording (record format of src/marketdata/record) in its own pace × speed. Mirror: the
   * public market data of a real venue (or of another emulator) polled through our clients. Either way
   * the recorded / polled book becomes crowd liquidity and its trades are printed against it.
   */
  private recordedOrMirrored(deps: MarketDriverDeps): void {
    const m = deps.config.market;
    const instruments: SourceInstrument[] = [
      ...deps.spot.map((s): SourceInstrument => ({ market: 'spot', symbol: s.symbol, tick: s.tick, step: s.step })),
      ...deps.contract.map((c): SourceInstrument => ({
        market: 'contract',
        symbol: c.symbol,
        tick: c.priceUnit,
        step: c.volUnit,
        indexTick: c.priceUnit.div(10),
      })),
    ];
    const port = new RoutingPort(deps.ports);
    if (m.source === 'replay') {
      let records;
      try {
        records = readRecordFile(m.file);
      } catch (e) {
        throw new ConfigError('market.file', `expected a readable recording: ${(e as Error).message}`);
      }
      this.sources.push(new ReplayMarketSource({ records, instruments, clock: deps.clock, port, speed: m.speed, loop: m.loop }));
      return;
    }
    if (m.source === 'mirror') {
      const common = { baseUrl: m.url.replace(/\/+$/, ''), clock: deps.clock, timeSync: false as const };
      const spot = new SpotClient(common);
      const contract = new ContractClient(common);
      this.clients.push(spot, contract);
      const feeds = {
        ...(deps.spot.length ? { spot: spotMirrorFeed(spot) } : {}),
        ...(deps.contract.length ? { contract: contractMirrorFeed(contract) } : {}),
      };
      this.sources.push(new MirrorMarketSource({ feeds, instruments, clock: deps.clock, port, pollMs: m.pollMs }));
    }
  }

  /** Index / fair / funding board of a perpetual. */
  contractPrices(symbol: string): ContractPriceBoard | undefined {
    for (const s of [...this.models, ...this.sources]) {
      const b = s.contractPrices(symbol);
      if (b) return b;
    }
    return undefined;
  }
}

function bookConfig(
  symbol: string,
  kind: 'spot' | 'contract',
  tick: number,
  step: number,
  contractSize: number,
  price: number,
  b: SyntheticBookSettings,
  indexTick?: string,
): SyntheticBookConfig {
  const lotValue = price * step * contractSize;
  const ticks = (fraction: number) => Math.max(1, Math.round((price * fraction) / tick));
  return {
    symbol,
    kind,
    tick,
    ...(indexTick !== undefined ? { indexTick: D(indexTick).div(10).toNumber() } : {}),
    spreadTicks: b.spreadTicks ?? ticks(0.00001),
    levels: b.levels ?? 10,
    levelGapTicks: b.levelGapTicks ?? ticks(0.000005),
    touchLots: Math.max(1, Math.round((b.touchNotional ?? 50_000) / lotValue)),
    ordersPerLevel: [1, 3],
    takerArrivalPerSec: b.takerArrivalPerSec ?? 1,
    takerMeanLots: Math.max(1, Math.round((b.takerMeanNotional ?? 2_000) / lotValue)),
  };
}

/** One port for the model, forwarding each symbol to its engine. */
export class RoutingPort implements LiquidityPort {
  constructor(private readonly ports: ReadonlyMap<string, LiquidityPort>) {}

  private of(symbol: string): LiquidityPort {
    const p = this.ports.get(symbol);
    if (!p) throw new RangeError(`no engine for ${symbol}`);
    return p;
  }

  place(symbol: string, side: BookSide, priceTicks: number, lots: number, kind: LiquidityOrderKind): PlaceResult {
    return this.of(symbol).place(symbol, side, priceTicks, lots, kind);
  }

  cancel(symbol: string, id: string): void {
    this.of(symbol).cancel(symbol, id);
  }

  remaining(symbol: string, id: string): number {
    return this.of(symbol).remaining(symbol, id);
  }

  bestBid(symbol: string): number | undefined {
    return this.of(symbol).bestBid(symbol);
  }

  bestAsk(symbol: string): number | undefined {
    return this.of(symbol).bestAsk(symbol);
  }
}
