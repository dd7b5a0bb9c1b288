/**
 * Integration harness: an emulator in this process (system clock, synthetic market) and the whole
 * runtime against it over real HTTP, assembled by the same container as `perpetua run`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ContractClient } from '../../../src/client/contract-client.js';
import { SystemClock } from '../../../src/core/clock.js';
import { ZERO } from '../../../src/core/decimal.js';
import type { Fill } from '../../../src/domain/fill.js';
import type { EmulatorConfigInput } from '../../../src/emulator/emulator-config.js';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/start-emulator.js';
import type { StrategyClass } from '../../../src/strategy/strategy.js';
import { parseRunConfig, type LoadedRunConfig } from '../../../src/runtime/config/load-run-config.js';
import { RUNTIME_TOKENS } from '../../../src/runtime/runtime-tokens.js';
import { buildContainer } from '../../../src/runtime/container/build-container.js';
import { strategyCatalog } from '../../../src/runtime/container/strategy-module.js';
import type { RunSummary } from '../../../src/runtime/runtime-status.js';
import type { TradingRuntime } from '../../../src/runtime/trading-runtime.js';
import { createLogger } from '../../../src/core/logger.js';
import type { RunJournal } from '../../../src/persistence/run-journal.js';
import { REFERENCE_STRATEGIES } from '../../../strategies/index.js';

/** The account the bot trades as. Its keys open nothing but the test's own emulator. */
export const IT_ACCOUNT = { name: 'it', apiKey: 'mx0vglItDemo0001', secretKey: 'it-demo-secret-0123456789abcdef' } as const;

export const clock = new SystemClock();

/** BTCUSDT + BTC_USDT around 87 500, a crowd 20 USDT wide and three takers a second: quotes inside it fill. */
export function emulatorConfig(over: Partial<EmulatorConfigInput> = {}): EmulatorConfigInput {
  return {
    seed: 11,
    clock: { mode: 'system' },
    instruments: { spot: ['BTCUSDT'], contract: ['BTC_USDT'] },
    market: {
      source: 'synthetic',
      stepMs: 250,
      volatilityPerYear: 0.8,
      underlyings: { BTC: { price: '87500' } },
      books: {
        BTCUSDT: { spreadTicks: 2000, levels: 12, levelGapTicks: 300, touchNotional: 40000, takerArrivalPerSec: 3, takerMeanNotional: 600 },
        BTC_USDT: { spreadTicks: 200, levels: 12, levelGapTicks: 30, touchNotional: 40000, takerArrivalPerSec: 3, takerMeanNotional: 600 },
      },
    },
    accounts: [
      {
        name: IT_ACCOUNT.name,
        apiKey: IT_ACCOUNT.apiKey,
        secretKey: IT_ACCOUNT.secretKey,
        spot: { balances: { USDT: '50000', BTC: '0.5' } },
        contract: { balances: { USDT: '50000' } },
      },
    ],
    ...over,
  };
}

export async function startTestEmulator(over: Partial<EmulatorConfigInput> = {}): Promise<RunningEmulator> {
  return startEmulator(emulatorConfig(over), {
    onInternalError: (e, id) => process.stderr.write(`emulator internal error in ${id}: ${String(e)}\n`),
  });
}

/** A run config document for a running emulator, trading as IT_ACCOUNT. */
export function runDoc(emuUrl: string, journalPath: string, body: Record<string, unknown>): Record<string, unknown> {
  return {
    mode: 'paper',
    paper: { emulatorUrl: emuUrl },
    venue: {
      apiKey: IT_ACCOUNT.apiKey,
      apiSecret: IT_ACCOUNT.secretKey,
      requestTimeoutMs: 2000,
      ...((body.venue as object | undefined) ?? {}),
    },
    marketData: { maxSnapshotAgeMs: 3000, spot: { cycleMs: 300, streams: { depth: { limit: 20 }, ticker24h: {} } } },
    execution: { reconcileIntervalMs: 2000 },
    journal: { path: journalPath },
    ...Object.fromEntries(Object.entries(body).filter(([k]) => k !== 'venue')),
  };
}

/**
 * A spot market maker on BTCUSDT whose quotes never move: 2 % either side of the mid, re-quoted only
 * past 50 %. Nothing fills and nothing is cancelled while a test runs, so what the test does lands alone.
 */
export const STILL_QUOTES_MM = {
  id: 'mm1',
  name: 'spot-market-maker',
  instruments: ['BTCUSDT'],
  params: { spreadBps: 400, orderSize: '0.001', maxInventory: '0.003', requoteBps: 5000 },
} as const;

