/**
 * Builds and starts an emulator from a config: clock, accounts, instruments, engines and market model,
 * the route table from both catalogues, and the HTTP server on 127.0.0.1.
 *
 *   const emu = await startEmulator({ accounts: [...] });   // port 0 → any free port
 *   … new SpotClient({ baseUrl: emu.url, … }) …
 *   await emu.stop();
 *
 * With `persistence.path` every change is journaled (engine/command-journal.ts) and restored at the next
 * start: the engines' commands, the account settings, STP groups and blacklists the API changes, the
 * midnight equity snapshots, and the market model as its epochs and steps (engine/market-epochs.ts), so
 * paper accounts, open and trigger orders, positions, history and the tape survive a restart. The start
 * restores the newest engine snapshot and replays only the journal after it (engine/engine-snapshot.ts).
 */
import { SystemClock, VirtualClock, type Clock } from '../core/clock.js';
import { ConfigError } from '../core/errors.js';
import { SeededRandom } from '../core/random.js';
import { allEndpoints } from '../api/catalogue.js';
import type { ContractInstrument, SpotInstrument } from '../domain/instrument.js';
import { AccountRegistry } from './auth/account-registry.js';
import { parseEmulatorConfig, type EmulatorConfig, type EmulatorConfigInput } from './emulator-config.js';
import { toContractInstrument, toSpotInstrument } from './config/instrument-schemas.js';
import type { EmulatorContext } from './emulator-context.js';
import { EmulatorServer } from './emulator-server.js';
import { FaultInjector } from './faults/fault-injector.js';
import { RateLimits } from './limits/rate-limits.js';
import { RouteTable } from './http/route-table.js';
import { emulatorHandlers } from './handlers/emulator-handlers.js';
import { PinnedClock } from './engine/pinned-clock.js';
import { CommandJournal, journaled } from './engine/command-journal.js';
import { replayJournal } from './engine/journal-replay.js';
import { restoreEngineSnapshot, SNAPSHOT_POLICY, takeEngineSnapshot, type EngineParts } from './engine/engine-snapshot.js';
import { EmulatorTimeline } from './engine/emulator-timeline.js';
import { MarketEpochs } from './engine/market-epochs.js';
import { SpotEngine } from './engine/spot-engine.js';
import { ContractEngine } from './engine/contract-engine.js';
import { DEFAULT_START_PRICES } from './config/instrument-presets.js';
import { AccountExtServices } from './handlers/account-ext-services.js';
import { applyFeeSchedules } from './config/account-ext-config.js';
import { SPOT_ACCOUNT_EXT_ROUTES } from './handlers/spot-account-ext-handlers.js';

export interface StartEmulatorOptions {
  /** Overrides the config's clock (a test that drives its own VirtualClock). */
  readonly clock?: Clock;
  /** Unexpected handler errors; default: written to stderr without request data. */
  readonly onInternalError?: (err: unknown, endpointId: string | undefined) => void;
  /** Leave the market model stopped (tests that want a book with only their own orders). */
  readonly marketStopped?: boolean;
  /** Journal entries between engine snapshots; default: by the work since the last one (engine/engine-snapshot.ts). */
  readonly snapshotEvery?: number;
  /** Rebuild the state from the whole journal, not from a snapshot (after a snapshot failed to restore). */
  readonly ignoreSnapshots?: boolean;
}

