/**
 * Where a run's time goes, by stage: the V8 sampling profiler (node:inspector, in this process) over a
 * few runs, each sample charged to the stage of the innermost frame that belongs to one (decimal.js,
 * RxJS and the like are charged to whoever called them), garbage collection apart. Sampling costs a
 * little, so stages are reported as shares of the profiled time and converted to ns per event with
 * the UNPROFILED time per event measured by the caller.
 */
import { Session } from 'node:inspector/promises';

/** A stage and the source files (compiled paths) whose frames belong to it; the first match wins. */
export interface Stage {
  readonly name: string;
  readonly files: RegExp;
}

export interface StageShares {
  /** Share of the profiled time per stage name, plus `gc` and `other`; they sum to 1. */
  readonly shares: ReadonlyMap<string, number>;
  /** Profiled wall time, ms. */
  readonly profiledMs: number;
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string };
  readonly children?: readonly number[];
}

interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** Profiles `runs` calls of `fn` (after they were warmed up by the caller) and splits the time by stage. */
export async function profileStages(stages: readonly Stage[], runs: number, fn: () => Promise<unknown>): Promise<StageShares> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    // Starting the profiler costs a moment (it notes every compiled function): one run absorbs it.
    await session.post('Profiler.start');
    await fn();
    await session.post('Profiler.stop');
    await session.post('Profiler.start');
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < runs; i++) await fn();
    const profiledMs = Number(process.hrtime.bigint() - t0) / 1e6;
    const { profile } = (await session.post('Profiler.stop')) as { profile: Profile };
    return { shares: split(profile, stages), profiledMs };
  } finally {
    session.disconnect();
  }
}

const PROFILER = '(profiler)';

function split(p: Profile, stages: readonly Stage[]): Map<string, number> {
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const n of p.nodes) {
    byId.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  const stageOf = new Map<number, string>();
  const classify = (id: number): string => {
    const known = stageOf.get(id);
    if (known !== undefined) return known;
    const n = byId.get(id)!;
    const name = n.callFrame.functionName;
    let s: string | undefined;
    const url = n.callFrame.url;
    if (name === '(garbage collector)') s = 'gc';
    else if (name === '(idle)' || name === '(program)' || name === '(root)') s = 'other';
    else if (url.startsWith('node:inspector')) s = PROFILER;
    else {
      for (const st of stages) {
        if (st.files.test(url)) {
          s = st.name;
          break;
        }
      }
      if (s === undefined) {
        const up = parent.get(id);
        s = up === undefined ? 'other' : classify(up);
      }
    }
    stageOf.set(id, s);
    return s;
  };
  const time = new Map<string, number>();
  let total = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const dt = p.timeDeltas[i] ?? 0;
    const s = classify(p.samples[i]!);
    // Stopping the profiler (collecting the profile) is not part of the runs.
    if (s === PROFILER) continue;
    time.set(s, (time.get(s) ?? 0) + dt);
    total += dt;
  }
  const out = new Map<string, number>();
  for (const [s, t] of time) out.set(s, total > 0 ? t / total : 0);
  return out;
}
