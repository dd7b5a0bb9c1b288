/**
 * Record store throughput and size: records/s written to and read back from disk, and bytes per
 * record, for trades and depth diffs, next to a baseline measured in the same run on the same
 * records: JSON-lines (the record model's own codec) compressed with node:zlib gzip, read back by
 * gunzip + JSON.parse per line (no schema validation, so the baseline is the fast variant).
 *
 * Input: the real Binance spot BTCUSDT recording from ../shared/data when it is there (imported with
 * the l2 importer), else a seeded synthetic tape of the same shape. A third pair of rows compares
 * the brotli codec with the default deflate on the same store format.
 * Budget (issue 5): the backtest must read ≥ 300 000 events/s from disk.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { SeededRandom } from '../src/core/random.js';
import { BinanceL2Importer } from '../src/marketdata/import/binance-l2-importer.js';
import { ImportStats } from '../src/marketdata/import/import-stats.js';
import { encodeRecordLine } from '../src/marketdata/record/json-lines-codec.js';
import type { DataRecord, DepthDiffRecord, RecordLevel, TradeRecord } from '../src/marketdata/record/record.js';
import type { ChunkCodec } from '../src/marketdata/store/chunk-format.js';
import { RecordStoreReader } from '../src/marketdata/store/record-store-reader.js';
import { RecordStoreWriter } from '../src/marketdata/store/record-store-writer.js';
import { measure, type BenchRow, type BenchSuite } from './bench-row.js';

const READ_BUDGET = 300_000;

function syntheticTrades(n: number): TradeRecord[] {
  const rnd = new SeededRandom('store-bench-trades');
  const out: TradeRecord[] = [];
  let cents = 6_183_763;
  let t = 1_723_161_255_000;
  for (let k = 0; k < n; k++) {
    t += rnd.int(0, 20);
    cents += Math.round(rnd.normal() * 2);
    const qty = (Math.floor(rnd.next() ** 3 * 5_000_000) + 1) / 1e8;
    out.push({
      s: 'trade',
      m: 'spot',
      i: 'BTCUSDT',
      et: t,
      lt: t - 1250 - rnd.int(0, 20),
      id: String(3_735_683_259 + k),
      p: `${(cents / 100).toFixed(2)}000000`,
      q: qty.toFixed(8),
      ts: rnd.next() < 0.5 ? 'buy' : 'sell',
    });
  }
  return out;
}

function syntheticDiffs(n: number): DepthDiffRecord[] {
  const rnd = new SeededRandom('store-bench-diffs');
  const out: DepthDiffRecord[] = [];
  let mid = 6_183_763;
  let t = 1_723_161_255_208;
  let u = 50_093_239_202;
  const side = (from: number, dir: number): RecordLevel[] => {
    const levels: RecordLevel[] = [];
    const count = rnd.int(2, 15);
    let p = from;
    for (let k = 0; k < count; k++) {
      p += dir * rnd.int(1, 40);
      const q = rnd.next() < 0.3 ? 0 : Math.floor(rnd.next() ** 2 * 300_000_000) / 1e8;
      levels.push([`${(p / 100).toFixed(2)}000000`, q.toFixed(8)]);
    }
    return levels;
  };
  for (let k = 0; k < n; k++) {
    t += 100;
    mid += Math.round(rnd.normal() * 3);
    const U = u + 1;
    u += rnd.int(1, 60);
    out.push({ s: 'depth.diff', m: 'spot', i: 'BTCUSDT', et: t, lt: t - 1271, U, u, b: side(mid, -1), a: side(mid + 1, 1) });
  }
  return out;
}

/** The spot BTCUSDT recording of ../shared/data, when the folder is next to the project. */
async function realRecords(): Promise<{ trades: TradeRecord[]; diffs: DepthDiffRecord[]; all: DataRecord[] } | undefined> {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6 && !existsSync(join(dir, 'package.json')); i++) dir = dirname(dir);
  const data = resolve(dir, '..', 'shared', 'data', 'binance_l2_feed');
  const files = ['binance_spot_btcusdt_20240808.gz', 'binance_spot_btcusdt_20240809.gz'].map((f) => join(data, f));
  if (!files.every((f) => existsSync(f))) return undefined;
  const imp = new BinanceL2Importer({ market: 'spot' }, new ImportStats());
  const trades: TradeRecord[] = [];
  const diffs: DepthDiffRecord[] = [];
  const all: DataRecord[] = [];
  const take = (r: DataRecord): void => {
    all.push(r);
    if (r.s === 'trade') trades.push(r);
    else if (r.s === 'depth.diff') diffs.push(r);
  };
  for (const f of files) for await (const r of imp.importFile(f)) take(r);
  for (const r of imp.finish()) take(r);
  return { trades, diffs, all };
}

interface Figures {
  writePerSec: number;
  readPerSec: number;
  bytesPerRecord: number;
}