export interface RunningEmulator {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  readonly config: EmulatorConfig;
  readonly clock: Clock;
  /** Present when the clock is virtual: tests move time with advance(). */
  readonly virtualClock: VirtualClock | undefined;
  readonly context: EmulatorContext;
  readonly accounts: AccountRegistry;
  readonly faults: FaultInjector;
  readonly limits: RateLimits;
  readonly spot: SpotEngine;
  readonly contract: ContractEngine;
  /** The market model over its epochs (engine/market-epochs.ts): contract price boards of the current one. */
  readonly market: MarketEpochs;
  /** STP groups, blacklists, fee schedules and the PnL analysis (handlers/account-ext-services.ts). */
  readonly accountExt: AccountExtServices;
  /** Journal entries the restored state reflects (0 on a fresh start or without persistence). */
  readonly replayed: number;
  /** Of those, the entries replayed after the snapshot the start restored (all of them without one). */
  readonly replayedTail: number;
  /** Seq of the journal entry the restored snapshot reflects (undefined: none was used). */
  readonly snapshotSeq: number | undefined;
  /** Moves virtual time forward (firing the market model's timers); throws on a system clock. */
  advance(ms: number): void;
  /** Every engine consistency rule (books, ledgers, orders); empty when all hold. */
  checkInvariants(): string[];
  stop(): Promise<void>;
}

const ACCOUNTS_META = 'initialisedAccounts';
const INSTRUMENTS_META = 'instruments';
const STARTED_META = 'firstStart';

