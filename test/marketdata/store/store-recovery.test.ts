import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, statSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DataRecord } from '../../../src/marketdata/record/record.js';
import { RecordStoreReader } from '../../../src/marketdata/store/record-store-reader.js';
import { RecordStoreWriter } from '../../../src/marketdata/store/record-store-writer.js';
import { StoreCorrupted } from '../../../src/marketdata/store/store-error.js';
import { MANIFEST_FILE } from '../../../src/marketdata/store/store-manifest.js';
import { sampleNumber, sampleRecord } from './support/sample-records.js';
import { TempDirs } from './support/temp-dir.js';

const DATA = 'seg-000001.pmdr';
const INDEX = 'seg-000001.pmdi';

function readAll(dir: string): DataRecord[] {
  const r = RecordStoreReader.open(dir);
  try {
    return [...r.records({ order: 'receive' })];
  } finally {
    r.close();
  }
}

/** One stream, 5 records per chunk, 40 records: chunk c holds records 5c … 5c+4. */
function buildTemplate(dir: string): { chunkEnds: number[]; records: DataRecord[] } {
  const records = Array.from({ length: 40 }, (_, k) => sampleRecord(4 * k));
  const w = RecordStoreWriter.open(dir, { chunkRecords: 5, segmentPeriod: 'none', fsync: 'never' });
  w.appendAll(records);
  w.close();
  const r = RecordStoreReader.open(dir);
  const chunkEnds = r.chunks.map((c) => c.offset + c.headerLen + c.payloadLen);
  r.close();
  return { chunkEnds, records };
}

