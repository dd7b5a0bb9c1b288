/**
 * Journal cost of the emulator per simulated hour: runs the default market (4 instruments, 10 crowd
 * levels, 1 s steps) on a virtual clock with persistence on, stops, and prints the journal's size and
 * rows, then how long a restart takes to replay it. Only public API (startEmulator, persistence.path,
 * advance), so the same script measures any build.
 *
 *   npx tsc -p tsconfig.json --outDir .build/x && node .build/x/test/emulator/support/measure-journal.js [minutes]
 */
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SystemClock } from '../../../src/core/clock.js';
import { startEmulator } from '../../../src/emulator/start-emulator.js';

const minutes = Number(process.argv[2] ?? 60);
const wall = new SystemClock();
const dir = mkdtempSync(join(tmpdir(), 'journal-size-'));
const path = join(dir, 'paper.sqlite');
const config = { seed: 42, clock: { mode: 'virtual' as const, start: '2026-01-01T00:00:00Z' }, persistence: { path } };
try {
  let t = wall.now();
  const emu = await startEmulator(config);
  for (let s = 0; s < minutes * 60; s++) emu.advance(1000);
  await emu.stop();
  const runMs = wall.now() - t;
  const bytes = statSync(path).size + (existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0);
  const db = new Database(path, { readonly: true });
  const rows = (db.prepare('SELECT COUNT(*) AS n FROM commands').get() as { n: number }).n;
  const byKind = db.prepare("SELECT target || '.' || method AS kind, COUNT(*) AS n FROM commands GROUP BY kind ORDER BY n DESC").all() as {
    kind: string;
    n: number;
  }[];
  db.close();
  t = wall.now();
  const again = await startEmulator(config);
  const restartMs = wall.now() - t;
  await again.stop();
  const perHour = (x: number) => Math.round((x * 60) / minutes);
  console.table([
    {
      simulatedMinutes: minutes,
      journalBytes: bytes,
      rows,
      bytesPerHour: perHour(bytes),
      rowsPerHour: perHour(rows),
      runMs,
      restartMs,
      replayed: again.replayed,
    },
  ]);
  console.table(byKind);
} finally {
  rmSync(dir, { recursive: true, force: true });
  wall.unrefAll();
}
