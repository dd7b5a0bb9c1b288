/**
 * The finished runs of a sweep on disk, so a sweep stopped by Ctrl-C (or killed) loses none of them and
 * `perpetua sweep --resume` runs only the rest.
 *
 * `<out>/checkpoint.jsonl`: a first line naming the data the runs were made from (its content hash),
 * then one line per finished point — its run (with the rungs it reached and where pruning stopped it),
 * or why it is infeasible — appended synchronously as each run finishes (a line is in the file
 * before the next run is counted). A run's key is the hash of what its result depends on: the config
 * document with the point's parameters and the fill model (the data is the header's). A torn last line
 * (the process killed mid-write) is dropped; a checkpoint of other data is refused, never mixed in.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../core/errors.js';
import { canonicalJson } from './report/backtest-run.js';
import type { RunPruning } from './research/asha.js';
import { type SweepOutcome, type SweepOutcomeJson, outcomeFromJson, outcomeToJson, runOutcomeExtras } from './sweep-outcome.js';

const VERSION = 1;

interface Header {
  readonly checkpoint: number;
  readonly dataHash: string;
}

type Line = { readonly key: string } & SweepOutcomeJson;

/**
 * The key of one run: its config document (parameters applied) and fill model, hashed; with pruning,
 * the rung times and thresholds too (they decide where the run stops).
 */
export function checkpointKey(document: Readonly<Record<string, unknown>>, fillModel: string, pruning?: RunPruning): string {
  return createHash('sha256')
    .update(JSON.stringify(canonicalJson({ document, fillModel, ...(pruning ? { pruning } : {}) })))
    .digest('hex');
}

export class SweepCheckpoint {
  private constructor(
    readonly path: string,
    /** The outcome of each key: parsed at open, or the line as put (one string: no graph for the GC to walk). */
    private readonly runs: Map<string, SweepOutcomeJson | string>,
  ) {}

  /**
   * Opens `<out>/checkpoint.jsonl`. With `resume`, the runs in it are kept (refused when they were made
   * from other data); without, a new checkpoint replaces any old one.
   */
  static open(out: string, dataHash: string, resume: boolean): SweepCheckpoint {
    mkdirSync(out, { recursive: true });
    const path = join(out, 'checkpoint.jsonl');
    const runs = new Map<string, SweepOutcomeJson | string>();
    if (resume && existsSync(path)) {
      const lines = readFileSync(path, 'utf8').split('\n');
      const header = parseLine<Header>(lines[0] ?? '');
      if (!header || header.checkpoint !== VERSION) {
        throw new ConfigError('--resume', `expected a sweep checkpoint in ${path}; its first line is not one`);
      }
      if (header.dataHash !== dataHash) {
        const had = header.dataHash.slice(0, 16);
        const now = dataHash.slice(0, 16);
        const why = `the runs in ${path} were made from other data (content hash ${had}…, now ${now}…)`;
        throw new ConfigError('--resume', `${why}; run without --resume`);
      }
      for (const text of lines.slice(1)) {
        const line = parseLine<Line>(text);
        if (line && typeof line.key === 'string' && ('run' in line || 'infeasible' in line)) {
          const { key, ...outcome } = line;
          runs.set(key, outcome);
        }
      }
      return new SweepCheckpoint(path, runs);
    }
    writeFileSync(path, `${JSON.stringify({ checkpoint: VERSION, dataHash } satisfies Header)}\n`);
    return new SweepCheckpoint(path, runs);
  }

  /** Finished runs in the file (read back at open, and put since). */
  get size(): number {
    return this.runs.size;
  }

  get(key: string): SweepOutcome | undefined {
    const j = this.runs.get(key);
    if (j === undefined) return undefined;
    if (typeof j !== 'string') return outcomeFromJson(j);
    const { key: _key, ...outcome } = JSON.parse(j) as Line;
    return outcomeFromJson(outcome);
  }

  put(key: string, outcome: SweepOutcome): void {
    if (this.runs.has(key)) return;
    const line = checkpointLine(key, outcome);
    // Synchronous: once the run is counted it is on disk, whatever signal comes next.
    appendFileSync(this.path, `${line}\n`);
    this.runs.set(key, line);
  }
}

/**
 * The line of one outcome: `JSON.stringify({ key, ...outcomeToJson(outcome) })`, the same bytes, with a
 * run that came as text (`runText`) spliced in rather than encoded again.
 */
export function checkpointLine(key: string, outcome: SweepOutcome): string {
  if (outcome.kind !== 'run' || outcome.runText === undefined) return JSON.stringify({ key, ...outcomeToJson(outcome) } satisfies Line);
  const extras = JSON.stringify(runOutcomeExtras(outcome));
  return `{"key":${JSON.stringify(key)},"run":${outcome.runText}${extras === '{}' ? '' : `,${extras.slice(1, -1)}`}}`;
}

/** A line of JSON, or undefined for a torn or foreign one. */
function parseLine<T>(text: string): T | undefined {
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}
