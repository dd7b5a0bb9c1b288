/**
 * `perpetua record` as a process, against an emulator on the system clock: a recording killed with
 * SIGKILL mid-run is continued by the next run on the same store, and the store then reads back with
 * every print of the venue's tape exactly once and nothing corrupt; SIGTERM stops it cleanly.
 */
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/start-emulator.js';
import { recordCommand } from '../../../src/app/cli/record-command.js';
import type { DataRecord, RecordStream } from '../../../src/marketdata/record/record.js';
import { RecordStoreReader } from '../../../src/marketdata/store/record-store-reader.js';
import { LOCK_FILE, RecordStoreWriter } from '../../../src/marketdata/store/record-store-writer.js';
import { readManifest } from '../../../src/marketdata/store/store-manifest.js';
import type { TapeAggregator } from '../../../src/venue/market/tape-aggregator.js';
import { multiset, TempDirs } from './support/recorder-rig.js';

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'support', 'record-child.js');

interface Child {
  readonly proc: ChildProcess;
  readonly stdout: () => string;
  readonly stderr: () => string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startChild(config: string): Child {
  const proc = spawn(process.execPath, ['--enable-source-maps', CHILD, config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  proc.stderr!.on('data', (b: Buffer) => (err += b.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { proc, stdout: () => out, stderr: () => err, exited };
}

/** Records of a live (or crashed) store so far; 0 while it does not exist yet. */
function storedCount(dir: string, streams: RecordStream[]): number {
  if (!existsSync(dir)) return 0;
  try {
    const r = RecordStoreReader.open(dir);
    try {
      return r.count({ streams });
    } finally {
      r.close();
    }
  } catch {
    return 0;
  }
}

async function waitFor(cond: () => boolean, child: Child, ms = 15_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!cond()) {
    if (performance.now() > deadline) throw new Error(`condition not met in time; child stderr: ${child.stderr()}`);
    await new Promise<void>((r) => setTimeout(r, 25));
  }
}

function readAll(dir: string): { records: DataRecord[]; metas: number; warnings: readonly string[] } {
  const reader = RecordStoreReader.open(dir);
  try {
    return { records: [...reader.records({ order: 'receive' })], metas: reader.meta().length, warnings: reader.warnings };
  } finally {
    reader.close();
  }
}

const tradesOf = (records: readonly DataRecord[], symbol: string) =>
  records.filter((r): r is Extract<DataRecord, { s: 'trade' }> => r.s === 'trade' && r.i === symbol);

/** The venue's prints in [from, to] (the tape keeps the last 1000; fewer means all since the start). */
function tapeBetween(tape: TapeAggregator, from: number, to: number): { key: string; id: string }[] {
  const all = tape.recentTrades(1000);
  expect(all.length).to.be.lessThan(1000);
  return all
    .filter((t) => t.time >= from && t.time <= to)
    .map((t) => ({ key: `${t.time}|${t.price.toFixed()}|${t.qty.toFixed()}|${t.takerSide}`, id: String(t.id) }));
}

describe('recordCommand (child process, emulator on the system clock)', function () {
  this.timeout(60_000);
  const dirs = new TempDirs();
  let emu: RunningEmulator;
  const children: Child[] = [];

  before(async () => {
    emu = await startEmulator({
      seed: 3,
      rateLimits: { enabled: false },
      market: { source: 'synthetic', stepMs: 50, books: { BTCUSDT: { takerArrivalPerSec: 10 }, BTC_USDT: { takerArrivalPerSec: 10 } } },
    });
  });
  after(async () => {
    for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
    await emu?.stop();
    dirs.cleanup();
  });

  function writeConfig(dir: string): { file: string; out: string } {
    const out = join(dir, 'store');
    const file = join(dir, 'record.yaml');
    writeFileSync(
      file,
      stringify({
        out,
        venue: { spotUrl: emu.url, contractUrl: emu.url, rateLimit: false, requestTimeoutMs: 5000 },
        budget: { spotWeightPerSecond: 1000, contractCallsPerSecondPerEndpoint: 1000 },
        instruments: [
          {
            symbol: 'BTCUSDT',
            cycleMs: 100,
            streams: { depth: { limit: 5 }, trades: { limit: 200 }, klines: { intervals: ['1m'], limit: 3 } },
          },
          { symbol: 'BTC_USDT', cycleMs: 100, streams: { depth: { limit: 5 }, deals: { limit: 100 }, fairPrice: {} } },
        ],
        store: { flushMs: 100 },
        // Warnings (the recovery of the killed session) go to the file, not the test output.
        log: { progressMs: 60_000, file: join(dir, 'record.log') },
      }),
    );
    return { file, out };
  }

  it('continues_a_recording_killed_mid_run_with_every_print_once_and_nothing_corrupt', async () => {
    const { file, out } = writeConfig(dirs.make());
    const child = startChild(file);
    children.push(child);
    await waitFor(() => storedCount(out, ['trade']) >= 60, child);
    child.proc.kill('SIGKILL');
    expect((await child.exited).signal).to.equal('SIGKILL');
    // Killed: the lock is stale and the open segment was never sealed.
    expect(existsSync(join(out, LOCK_FILE))).to.equal(true);
    expect(readManifest(out)!.segments.some((s) => !s.sealed)).to.equal(true);

    const summary = await recordCommand({ config: file, duration: 1, progress: false, handleSignals: false, store: { fsync: 'never' } });
    expect(summary.reason).to.equal('duration 1s');
    expect(summary.recovery.length).to.be.greaterThan(0);
    expect(summary.seeded!.trades).to.be.greaterThan(0);
    expect(summary.tradeGaps).to.equal(0);
    expect(summary.error).to.equal(undefined);

    const { records, metas, warnings } = readAll(out);
    expect(warnings).to.deep.equal([]);
    expect(metas).to.equal(2); // one per session
    const spot = tradesOf(records, 'BTCUSDT');
    const spotKeys = spot.map((t) => `${t.et}|${t.p}|${t.q}|${t.ts}`);
    const ets = spot.map((t) => t.et);
    expect(multiset(spotKeys)).to.deep.equal(
      multiset(tapeBetween(emu.spot.tapes.get('BTCUSDT')!, Math.min(...ets), Math.max(...ets)).map((t) => t.key)),
    );
    const deals = tradesOf(records, 'BTC_USDT');
    const ids = deals.map((t) => t.id!);
    expect(new Set(ids).size).to.equal(ids.length);
    const dealEts = deals.map((t) => t.et);
    expect(multiset(ids)).to.deep.equal(
      multiset(tapeBetween(emu.contract.tapes.get('BTC_USDT')!, Math.min(...dealEts), Math.max(...dealEts)).map((t) => t.id)),
    );
    const bars = records.filter((r) => r.s === 'kline').map((r) => (r.s === 'kline' ? `${r.i}|${r.iv}|${r.ot}` : ''));
    expect(new Set(bars).size).to.equal(bars.length);
    expect(records.filter((r) => r.s === 'depth.snapshot').length).to.be.greaterThan(0);
    // Closed cleanly this time: sealed, unlocked, nothing left to repair.
    expect(readManifest(out)!.segments.every((s) => s.sealed)).to.equal(true);
    expect(existsSync(join(out, LOCK_FILE))).to.equal(false);
    const again = RecordStoreWriter.open(out, { fsync: 'never' });
    expect(again.recovery).to.deep.equal([]);
    again.close();
  });

  it('stops_cleanly_on_sigterm_leaving_a_sealed_store', async () => {
    const { file, out } = writeConfig(dirs.make());
    const child = startChild(file);
    children.push(child);
    await waitFor(() => storedCount(out, ['depth.snapshot']) >= 10, child);
    child.proc.kill('SIGTERM');
    const exit = await child.exited;
    expect(exit, child.stderr()).to.deep.equal({ code: 0, signal: null });
    const printed = JSON.parse(child.stdout()) as { reason: string; records: number; error: string | null };
    expect(printed.reason).to.equal('SIGTERM');
    expect(printed.error).to.equal(null);
    expect(readManifest(out)!.segments.every((s) => s.sealed)).to.equal(true);
    expect(existsSync(join(out, LOCK_FILE))).to.equal(false);
    const { records, warnings } = readAll(out);
    expect(warnings).to.deep.equal([]);
    // Everything the child counted as written is in the store: the stop flushed it.
    expect(records.length).to.equal(printed.records);
  });
});
