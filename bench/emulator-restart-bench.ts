/**
 * Emulator restart time against the simulated history behind it (issue 10: a day of history restarts
 * in under 2 s). History is generated on a virtual clock with a persistence file; the generating
 * emulator is then left as it is — not stopped, so no final snapshot is written, as after a SIGKILL —
 * and a second emulator is started on the same file and timed until it listens: the newest snapshot
 * plus the journal's tail after it. Baselines in the same run: a fresh start (no state), and for the
 * hour the old start, which replayed the whole journal (the same file with its snapshots deleted).
 *
 * The hour runs the model at its default 1 s steps; the day at 10 s steps (8 640 steps) so the bench
 * generates it in about a minute on a shared machine — restart time depends on the state's size and
 * the tail, which do not grow with the number of steps (the crowd's closed orders are not kept).
 */
import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EmulatorConfigInput } from '../src/emulator/emulator-config.js';
import { startEmulator, type RunningEmulator } from '../src/emulator/start-emulator.js';
import type { BenchRow } from './bench-row.js';

const HOUR_MS = 3_600_000;

function config(path: string | undefined, stepMs: number): EmulatorConfigInput {
  return {
    seed: 3,
    clock: { mode: 'virtual', start: Date.parse('2026-01-01T00:00:00Z'), stepMs: 0 },
    instruments: { spot: ['BTCUSDT'], contract: ['BTC_USDT'] },
    market: { source: 'synthetic', stepMs },
    accounts: [
      {
        name: 'bench',
        apiKey: 'mx0vglBenchKey002',
        secretKey: 'bench-secret-0123456789abcdef',
        spot: { balances: { USDT: '100000' } },
        contract: { balances: { USDT: '100000' } },
      },
    ],
    ...(path ? { persistence: { path } } : {}),
  };
}

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

/** Wall time to listening, and the process's CPU time in it (on a shared machine the wall time includes waiting for a core). */
async function timedStart(cfg: EmulatorConfigInput): Promise<{ emu: RunningEmulator; ms: number; cpuMs: number }> {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const emu = await startEmulator(cfg);
  const wall = ms(t0);
  const c = process.cpuUsage(c0);
  return { emu, ms: wall, cpuMs: (c.user + c.system) / 1000 };
}

interface Restart {
  readonly restartMs: number;
  readonly restartCpuMs: number;
  readonly tail: number;
  readonly entries: number;
  readonly generateS: number;
  readonly wholeJournalMs?: number;
}

async function restartAfter(dir: string, name: string, historyMs: number, stepMs: number, wholeJournal: boolean): Promise<Restart> {
  const path = join(dir, `${name}.sqlite`);
  const cfg = config(path, stepMs);
  const t0 = process.hrtime.bigint();
  const first = await startEmulator(cfg);
  for (let t = 0; t < historyMs; t += stepMs) first.advance(stepMs);
  const generateS = ms(t0) / 1000;
  // No stop(): the file is as a killed process leaves it (the journal committed, no final snapshot).
  const again = await timedStart(cfg);
  const out: Restart = {
    restartMs: again.ms,
    restartCpuMs: again.cpuMs,
    tail: again.emu.replayedTail,
    entries: again.emu.replayed,
    generateS,
  };
  await again.emu.stop();
  let wholeJournalMs: number | undefined;
  if (wholeJournal) {
    const copy = join(dir, `${name}-journal-only.sqlite`);
    copyFileSync(path, copy);
    const db = new Database(copy);
    db.exec('DELETE FROM snapshots');
    db.close();
    const old = await timedStart(config(copy, stepMs));
    wholeJournalMs = old.ms;
    await old.emu.stop();
  }
  await first.stop();
  return { ...out, ...(wholeJournalMs !== undefined ? { wholeJournalMs } : {}) };
}

export async function restartRows(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'perpetua-restart-bench-'));
  try {
    const freshMs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const f = await timedStart(config(join(dir, `fresh-${i}.sqlite`), 1000));
      freshMs.push(f.ms);
      await f.emu.stop();
    }
    const fresh = Math.min(...freshMs);
    const hour = await restartAfter(dir, 'hour', HOUR_MS, 1000, true);
    const day = await restartAfter(dir, 'day', 24 * HOUR_MS, 10_000, false);
    const note = (r: Restart) =>
      `${r.entries} journal entries, ${r.tail} replayed after the newest snapshot; CPU time of the restart ${Math.round(r.restartCpuMs)} ms; ` +
      `history generated in ${r.generateS.toFixed(0)} s` +
      (r.wholeJournalMs !== undefined
        ? `; replaying the whole journal (the start before snapshots) took ${Math.round(r.wholeJournalMs)} ms`
        : '');
    return [
      {
        name: 'emulator restart after 1 h simulated (1 s steps), as after a kill',
        ours: hour.restartMs,
        baseline: fresh,
        baselineName: 'fresh start',
        unit: 'ms',
        budget: 2000,
        higherIsBetter: false,
        note: note(hour),
      },
      {
        name: 'emulator restart after 1 day simulated (10 s steps), as after a kill',
        ours: day.restartMs,
        baseline: fresh,
        baselineName: 'fresh start',
        unit: 'ms',
        budget: 2000,
        higherIsBetter: false,
        note: note(day),
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