describe('record store crash recovery', () => {
  const temp = new TempDirs();
  afterEach(() => temp.cleanup());

  it('truncating_the_data_file_at_every_byte_keeps_exactly_the_whole_chunks_before_the_cut', () => {
    const template = temp.make();
    const { chunkEnds, records } = buildTemplate(template);
    expect(chunkEnds).to.have.length(8);
    const size = statSync(join(template, DATA)).size;
    expect(chunkEnds[7]).to.equal(size);
    const extra = sampleRecord(9001);
    const work = temp.make();
    const dataBytes = readFileSync(join(template, DATA));
    const indexBytes = readFileSync(join(template, INDEX));
    const manifest = readFileSync(join(template, MANIFEST_FILE));
    // Every byte of the file header and the first chunk, every byte within 3 of each chunk
    // boundary, and every 5th byte elsewhere (the file system is the slow part of each round).
    const cuts = Array.from({ length: size }, (_, k) => k).filter(
      (k) => k <= chunkEnds[0]! || chunkEnds.some((e) => Math.abs(k - e) <= 3) || k % 5 === 0,
    );
    expect(cuts.length).to.be.greaterThan(size / 5);
    for (const cut of cuts) {
      // The three files are the whole store (close() removed the lock): overwrite them each round.
      writeFileSync(join(work, DATA), dataBytes.subarray(0, cut));
      writeFileSync(join(work, INDEX), indexBytes);
      writeFileSync(join(work, MANIFEST_FILE), manifest);
      const w = RecordStoreWriter.open(work, { fsync: 'never' });
      const whole = chunkEnds.filter((end) => end <= cut).length;
      expect(w.recovery, `cut ${cut}`).to.have.length(1);
      expect(w.recovery[0]!.keptRecords, `cut ${cut}`).to.equal(whole * 5);
      // The store keeps working after recovery: append, close, read everything back.
      w.append(extra);
      w.close();
      expect(readAll(work), `cut ${cut}`).to.deep.equal([...records.slice(0, whole * 5), extra]);
    }
  });

  it('a_reader_of_a_torn_store_serves_the_whole_chunks_and_reports_the_tail', () => {
    const dir = temp.make();
    const { chunkEnds, records } = buildTemplate(dir);
    // Cut 3 bytes into chunk 4's payload and lose the index entries beyond it too.
    truncateSync(join(dir, DATA), chunkEnds[3]! + 3);
    const r = RecordStoreReader.open(dir);
    expect([...r.records({ order: 'receive' })]).to.deep.equal(records.slice(0, 20));
    expect(r.warnings).to.have.length(1);
    expect(r.warnings[0]).to.contain(DATA);
    r.close();
  });

  it('truncating_the_index_at_every_byte_loses_nothing', () => {
    const template = temp.make();
    const { records } = buildTemplate(template);
    const indexSize = statSync(join(template, INDEX)).size;
    const work = temp.make();
    for (let cut = 0; cut <= indexSize; cut += cut < indexSize - 7 ? 7 : 1) {
      rmSync(work, { recursive: true, force: true });
      cpSync(template, work, { recursive: true });
      truncateSync(join(work, INDEX), cut);
      expect(readAll(work), `reader, index cut ${cut}`).to.deep.equal(records);
      const w = RecordStoreWriter.open(work, { fsync: 'never' });
      expect(w.recovery.length, `writer, index cut ${cut}`).to.equal(cut === indexSize ? 0 : 1);
      w.close();
      expect(readAll(work), `after rebuild, index cut ${cut}`).to.deep.equal(records);
    }
  });

  it('rebuilds_a_lost_index_and_a_lost_manifest', () => {
    const dir = temp.make();
    const { records } = buildTemplate(dir);
    unlinkSync(join(dir, INDEX));
    unlinkSync(join(dir, MANIFEST_FILE));
    expect(readAll(dir)).to.deep.equal(records);
    const w = RecordStoreWriter.open(dir);
    expect(w.recovery.map((a) => [a.cause, a.keptRecords, a.truncatedBytes])).to.deep.equal([['segment not in manifest', 40, 0]]);
    w.close();
    expect(existsSync(join(dir, INDEX))).to.equal(true);
    expect(readAll(dir)).to.deep.equal(records);
  });

  it('refuses_to_cut_away_intact_chunks_behind_a_corrupted_one', () => {
    const dir = temp.make();
    const { chunkEnds } = buildTemplate(dir);
    const data = readFileSync(join(dir, DATA));
    // Flip a byte inside chunk 2's payload (the last byte of the chunk) of an unsealed segment.
    data[chunkEnds[1]! - 1] ^= 0xff;
    writeFileSync(join(dir, DATA), data);
    unlinkSync(join(dir, MANIFEST_FILE));
    expect(() => RecordStoreWriter.open(dir))
      .to.throw(StoreCorrupted)
      .with.property('offset', chunkEnds[0]);
    const r = RecordStoreReader.open(dir);
    expect(() => [...r.records()]).to.throw(StoreCorrupted, /crc mismatch/);
    r.close();
    // Nothing was truncated by the refused recovery.
    expect(statSync(join(dir, DATA)).size).to.equal(data.length);
  });

  describe('killed writer process', function () {
    this.timeout(60_000);
    const child = join(dirname(fileURLToPath(import.meta.url)), 'support', 'writer-child.js');

    for (const killAfter of [2, 5, 11]) {
      it(`keeps_every_flushed_record_and_whole_chunks_only_when_killed_after_${killAfter}_flushes`, async () => {
        const dir = temp.make();
        const proc = spawn(process.execPath, [child, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
        let flushed = 0;
        let seen = 0;
        await new Promise<void>((resolve, reject) => {
          let buf = '';
          proc.stdout.on('data', (d: Buffer) => {
            buf += d.toString();
            const lines = buf.split('\n');
            buf = lines.pop()!;
            for (const l of lines) {
              seen++;
              if (seen === killAfter) {
                flushed = Number(l);
                proc.kill('SIGKILL');
              }
            }
          });
          proc.on('exit', () => resolve());
          proc.on('error', reject);
        });
        const w = RecordStoreWriter.open(dir);
        w.close();
        const got = readAll(dir);
        const numbers = got.map(sampleNumber);
        // Every record flushed before the kill was reported survives…
        const have = new Set(numbers);
        for (let k = 0; k < flushed; k++) expect(have.has(k), `record ${k}`).to.equal(true);
        // …in receive order, each exactly as written, and per (instrument, stream) a prefix.
        expect(numbers).to.deep.equal([...numbers].sort((a, b) => a - b));
        for (const r of got) expect(r).to.deep.equal(sampleRecord(sampleNumber(r)));
        const byKey = new Map<string, number[]>();
        for (const r of got) byKey.set(`${r.i}/${r.s}`, [...(byKey.get(`${r.i}/${r.s}`) ?? []), sampleNumber(r)]);
        for (const [key, ks] of byKey) {
          const expected = Array.from({ length: Math.max(...ks) + 1 }, (_, k) => k).filter((k) => {
            const s = sampleRecord(k);
            return `${s.i}/${s.s}` === key;
          });
          expect(ks, key).to.deep.equal(expected);
        }
      });
    }
  });
});
