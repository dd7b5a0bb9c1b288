/**
 * The market side of the emulator over its whole life, across restarts, as EPOCHS: an epoch is one
 * market model (MarketDriver) with the contracts following its price boards, from the moment its crowd
 * book is laid until it is ended (a restart that cannot continue it, or a change of market config).
 *
 * Why: the synthetic model is seeded and clock-driven, and it acts on the books only through the
 * engines, so each of its steps is a function of (seed, the state of the books, the step's time). The
 * journal therefore records three calls instead of the crowd's orders (hundreds per step):
 *
 *   market.begin(params)   a new model: seed, market and funding config, starting prices
 *   market.tick()          one step of the model at the entry's time, then fair / index pushed
 *   market.end()           the model stops; the crowd's resting orders are cancelled
 *
 * and replaying them re-runs the model exactly: the same crowd orders with the same ids, interleaved
 * with the users' commands in journal order. After the replay the replayed epoch simply goes on when
 * the config is unchanged and no step was missed (a virtual clock resumes where it stopped), so a
 * stopped-and-restarted run is indistinguishable from an uninterrupted one; otherwise it is ended and a
 * new epoch starts from the last traded prices, with its own random streams.
 *
 * Replay and mirror sources are driven by input the journal does not hold (a file, a remote venue):
 * they run live only, and their crowd orders are journaled one by one as before.
 */
import type { Clock } from '../../core/clock.js';
import type { ContractInstrument, SpotInstrument } from '../../domain/instrument.js';
import type { ContractPriceBoard } from '../../venue/market/contract-price-board.js';
import type { LiquidityPort } from '../../venue/market/liquidity-port.js';
import type { EmulatorConfig } from '../emulator-config.js';
import type { CommandJournal } from './command-journal.js';
import type { ContractEngine, PriceFollower } from './contract-engine.js';
import { MarketDriver } from './market-driver.js';
import type { SpotEngine } from './spot-engine.js';

/** What a `market.begin` entry carries: everything the model is built from besides the instruments. */
export interface EpochParams {
  /** 0 for the first epoch of a journal; later ones derive their seed from it. */
  readonly epoch: number;
  readonly seed: number | string;
  readonly market: EmulatorConfig['market'];
  readonly funding: EmulatorConfig['funding'];
  /** Last traded price per symbol when the epoch began (empty on a fresh venue). */
  readonly startPrices: Readonly<Record<string, number>>;
}

export interface MarketEpochsOptions {
  readonly config: EmulatorConfig;
  readonly clock: Clock;
  readonly spot: SpotEngine;
  readonly contract: ContractEngine;
  readonly spotInstruments: readonly SpotInstrument[];
  readonly contractInstruments: readonly ContractInstrument[];
  readonly journal?: CommandJournal | undefined;
  /** A step that threw: reported, and the same happens on replay, so the state stays the run's. */
  readonly onError: (err: unknown) => void;
}

/** Where the timeline's steps start after `open`. */
export interface MarketSchedule {
  readonly stepMs: number;
  readonly firstAt: number;
}

/** Steps of a replay or mirror source: only the fair / index pushes (the source has its own timers). */
const LIVE_SOURCE_STEP_MS = 1000;

export class MarketSession {
  lastTick: number;

  constructor(
    readonly driver: MarketDriver,
    private readonly followers: readonly PriceFollower[],
    readonly params: EpochParams | undefined,
    now: number,
  ) {
    this.lastTick = now;
  }

  push(): void {
    for (const f of this.followers) f.push();
  }

  close(): void {
    this.driver.stop();
    for (const f of this.followers) f.dispose();
  }
}

export class MarketEpochs {
  private session: MarketSession | undefined;
  /** Epochs begun so far (replayed and live): the number of the next one. */
  private begun = 0;

  constructor(private readonly opts: MarketEpochsOptions) {}

  // ---------------------------------------------------------------- journaled calls (replayed as 'market')

  /** Ends the current epoch and begins a synthetic one: its first step lays the crowd book. */
  begin(params: EpochParams): void {
    this.session?.close();
    this.session = undefined;
    this.begun = Math.max(this.begun, params.epoch + 1);
    const o = this.opts;
    const driver = new MarketDriver({
      config: { ...o.config, seed: params.seed, market: params.market, funding: params.funding },
      clock: o.clock,
      spot: o.spotInstruments,
      contract: o.contractInstruments,
      ports: this.ports(),
      startPrices: new Map(Object.entries(params.startPrices)),
      ...(params.epoch > 0 ? { seedSuffix: `#${params.epoch}` } : {}),
    });
    this.session = this.openSession(driver, params);
  }

  /** One step of the current epoch's model at the clock's time, then the contracts' prices. */
  tick(): void {
    const s = this.session;
    if (!s) return;
    s.lastTick = this.opts.clock.now();
    try {
      s.driver.step();
      s.push();
    } catch (e) {
      this.opts.onError(e);
    }
  }

