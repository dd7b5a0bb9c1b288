/**
 * A paper run with its console: the emulator in this process (real HTTP), the runtime assembled by
 * the same container as `perpetua run`, and the console server on an ephemeral port of 127.0.0.1.
 *
 * Two strategies: `mm1`, the reference spot market maker on BTCUSDT (quotes at the touch, filled by
 * the emulator's takers a few times a minute), and `pos1`, a scripted contract strategy that buys 10
 * BTC_USDT contracts at market (long leg) and rests one buy 5 % below and one sell 5 % above the fair price.
 */
import { join } from 'node:path';
import { request } from 'undici';
import { D, roundToTick } from '../../../src/core/decimal.js';
import { contractSymbol } from '../../../src/core/ids.js';
import { fairPrice, lastPrice } from '../../../src/domain/snapshot.js';
import type { RunningEmulator } from '../../../src/emulator/start-emulator.js';
import { startConsole, type RunningConsole } from '../../../src/console/start-console.js';
import type { StrategyContext } from '../../../src/strategy/strategy-context.js';
import { REFERENCE_STRATEGIES } from '../../../strategies/index.js';
import { clock, runDoc, startRun, startTestEmulator, tempDir, type PaperRun } from '../../integration/support/paper-harness.js';
import { SCRIPTS, ScriptedStrategy } from '../../integration/support/scripted-strategy.js';

export const TOKEN = 'console-test-token-0123456789';
export const PERP = contractSymbol('BTC_USDT');

SCRIPTS.set('console-perp', (ctx: StrategyContext) => {
  const s = ctx.lastSnapshot(PERP)!;
  const fair = fairPrice(s) ?? lastPrice(s)!;
  const tick = D('0.1');
  const opts = { leverage: 5, marginMode: 'isolated' as const };
  return [
    // The emulator's account is in hedged mode: each order names the leg it opens.
    ctx.intents.market(PERP, 'buy', '10', { ...opts, positionSide: 'long' }),
    ctx.intents.limit(PERP, 'buy', roundToTick(fair.mul(0.95), tick, 'down'), '10', { ...opts, positionSide: 'long' }),
    ctx.intents.limit(PERP, 'sell', roundToTick(fair.mul(1.05), tick, 'up'), '10', { ...opts, positionSide: 'short' }),
  ];
});

export interface ConsoleRunKit {
  readonly emu: RunningEmulator;
  readonly run: PaperRun;
  readonly web: RunningConsole;
  /** Resolves with the reason when the console asked the run to stop. */
  readonly stopRequested: Promise<string>;
  dispose(): Promise<void>;
}

/** `webhookUrl`: the console's webhook target (fill and start notices, one attempt each). */
export async function startConsoleRun(label: string, webhookUrl?: string): Promise<ConsoleRunKit> {
  const emu = await startTestEmulator();
  const tmp = tempDir(label);
  const run = await startRun(
    runDoc(emu.url, join(tmp.dir, 'console.sqlite'), {
      venue: { contractTrading: true },
      instruments: ['BTCUSDT', 'BTC_USDT'],
      marketData: {
        maxSnapshotAgeMs: 3000,
        spot: { cycleMs: 300, streams: { depth: { limit: 20 }, ticker24h: {} } },
        contract: { cycleMs: 500, streams: { depth: { limit: 5 }, ticker: {} } },
      },
      strategies: [
        {
          id: 'mm1',
          name: 'spot-market-maker',
          instruments: ['BTCUSDT'],
          params: { spreadBps: 1.2, orderSize: '0.001', maxInventory: '0.01', skewBps: 1, requoteBps: 0.4 },
        },
        { id: 'pos1', name: 'scripted', instruments: ['BTC_USDT'], params: { script: 'console-perp' } },
      ],
    }),
    [...REFERENCE_STRATEGIES, ScriptedStrategy],
  );
  let onStop: (reason: string) => void = () => {};
  const stopRequested = new Promise<string>((resolve) => (onStop = resolve));
  const config = run.loaded.config;
  const web = await startConsole({
    run: run.runtime,
    info: {
      mode: config.mode,
      venue: emu.url,
      valuationAsset: config.risk.valuationAsset,
      instruments: config.instruments,
      strategies: run.loaded.strategies.map((s, i) => ({ ...s, params: config.strategies[i]!.params })),
    },
    config: {
      port: 0,
      host: '127.0.0.1',
      tokenEnv: 'PERPETUA_CONSOLE_TOKEN',
      ...(webhookUrl ? { webhook: { url: webhookUrl, events: ['fill', 'start'], maxAttempts: 1, retryDelayMs: 10, timeoutMs: 5000 } } : {}),
    },
    env: { PERPETUA_CONSOLE_TOKEN: TOKEN },
    clock,
    logger: { debug() {}, info() {}, warn() {}, error() {} },
    requestStop: (reason) => onStop(reason),
  });
  return {
    emu,
    run,
    web,
    stopRequested,
    async dispose() {
      await web.close();
      await run.stop('test over');
      run.dispose();
      await emu.stop();
      tmp.remove();
    },
  };
}

/** waitFor for asynchronous probes: polls until `probe` resolves truthy; fails with `what` after `timeoutMs`. */
export async function until(probe: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const end = clock.now() + timeoutMs;
  while (!(await probe())) {
    if (clock.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await clock.sleep(100);
  }
}

export interface Answer<T = unknown> {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  json(): T;
}

/** One request to the console over real HTTP; `token` undefined sends no Authorization header. */
export async function call<T = unknown>(
  base: string,
  path: string,
  opts: { token?: string | undefined; body?: unknown } = { token: TOKEN },
): Promise<Answer<T>> {
  const headers: Record<string, string> = {};
  if (opts.token !== undefined) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const post = opts.body !== undefined;
  const body = post ? { body: JSON.stringify(opts.body) } : {};
  const res = await request(new URL(path, base), { method: post ? 'POST' : 'GET', headers, ...body });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, json: () => JSON.parse(text) as T };
}
