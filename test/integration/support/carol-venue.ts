/**
 * A contract venue for tests of fills the venue makes on its own (TP/SL, trailing and plan orders):
 * the emulator in this process with its market stopped — prices move only when the test sets them
 * (setFairPrice) — BTC_USDT fair and index at 87 500, and a counterparty, carol, resting a bid of 20 at
 * 87 500 and an ask of 40 at 87 600. `byHand` is the bot's own account used from outside the bot.
 */
import { join } from 'node:path';
import { ContractClient } from '../../../src/client/contract-client.js';
import { type Decimal, ZERO } from '../../../src/core/decimal.js';
import { contractSymbol, type StrategyId } from '../../../src/core/ids.js';
import type { ExecutionEvent } from '../../../src/domain/execution-event.js';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/start-emulator.js';
import { REFERENCE_STRATEGIES } from '../../../strategies/index.js';
import { clock, emulatorConfig, IT_ACCOUNT, type PaperRun, runDoc, startRun, tempDir } from './paper-harness.js';
import { ScriptedStrategy } from './scripted-strategy.js';

export const CAROL_SYMBOL = contractSymbol('BTC_USDT');
const CAROL = { name: 'carol', apiKey: 'mx0vglCarolKey01', secretKey: 'carol-secret-0123456789abcdef' } as const;

/** The stopped emulator with carol's account, fair and index price at 87 500 (no orders yet). */
export async function startStoppedVenue(): Promise<RunningEmulator> {
  const base = emulatorConfig();
  const carolAccount = { name: CAROL.name, apiKey: CAROL.apiKey, secretKey: CAROL.secretKey, contract: { balances: { USDT: '50000' } } };
  const e = await startEmulator(
    { ...base, accounts: [...(base.accounts ?? []), carolAccount] },
    { marketStopped: true, onInternalError: (err, id) => process.stderr.write(`emulator internal error in ${id}: ${String(err)}\n`) },
  );
  e.contract.venue.setFairPrice(CAROL_SYMBOL, '87500');
  e.contract.venue.setIndexPrice(CAROL_SYMBOL, '87500');
  return e;
}

export interface CarolVenue {
  readonly emu: RunningEmulator;
  readonly carol: ContractClient;
  readonly byHand: ContractClient;
  close(): Promise<void>;
}

const clientOf = (e: RunningEmulator, apiKey: string, secretKey: string) =>
  new ContractClient({ baseUrl: e.url, clock, rateLimits: false, timeSync: false, credentials: { apiKey, secretKey } });

/** startStoppedVenue() with carol's bid of 20 at 87 500 and ask of 40 at 87 600 resting. */
export async function startCarolVenue(): Promise<CarolVenue> {
  const emu = await startStoppedVenue();
  const carol = clientOf(emu, CAROL.apiKey, CAROL.secretKey);
  const byHand = clientOf(emu, IT_ACCOUNT.apiKey, IT_ACCOUNT.secretKey);
  await carol.createOrder({ symbol: CAROL_SYMBOL, price: 87500, vol: 20, leverage: 10, side: 1, type: 1, openType: 1 });
  await carol.createOrder({ symbol: CAROL_SYMBOL, price: 87600, vol: 40, leverage: 10, side: 3, type: 1, openType: 1 });
  return {
    emu,
    carol,
    byHand,
    close: async () => {
      await carol.close();
      await byHand.close();
      await emu.stop();
    },
  };
}

type Ev<T extends ExecutionEvent['type']> = Extract<ExecutionEvent, { type: T }>;

/**
 * Registers, in the calling describe, a carol venue and a journal folder per test, and stops every run
 * started through it afterwards. Runs trade BTC_USDT as IT_ACCOUNT (contract polled every 250 ms,
 * reconciled every 500 ms) with the reference strategies and the scripted one.
 */
export function carolRuns(label: string) {
  let venue: CarolVenue | undefined;
  let tmp: ReturnType<typeof tempDir> | undefined;
  const runs: PaperRun[] = [];
  beforeEach(async () => {
    tmp = tempDir(label);
    venue = await startCarolVenue();
  });
  afterEach(async () => {
    for (const r of runs.splice(0)) {
      await r.stop('test over').catch(() => undefined);
      r.dispose();
    }
    await venue?.close();
    tmp?.remove();
  });
  const doc = (url: string, strategy: Record<string, unknown>) =>
    runDoc(url, join(tmp!.dir, 'bot.sqlite'), {
      venue: { contractTrading: true },
      instruments: ['BTC_USDT'],
      marketData: { maxSnapshotAgeMs: 3000, contract: { cycleMs: 250, streams: { depth: { limit: 5 }, ticker: {} } } },
      execution: { reconcileIntervalMs: 500 },
      strategies: [strategy],
    });
  return {
    get emu(): RunningEmulator {
      return venue!.emu;
    },
    /** The bot's own account, used from OUTSIDE the bot (orders placed by hand). */
    get byHand(): ContractClient {
      return venue!.byHand;
    },
    runs,
    /** Starts a run on the test's journal, against this venue or the one at `url`. */
    async start(strategy: Record<string, unknown>, url = venue!.emu.url): Promise<PaperRun> {
      const r = await startRun(doc(url, strategy), [...REFERENCE_STRATEGIES, ScriptedStrategy]);
      runs.push(r);
      return r;
    },
    /** SIGKILL-like: the runtime halts without shutdown. */
    async kill(r: PaperRun): Promise<void> {
      runs.splice(runs.indexOf(r), 1);
      await r.kill();
    },
    /** The net BTC_USDT position of strategy `sid` in the run's book. */
    held: (r: PaperRun, sid: StrategyId): Decimal =>
      r.runtime.state.positions(sid).find((p) => p.symbol === CAROL_SYMBOL && p.leg === 'net')?.quantity ?? ZERO,
    /** The run's journaled events of one type. */
    events: <T extends ExecutionEvent['type']>(r: PaperRun, type: T): Ev<T>[] =>
      r.journal.events().filter((e): e is Ev<T> => e.type === type),
  };
}