  /** Ends the current epoch (if any) and cancels every resting crowd order, old journals' included. */
  end(): void {
    this.session?.close();
    this.session = undefined;
    this.opts.spot.clearCrowd();
    this.opts.contract.clearCrowd();
  }

  // ---------------------------------------------------------------- live

  /**
   * After the journal was replayed (`replayed` entries): continues the replayed epoch when it can,
   * otherwise ends it and starts the configured source. Answers where the steps go on.
   */
  open(replayed: number): MarketSchedule {
    const o = this.opts;
    const now = o.clock.now();
    const m = o.config.market;
    const stepMs = m.source === 'synthetic' ? m.stepMs : LIVE_SOURCE_STEP_MS;
    const s = this.session;
    if (s?.params && m.source === 'synthetic' && sameModel(s.params, this.wanted()) && now - s.lastTick <= 2 * stepMs) {
      return { stepMs, firstAt: Math.max(now, s.lastTick + stepMs) };
    }
    if (replayed > 0) this.record('end', [], () => this.end());
    if (m.source === 'synthetic') {
      const params: EpochParams = { ...this.wanted(), epoch: this.begun, startPrices: this.lastPrices() };
      this.record('begin', [params], () => this.begin(params));
    } else {
      const driver = new MarketDriver({
        config: o.config,
        clock: o.clock,
        spot: o.spotInstruments,
        contract: o.contractInstruments,
        ports: this.ports(),
      });
      this.session = this.openSession(driver, undefined);
    }
    return { stepMs, firstAt: now + stepMs };
  }

  /** After the replay with the market model switched off: the replayed epoch ends, its crowd leaves. */
  openStopped(replayed: number): void {
    if (replayed > 0) this.record('end', [], () => this.end());
  }

  /** A timeline step: journaled as one `market.tick` for the synthetic model, as its effects otherwise. */
  step(): void {
    if (this.session?.driver.deterministic) this.record('tick', [], () => this.tick());
    else this.tick();
  }

  /** Stops the live model (emulator shutdown): nothing is journaled, so the next start can continue it. */
  close(): void {
    this.session?.close();
    this.session = undefined;
  }

  /**
   * The current epoch's parameters (undefined: no epoch). A snapshot stores them to rebuild the epoch's
   * objects and wiring (`begin`) before its data is restored into them.
   */
  get epochParams(): EpochParams | undefined {
    return this.session?.params;
  }

  /** Whether the engines can be snapshotted: nothing outside the journal (a file, a remote venue) drives the market. */
  get snapshotable(): boolean {
    return !this.session || this.session.driver.deterministic;
  }

  /** Index / fair / funding board of a perpetual in the current epoch. */
  contractPrices(symbol: string): ContractPriceBoard | undefined {
    return this.session?.driver.contractPrices(symbol);
  }

  // ----------------------------------------------------------------

  private record(method: 'begin' | 'tick' | 'end', args: unknown[], fn: () => void): void {
    const j = this.opts.journal;
    if (j) j.runRecorded('market', method, args, fn);
    else fn();
  }

  private openSession(driver: MarketDriver, params: EpochParams | undefined): MarketSession {
    driver.start();
    const followers: PriceFollower[] = [];
    for (const c of this.opts.contractInstruments) {
      const board = driver.contractPrices(c.symbol);
      if (board) followers.push(this.opts.contract.follow(c.symbol, board));
    }
    const s = new MarketSession(driver, followers, params, this.opts.clock.now());
    s.push();
    return s;
  }

  private wanted(): Omit<EpochParams, 'epoch' | 'startPrices'> {
    const c = this.opts.config;
    return { seed: c.seed, market: c.market, funding: c.funding };
  }

  private lastPrices(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const tapes of [this.opts.spot.tapes, this.opts.contract.tapes]) {
      for (const [symbol, tape] of tapes) {
        const t = tape.lastPriceTicks();
        if (t !== undefined) out[symbol] = tape.price(t).toNumber();
      }
    }
    return out;
  }

  private ports(): Map<string, LiquidityPort> {
    const ports = new Map<string, LiquidityPort>();
    for (const s of this.opts.spotInstruments) ports.set(s.symbol, this.opts.spot.port);
    for (const c of this.opts.contractInstruments) ports.set(c.symbol, this.opts.contract.port);
    return ports;
  }
}

/** Same seed and market / funding config: the replayed model is the one the config asks for. */
function sameModel(a: Omit<EpochParams, 'epoch' | 'startPrices'>, b: Omit<EpochParams, 'epoch' | 'startPrices'>): boolean {
  return (
    canonical({ seed: a.seed, market: a.market, funding: a.funding }) === canonical({ seed: b.seed, market: b.market, funding: b.funding })
  );
}

/** JSON with object keys sorted, so key order (YAML vs journal) does not matter. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(
          Object.keys(x)
            .sort()
            .map((k) => [k, (x as Record<string, unknown>)[k]]),
        )
      : x,
  );
}