export async function startEmulator(
  input: EmulatorConfig | EmulatorConfigInput = {},
  options: StartEmulatorOptions = {},
): Promise<RunningEmulator> {
  const config = isParsed(input) ? input : parseEmulatorConfig(input);
  const virtualClock =
    options.clock instanceof VirtualClock
      ? options.clock
      : !options.clock && config.clock.mode === 'virtual'
        ? new VirtualClock(config.clock.start)
        : undefined;
  const baseClock: Clock = options.clock ?? virtualClock ?? new SystemClock();
  const clock = new PinnedClock(baseClock);
  const latencyClock = new SystemClock();
  const random = new SeededRandom(config.seed);

  const spotList: SpotInstrument[] = config.instruments.spot.map((s) => toSpotInstrument(s, config.fees.spot));
  const contractList: ContractInstrument[] = applyFeeSchedules(
    config.instruments.contract.map((c) => toContractInstrument(c, config.fees.contract)),
    config.fees.contractSchedules,
  );
  const spotInstruments = new Map(spotList.map((i) => [i.symbol as string, i]));
  const contractInstruments = new Map(contractList.map((i) => [i.symbol as string, i]));
  const contractIds = new Map(config.instruments.contract.map((c, i) => [c.symbol, c.id ?? 1000 + i]));

  const accounts = new AccountRegistry(config.accounts);
  const journal = config.persistence
    ? openJournal(config.persistence.path, clock, [...spotInstruments.keys(), ...contractInstruments.keys()].join(','))
    : undefined;
  const startedAt = Number(journal?.meta(STARTED_META) ?? clock.now());
  journal?.setMeta(STARTED_META, String(startedAt));
  const accountSettings = journaled(accounts, 'accounts', ['setPlatformDeduct'], journal);
  const context: EmulatorContext = {
    config,
    clock,
    accounts,
    accountSettings,
    startedAt,
    spotInstruments,
    contractInstruments,
    contractIds,
    offlineSymbols: [],
  };
  const reportError =
    options.onInternalError ??
    ((err: unknown, id: string | undefined) => {
      process.stderr.write(
        `emulator: internal error in ${id ?? 'request'}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
      );
    });

  const accountExt = new AccountExtServices({
    clock,
    accounts,
    contractInstruments: contractList,
    fees: config.fees,
    journal,
    createdAt: startedAt,
    settings: (id) => {
      const a = config.accounts.find((x) => x.name === id);
      return { master: a?.master, contractFeeDeduct: a?.contract.feeDeduct };
    },
  });
  const spot = new SpotEngine({
    clock,
    instruments: spotList,
    maxOpenOrders: config.limits.maxOpenOrders,
    ...(journal ? { journal } : {}),
  });
  const contract = new ContractEngine({
    clock,
    instruments: contractList,
    collectCycleHours: config.funding.cycleHours,
    ...(journal ? { journal } : {}),
    feeRates: accountExt.contractFeeRates,
    sameStpGroup: accountExt.contractSameStpGroup,
  });
  // Before the journal is replayed or anyone is funded: the fee model and the PnL recorder see every event.
  accountExt.attach(spot, contract);
  const market = new MarketEpochs({
    config,
    clock,
    spot,
    contract,
    spotInstruments: spotList,
    contractInstruments: contractList,
    journal,
    onError: (e) => reportError(e, 'market.tick'),
  });

  // ---- state: the newest snapshot and the journal's tail after it (or all of it), or fund a fresh venue
  const parts: EngineParts | undefined = journal
    ? { spot, contract, market, accountExt, accounts, clock, journal, external: [config, context] }
    : undefined;
  let restored: ReturnType<typeof restoreEngineSnapshot> = { skipped: [] };
  if (parts && !options.ignoreSnapshots) {
    try {
      restored = restoreEngineSnapshot(parts);
    } catch (e) {
      // The snapshot was sound but does not fit this build's engines, and the half-restored engines are
      // unusable: build them again from the journal alone.
      reportError(
        new Error(`snapshot could not be restored (${(e as Error).message}); replaying the whole journal`),
        'persistence.snapshot',
      );
      accountExt.stop();
      contract.stop();
      journal!.close();
      return startEmulator(config, { ...options, ignoreSnapshots: true });
    }
  }
  for (const why of restored.skipped) reportError(new Error(`${why}; restoring from an older state`), 'persistence.snapshot');
  const fromSnapshot = 'seq' in restored ? restored : undefined;
  const replayStart = latencyClock.now();
  const tail = journal
    ? replayJournal(
        journal,
        clock,
        { spot: spot.reader, contract: contract.reader, accounts, market, ...accountExt.replayTargets() },
        fromSnapshot?.seq ?? 0,
      )
    : { count: 0, lastTime: -Infinity };
  const replayMs = latencyClock.now() - replayStart;
  const replayed = (fromSnapshot?.entries ?? 0) + tail.count;
  const lastTime = Math.max(fromSnapshot?.time ?? -Infinity, tail.lastTime);
  if (virtualClock && replayed > 0) {
    // Virtual time resumes where the last run stopped (or, after a crash, at its last command).
    const last = Math.max(Number(journal!.meta('lastTime') ?? -Infinity), lastTime);
    if (last > virtualClock.now()) virtualClock.advanceTo(last);
  }
  if (replayed === 0) {
    spot.fundCrowd();
    contract.fundCrowd();
    for (const s of spotList) {
      const p = startPriceOf(config, s.baseAsset, s.symbol);
      if (p !== undefined) spot.venue.setReferencePrice(s.symbol, p);
    }
  }
  const initialised = new Set<string>(JSON.parse(journal?.meta(ACCOUNTS_META) ?? '[]') as string[]);
  for (const a of accounts.all()) {
    if (initialised.has(a.id)) continue;
    for (const [asset, amount] of Object.entries(a.initialSpotBalances)) if (Number(amount) > 0) spot.venue.deposit(a.id, asset, amount);
    contract.venue.openAccount(a.id);
    for (const [asset, amount] of Object.entries(a.initialContractBalances))
      if (Number(amount) > 0) contract.venue.deposit(a.id, asset, amount);
    initialised.add(a.id);
  }
  journal?.setMeta(ACCOUNTS_META, JSON.stringify([...initialised]));

  // ---- market model and the timeline (midnight snapshots, model steps)
  const timeline = new EmulatorTimeline({
    clock,
    midnight: (at) => accountExt.takeMidnightSnapshot(at),
    onError: (e, job) => reportError(e, job === 'step' ? 'market.tick' : 'pnl.midnight'),
  });
  if (options.marketStopped) {
    market.openStopped(replayed);
    timeline.start();
  } else {
    const schedule = market.open(replayed);
    timeline.start({ ...schedule, run: () => market.step() });
  }

  // A snapshot that fails is reported and the run goes on: the journal alone still restores everything.
  const snapshot = (p: EngineParts) => {
    try {
      takeEngineSnapshot(p);
    } catch (e) {
      reportError(e, 'persistence.snapshot');
    }
  };
  // ---- snapshots: by the work done since the last one (a replayed tail counts as done)
  if (parts) {
    const policy = {
      ...SNAPSHOT_POLICY,
      run: () => snapshot(parts),
      wallNow: () => latencyClock.now(),
      everyEntries: options.snapshotEvery,
    };
    parts.journal.onCheckpoint(policy, tail.count, replayMs);
  }

  // ---- HTTP
  const handlers = emulatorHandlers({ context, spot, contract, prices: market, accountExt }).table();
  const faults = new FaultInjector(
    random.fork('faults'),
    config.faults.rules,
    config.faults.log ? (r, t) => process.stderr.write(`emulator fault ${r.kind} ${t.endpointId ?? t.path}\n`) : undefined,
  );
  const limits = new RateLimits(clock, config.rateLimits);
  const requestStepMs = config.clock.mode === 'virtual' ? config.clock.stepMs : 0;
  const server = new EmulatorServer({
    clock,
    latencyClock,
    routes: new RouteTable([...allEndpoints, ...SPOT_ACCOUNT_EXT_ROUTES]),
    handlers,
    accounts,
    limits,
    faults,
    maxBodyBytes: config.limits.maxBodyBytes,
    transport: config.limits,
    ...(virtualClock && requestStepMs > 0 ? { beforeRequest: () => virtualClock.advanceBy(requestStepMs) } : {}),
    ...(journal ? { journal } : {}),
    onInternalError: reportError,
  });
  let port: number;
  try {
    port = await server.listen(config.host, config.port);
  } catch (e) {
    timeline.stop();
    market.close();
    accountExt.stop();
    contract.stop();
    journal?.close();
    throw e;
  }
  let stopped = false;
  return {
    url: `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`,
    port,
    config,
    clock,
    virtualClock,
    context,
    accounts,
    faults,
    limits,
    spot,
    contract,
    market,
    accountExt,
    replayed,
    replayedTail: tail.count,
    snapshotSeq: fromSnapshot?.seq,
    advance(ms: number) {
      if (!virtualClock) throw new Error('advance() needs a virtual clock (clock.mode: virtual)');
      virtualClock.advanceBy(ms);
    },
    checkInvariants() {
      return [...spot.reader.checkInvariants().map((m) => `spot: ${m}`), ...contract.reader.checkInvariants().map((m) => `contract: ${m}`)];
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      timeline.stop();
      // Before the market closes (its epoch is part of the snapshot): a clean stop restarts with no tail.
      if (parts && parts.journal.position().seq > (fromSnapshot?.seq ?? 0)) snapshot(parts);
      market.close();
      accountExt.stop();
      contract.stop();
      await server.close();
      if (journal) {
        journal.setMeta('lastTime', String(clock.now()));
        journal.close();
      }
      latencyClock.unrefAll();
    },
  };
}

function startPriceOf(config: EmulatorConfig, base: string, symbol: string): string | undefined {
  if (config.market.source !== 'synthetic') return undefined;
  return config.market.underlyings[base]?.price ?? DEFAULT_START_PRICES[symbol] ?? DEFAULT_START_PRICES[`${base}USDT`];
}

function openJournal(path: string, clock: PinnedClock, instruments: string): CommandJournal {
  const j = new CommandJournal(path, clock);
  const stored = j.meta(INSTRUMENTS_META);
  if (stored !== undefined && stored !== instruments) {
    j.close();
    throw new ConfigError(
      'persistence.path',
      `expected a journal written for instruments ${instruments}; ${path} holds ${stored} (move it away or restore the config)`,
    );
  }
  j.setMeta(INSTRUMENTS_META, instruments);
  return j;
}

function isParsed(c: EmulatorConfig | EmulatorConfigInput): c is EmulatorConfig {
  // A parsed config has every section filled in; an input may leave them out.
  const x = c as Partial<EmulatorConfig>;
  return (
    x.rateLimits !== undefined &&
    x.limits !== undefined &&
    x.clock !== undefined &&
    x.instruments !== undefined &&
    x.faults !== undefined &&
    x.market !== undefined &&
    Array.isArray(x.accounts)
  );
}