function storeFigures(records: readonly DataRecord[], codec: ChunkCodec, minMs: number): Figures {
  const root = mkdtempSync(join(tmpdir(), 'perpetua-store-bench-'));
  try {
    let run = 0;
    let dir = '';
    const write = measure(() => {
      dir = join(root, `w${run++}`);
      const w = RecordStoreWriter.open(dir, { codec, segmentPeriod: 'none', maxBufferedMs: Infinity });
      for (const r of records) w.append(r);
      w.close();
      return records.length;
    }, minMs);
    const reader = RecordStoreReader.open(dir);
    const bytes = reader.summary().bytes;
    reader.close();
    const read = measure(() => {
      const r = RecordStoreReader.open(dir);
      let n = 0;
      for (const rec of r.records()) if (rec.et > 0) n++;
      r.close();
      return n;
    }, minMs);
    return { writePerSec: write.opsPerSec, readPerSec: read.opsPerSec, bytesPerRecord: bytes / records.length };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function jsonlGzipFigures(records: readonly DataRecord[], minMs: number): Figures {
  const root = mkdtempSync(join(tmpdir(), 'perpetua-jsonl-bench-'));
  const path = join(root, 'records.jsonl.gz');
  try {
    const write = measure(() => {
      let text = '';
      for (const r of records) text += `${encodeRecordLine(r)}\n`;
      writeFileSync(path, gzipSync(text));
      return records.length;
    }, minMs);
    const bytes = statSync(path).size;
    const read = measure(() => {
      const text = gunzipSync(readFileSync(path)).toString('utf8');
      let n = 0;
      let start = 0;
      for (;;) {
        const end = text.indexOf('\n', start);
        if (end < 0) break;
        const rec = JSON.parse(text.slice(start, end)) as DataRecord;
        if (rec.et > 0) n++;
        start = end + 1;
      }
      return n;
    }, minMs);
    return { writePerSec: write.opsPerSec, readPerSec: read.opsPerSec, bytesPerRecord: bytes / records.length };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function countStreams(records: readonly DataRecord[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of records) out[r.s] = (out[r.s] ?? 0) + 1;
  return out;
}

export const suite: BenchSuite = {
  title: 'record store (src/marketdata/store)',
  async run(): Promise<BenchRow[]> {
    const real = await realRecords();
    const synthetic = (): { trades: TradeRecord[]; diffs: DepthDiffRecord[]; all: DataRecord[] } => {
      const trades = syntheticTrades(200_000);
      const diffs = syntheticDiffs(20_000);
      return { trades, diffs, all: [...trades, ...diffs].sort((a, b) => a.lt - b.lt) };
    };
    const input = real ?? synthetic();
    const source = real ? 'real Binance spot BTCUSDT recording (../shared/data)' : 'seeded synthetic tape (../shared/data absent)';
    const rows: BenchRow[] = [];
    const minMs = 700;
    for (const [label, records] of [
      ['trades', input.trades],
      ['depth diffs', input.diffs],
      ['whole recording', input.all],
    ] as const) {
      const levels =
        label === 'depth diffs' ? (records as DepthDiffRecord[]).reduce((a, r) => a + r.b.length + r.a.length, 0) / records.length : 0;
      const mix =
        label === 'whole recording'
          ? ` (${Object.entries(countStreams(records))
              .map(([k, v]) => `${v} ${k}`)
              .join(', ')}; merged by exchange time)`
          : '';
      const note = `${records.length} ${label} from the ${source}${levels ? `, ${levels.toFixed(1)} levels per diff` : ''}${mix}`;
      const ours = storeFigures(records, 'deflate', minMs);
      const base = jsonlGzipFigures(records, minMs);
      const baselineName = 'JSON-lines + gzip';
      rows.push({
        name: `write ${label}`,
        ours: ours.writePerSec,
        baseline: base.writePerSec,
        baselineName,
        unit: 'records/s',
        higherIsBetter: true,
        note,
      });
      rows.push({
        name: `read ${label} from disk (time-ordered)`,
        ours: ours.readPerSec,
        baseline: base.readPerSec,
        baselineName,
        unit: 'records/s',
        budget: READ_BUDGET,
        higherIsBetter: true,
      });
      rows.push({
        name: `size of ${label}`,
        ours: ours.bytesPerRecord,
        baseline: base.bytesPerRecord,
        baselineName,
        unit: 'bytes/record',
        higherIsBetter: false,
      });
    }
    // Codec choice: brotli (quality 5) against the default deflate, same store format, trades.
    const deflate = storeFigures(input.trades, 'deflate', minMs);
    const brotli = storeFigures(input.trades, 'brotli', minMs);
    rows.push({
      name: 'codec brotli: write trades',
      ours: brotli.writePerSec,
      baseline: deflate.writePerSec,
      baselineName: 'deflate (default)',
      unit: 'records/s',
      higherIsBetter: true,
    });
    rows.push({
      name: 'codec brotli: read trades',
      ours: brotli.readPerSec,
      baseline: deflate.readPerSec,
      baselineName: 'deflate (default)',
      unit: 'records/s',
      higherIsBetter: true,
    });
    rows.push({
      name: 'codec brotli: size of trades',
      ours: brotli.bytesPerRecord,
      baseline: deflate.bytesPerRecord,
      baselineName: 'deflate (default)',
      unit: 'bytes/record',
      higherIsBetter: false,
    });
    return rows;
  },
};
