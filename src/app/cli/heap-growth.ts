/**
 * How far V8 lets the heap grow past what a full collection leaves alive, for the batch commands
 * (backtest, sweep, the sweep's queue worker).
 *
 * V8 sizes the next old-generation limit at up to 4× the live heap when collections are fast next to the
 * work between them, which is what a backtest looks like: the 90-day spot market maker (live heap
 * 54 → 100 MB over the run) peaked at 551 MB RSS. At 1.5× (`--heap-growing-percent=50`) the same run
 * peaked at 306–346 MB with the same report byte for byte; issue 13's budget is 400 MB. The price is more
 * full collections: on the sample week of the same strategy, 22.1 s of user CPU against 20.3 s (+9 %,
 * four alternating pairs at load 3.4–3.6) for 178 MB against 268 MB. A run that must be fastest and has
 * the memory sets PERPETUA_HEAP_GROWTH=default.
 *
 * Set once at start, before the run allocates: set at run time it takes effect (the 346 MB above was
 * measured so; `node --heap-growing-percent=50` gave 319 MB). Worker threads share the process's flags. A percent the user gave node itself (`node --heap-growing-percent=…`
 * or NODE_OPTIONS) wins; PERPETUA_HEAP_GROWTH=<percent> sets another, `default` leaves V8's own.
 */
import { setFlagsFromString } from 'node:v8';
import { ConfigError } from '../../core/errors.js';

/** Heap limit = live × (1 + percent / 100). */
export const BATCH_HEAP_GROWTH_PERCENT = 50;

const FLAG = '--heap-growing-percent';

/** The percent to set: undefined when node was given one or the user asked for V8's default. */
export function batchHeapGrowth(execArgv: readonly string[], env: NodeJS.ProcessEnv): number | undefined {
  if (execArgv.some((a) => a.startsWith(FLAG)) || (env.NODE_OPTIONS ?? '').includes(FLAG)) return undefined;
  const asked = env.PERPETUA_HEAP_GROWTH?.trim();
  if (asked === undefined || asked === '') return BATCH_HEAP_GROWTH_PERCENT;
  if (asked === 'default') return undefined;
  const n = Number(asked);
  if (!Number.isInteger(n) || n < 1 || n > 1000) {
    throw new ConfigError('PERPETUA_HEAP_GROWTH', `expected an integer percent from 1 to 1000 or "default", got "${asked}"`);
  }
  return n;
}

/** Applies batchHeapGrowth to this process. */
export function useBatchHeapGrowth(): void {
  const percent = batchHeapGrowth(process.execArgv, process.env);
  if (percent !== undefined) setFlagsFromString(`${FLAG}=${percent}`);
}