export interface PaperRun {
  readonly runtime: TradingRuntime;
  readonly journal: RunJournal;
  readonly loaded: LoadedRunConfig;
  /** The run's own contract client (the one its gateway calls), for tests that must time a venue event. */
  readonly contractClient: ContractClient | undefined;
  /** Stops the runtime (cancel on exit per config) and releases the clients; the journal stays readable. */
  stop(reason?: string): Promise<RunSummary>;
  /** Closes the journal. */
  dispose(): void;
  /**
   * A SIGKILL in one process: the runtime halts with no shutdown (no cancel, no last reconciliation,
   * the journal run left open), the clients and the journal are closed.
   */
  kill(): Promise<void>;
}

export async function startRun(
  doc: Record<string, unknown>,
  strategyClasses: readonly StrategyClass[] = REFERENCE_STRATEGIES,
): Promise<PaperRun> {
  const loaded = parseRunConfig(doc, strategyCatalog(strategyClasses), 'test config');
  const logger = process.env.PERPETUA_TEST_LOG ? createLogger({ level: process.env.PERPETUA_TEST_LOG }) : createLogger({ quiet: true });
  const container = buildContainer(loaded, { env: {}, logger, clock, strategyClasses });
  const runtime = await container.getAsync(RUNTIME_TOKENS.Runtime);
  const journal = await container.getAsync(RUNTIME_TOKENS.Journal);
  const spot = await container.getAsync(RUNTIME_TOKENS.SpotClient);
  const contract = await container.getAsync(RUNTIME_TOKENS.ContractClient);
  await runtime.start();
  // As run-command does: start-up patience ends once the runtime runs.
  spot?.engine.endStartup();
  contract?.engine.endStartup();
  let stopped: RunSummary | undefined;
  return {
    runtime,
    journal,
    loaded,
    contractClient: contract,
    async stop(reason = 'test') {
      if (stopped) return stopped;
      stopped = await runtime.stop(reason);
      await spot?.close();
      await contract?.close();
      return stopped;
    },
    dispose() {
      journal.close();
    },
    async kill() {
      await runtime.halt();
      await spot?.close();
      await contract?.close();
      journal.close();
    },
  };
}

/** Polls `probe` (sync or async) until it returns something truthy; fails with `what` after `timeoutMs`. */
type Probed<T> = T | undefined | null | false;

export async function waitFor<T>(probe: () => Probed<T> | Promise<Probed<T>>, timeoutMs: number, what: string): Promise<T> {
  const until = clock.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (clock.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await clock.sleep(100);
  }
}

export function tempDir(label: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), `perpetua-${label}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Fills in the journal against the emulator's records, as problems (empty = consistent): no trade id
 * twice, every real fill is a venue trade, each order's journaled quantity is the venue's executed
 * quantity, and every venue trade is in the journal by id — or covered by a synthetic fill of its
 * order (reconcile makes one when the venue's cumulative quantity runs ahead of the trades it has
 * read; the quantity is exact, the trade id is not the venue's).
 */
export function fillProblems(journalFills: readonly Fill[], emu: RunningEmulator, account: string, symbol: string): string[] {
  const problems: string[] = [];
  const ids = journalFills.map((f) => f.tradeId as string);
  const dupes = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (dupes.length) problems.push(`trade ids counted twice: ${dupes.join(', ')}`);
  const trades = emu.spot.reader.myTrades(account, symbol, { limit: 100 });
  if (trades.length >= 100) problems.push('more than 100 venue trades: the check would need paging');
  const venueIds = new Set(trades.map((t) => t.tradeId));
  for (const f of journalFills) if (!f.synthetic && !venueIds.has(f.tradeId)) problems.push(`journal fill ${f.tradeId} is no venue trade`);
  const synthetic = new Set(journalFills.filter((f) => f.synthetic).map((f) => f.clientOrderId as string));
  const orders = emu.spot.reader.allOrders(account, symbol, { limit: 1000 });
  const byOrderId = new Map(orders.map((o) => [o.orderId, o]));
  const journalIds = new Set(ids);
  for (const t of trades) {
    if (journalIds.has(t.tradeId)) continue;
    const cid = byOrderId.get(t.orderId)?.clientOrderId ?? t.clientOrderId;
    if (!cid || !synthetic.has(cid)) problems.push(`venue trade ${t.tradeId} (order ${cid ?? t.orderId}) is missing from the journal`);
  }
  for (const o of orders) {
    const executed = emu.spot.reader.orderView(o).executedQty;
    const journaled = journalFills.filter((f) => f.clientOrderId === o.clientOrderId).reduce((s, f) => s.plus(f.quantity), ZERO);
    if (!journaled.eq(executed))
      problems.push(`${o.clientOrderId}: journal fills ${journaled.toFixed()}, venue executed ${executed.toFixed()}`);
  }
  return problems;
}

export { journalFills } from '../../../src/app/audit/journal-venue-audit.js';
