import { expect } from 'chai';
import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { VirtualClock } from '../../../src/core/clock.js';
import { ValidationError } from '../../../src/core/errors.js';
import { metaRecord, type DataRecord } from '../../../src/marketdata/record/record.js';
import { RecordStoreReader } from '../../../src/marketdata/store/record-store-reader.js';
import { LOCK_FILE, RecordStoreWriter } from '../../../src/marketdata/store/record-store-writer.js';
import { StoreLocked } from '../../../src/marketdata/store/store-error.js';
import { flushPeriodically } from '../../../src/marketdata/store/store-flush-timer.js';
import { readManifest } from '../../../src/marketdata/store/store-manifest.js';
import { anyRecordArb } from './support/record-arbitraries.js';
import { TempDirs } from './support/temp-dir.js';

const trade = (i: string, et: number, lt: number, id: string): DataRecord => ({
  s: 'trade',
  m: 'spot',
  i,
  et,
  lt,
  id,
  p: '100.5',
  q: '1',
  ts: 'buy',
});
const fair = (et: number, lt: number, p: string): DataRecord => ({ s: 'fair', m: 'contract', i: 'BTC_USDT', et, lt, p });
const ids = (rs: Iterable<DataRecord>): string[] => [...rs].map((r) => (r.s === 'trade' ? `t${r.id}` : r.s === 'fair' ? `f${r.p}` : r.s));

function readAll(dir: string, q: Parameters<RecordStoreReader['records']>[0] = {}): DataRecord[] {
  const r = RecordStoreReader.open(dir);
  try {
    return [...r.records(q)];
  } finally {
    r.close();
  }
}

describe('record store', () => {
  const temp = new TempDirs();
  afterEach(() => temp.cleanup());

  it('reads_back_in_receive_order_exactly_what_was_appended', () => {
    fc.assert(
      fc.property(fc.array(anyRecordArb, { maxLength: 60 }), fc.integer({ min: 1, max: 9 }), (records, chunkRecords) => {
        const dir = temp.make();
        const w = RecordStoreWriter.open(dir, { chunkRecords, segmentPeriod: 'none' });
        w.appendAll(records);
        w.close();
        expect(readAll(dir, { order: 'receive' })).to.deep.equal(records);
        // Time order = a stable sort by et of the receive order.
        const byTime = records.map((r, k) => ({ r, k })).sort((a, b) => a.r.et - b.r.et || a.k - b.k);
        expect(readAll(dir)).to.deep.equal(byTime.map((x) => x.r));
        temp.cleanup();
      }),
      { numRuns: 60 },
    );
  });

  it('merges_streams_by_time_with_ties_in_receive_order', () => {
    const dir = temp.make();
    const w = RecordStoreWriter.open(dir, { chunkRecords: 2 });
    // Receive order: t1(et 10) f1(et 10) t2(et 5) f2(et 20) t3(et 10) f3(et 5)
    w.appendAll([
      trade('BTCUSDT', 10, 1, '1'),
      fair(10, 2, '1'),
      trade('BTCUSDT', 5, 3, '2'),
      fair(20, 4, '2'),
      trade('BTCUSDT', 10, 5, '3'),
      fair(5, 6, '3'),
    ]);
    w.close();
    // By et: 5 → t2 (seq 2) then f3 (seq 5); 10 → t1 (0), f1 (1), t3 (4); 20 → f2.
    expect(ids(readAll(dir))).to.deep.equal(['t2', 'f3', 't1', 'f1', 't3', 'f2']);
    // By lt the receive order is already time order.
    expect(ids(readAll(dir, { timeBase: 'local' }))).to.deep.equal(['t1', 'f1', 't2', 'f2', 't3', 'f3']);
    expect(ids(readAll(dir, { order: 'receive' }))).to.deep.equal(['t1', 'f1', 't2', 'f2', 't3', 'f3']);
  });

  it('sorts_records_that_arrived_out_of_time_order_across_chunks', () => {
    const dir = temp.make();
    const w = RecordStoreWriter.open(dir, { chunkRecords: 2 });
    const ets = [50, 40, 30, 20, 10, 45, 35, 25, 15, 5];
    ets.forEach((et, k) => w.append(trade('BTCUSDT', et, k, String(et))));
    w.close();
    expect(ids(readAll(dir))).to.deep.equal([...ets].sort((a, b) => a - b).map((e) => `t${e}`));
  });

  it('filters_by_instrument_stream_and_half_open_time_range', () => {
    const dir = temp.make();
    const w = RecordStoreWriter.open(dir, { chunkRecords: 3 });
    for (let k = 0; k < 20; k++) {
      w.append(trade(k % 2 ? 'ETHUSDT' : 'BTCUSDT', 100 + k, 100 + k, String(k)));
      w.append(fair(100 + k, 100 + k, String(k)));
    }
    w.close();
    const r = RecordStoreReader.open(dir);
    // BTC trades are the even k; et in [104, 110) → k = 4, 6, 8.
    const q = { instruments: ['spot:BTCUSDT'], streams: ['trade' as const], from: 104, to: 110 };
    expect(ids(r.records(q))).to.deep.equal(['t4', 't6', 't8']);
    expect(r.count(q)).to.equal(3);
    // A bare symbol matches any market; the contract fair stream alone: 20 records.
    expect(r.count({ instruments: ['BTC_USDT'] })).to.equal(20);
    expect(r.count({ instruments: [{ market: 'spot', symbol: 'ETHUSDT' }] })).to.equal(10);
    expect(r.count({ streams: ['kline'] })).to.equal(0);
    expect(() => r.records({ from: 10, to: 5 })).to.throw(ValidationError);
    r.close();
  });

  it('starts_a_segment_per_utc_day_of_receive_time_and_by_size', () => {
    const day = 86_400_000;
    const dir = temp.make();
    const w = RecordStoreWriter.open(dir, { chunkRecords: 4 });
    // Days 19000, 19000, 19001, 19003 → three segments.
    for (const t of [19000 * day + 1, 19000 * day + 2, 19001 * day, 19003 * day + 5]) w.append(trade('BTCUSDT', t, t, String(t)));
    w.close();
    const m = readManifest(dir)!;
    expect(m.segments.map((s) => [s.n, s.records, s.sealed])).to.deep.equal([
      [1, 2, true],
      [2, 1, true],
      [3, 1, true],
    ]);
    expect(readAll(dir)).to.have.length(4);

    const dir2 = temp.make();
    const w2 = RecordStoreWriter.open(dir2, { chunkRecords: 10, segmentBytes: 300, segmentPeriod: 'none' });
    for (let k = 0; k < 200; k++) w2.append(trade('BTCUSDT', k, k, String(k * 7919)));
    w2.close();
    const segs = readManifest(dir2)!.segments;
    expect(segs.length).to.be.greaterThan(2);
    expect(segs.reduce((a, s) => a + s.records, 0)).to.equal(200);
    expect(ids(readAll(dir2))).to.deep.equal(Array.from({ length: 200 }, (_, k) => `t${k * 7919}`));
  });

  it('resumes_an_existing_store_continuing_the_receive_sequence', () => {
    const dir = temp.make();
    const w1 = RecordStoreWriter.open(dir);
    w1.appendAll([trade('BTCUSDT', 10, 10, 'a'), trade('BTCUSDT', 20, 20, 'b')]);
    w1.close();
    const w2 = RecordStoreWriter.open(dir);
    expect(w2.sequence).to.equal(2);
    expect(w2.recovery).to.deep.equal([]);
    // Same et as 'a' but appended later: the tie goes to 'a'.
    w2.append(trade('BTCUSDT', 10, 30, 'c'));
    w2.close();
    expect(ids(readAll(dir))).to.deep.equal(['ta', 'tc', 'tb']);
    expect(readManifest(dir)!.segments).to.have.length(1);
  });

  it('refuses_a_second_live_writer_and_takes_over_a_stale_lock', () => {
    const dir = temp.make();
    const w = RecordStoreWriter.open(dir);
    expect(() => RecordStoreWriter.open(dir)).to.throw(StoreLocked);
    w.close();
    expect(existsSync(join(dir, LOCK_FILE))).to.equal(false);
    // The pid of a process that has exited: its lock is stale.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(join(dir, LOCK_FILE), String(dead));
    const again = RecordStoreWriter.open(dir);
    again.close();
  });

  it('refuses_an_invalid_record_naming_its_field_and_keeps_the_others', () => {
    const dir = temp.make();
    const w = RecordStoreWriter.open(dir);
    w.append(trade('BTCUSDT', 1, 1, 'ok'));
    const bad = { ...trade('BTCUSDT', 2, 2, 'bad'), p: '1e-5' } as DataRecord;
    expect(() => w.append(bad))
      .to.throw(ValidationError)
      .with.property('field', 'record.p');
    expect(() => w.append({ ...fair(3, 3, '1'), et: 1.5 }))
      .to.throw(ValidationError)
      .with.property('field', 'record.et');
    // A field the store does not know would be lost: refused, not dropped.
    expect(() => w.append({ ...fair(4, 4, '1'), extra: 1 } as unknown as DataRecord))
      .to.throw(ValidationError)
      .with.property('field', 'record.extra');
    w.close();
    expect(ids(readAll(dir))).to.deep.equal(['tok']);
  });

  it('stores_meta_records_apart_from_data_in_append_order', () => {
    const dir = temp.make();
    const w = RecordStoreWriter.open(dir);
    w.append(metaRecord('binance spot websocket', 'first'));
    w.append(trade('BTCUSDT', 1, 1, '1'));
    w.append(metaRecord(undefined, 'second'));
    w.close();
    const r = RecordStoreReader.open(dir);
    expect(r.meta().map((m) => m.note)).to.deep.equal(['first', 'second']);
    expect(r.count()).to.equal(1);
    r.close();
  });

  it('flushes_a_slow_stream_once_it_is_older_than_max_buffered_time_and_a_reader_sees_it_live', () => {
    const dir = temp.make();
    const w = RecordStoreWriter.open(dir, { maxBufferedMs: 60_000, chunkRecords: 1000 });
    w.append(fair(0, 0, '1'));
    for (let t = 1000; t <= 59_000; t += 1000) w.append(trade('BTCUSDT', t, t, String(t)));
    let r = RecordStoreReader.open(dir);
    expect(r.count({ streams: ['fair'] })).to.equal(0);
    r.close();
    // The first append at lt ≥ 60 000 ms after the fair record flushes its chunk (and the trades').
    w.append(trade('BTCUSDT', 60_000, 60_000, 'x'));
    r = RecordStoreReader.open(dir);
    expect(r.count({ streams: ['fair'] })).to.equal(1);
    expect(r.warnings).to.deep.equal([]);
    r.close();
    w.close();
  });

  it('flushes_on_the_clock_for_a_live_recorder_and_serves_a_re_iterable_query', () => {
    const dir = temp.make();
    const clock = new VirtualClock(0);
    const w = RecordStoreWriter.open(dir);
    const stop = flushPeriodically(w, clock, 1000);
    w.append(fair(5, 5, '1'));
    const r1 = RecordStoreReader.open(dir);
    expect(r1.count()).to.equal(0);
    r1.close();
    clock.advanceTo(1000);
    const r2 = RecordStoreReader.open(dir);
    const q = r2.query();
    // Two passes over the same query give the same records.
    expect([...q]).to.deep.equal([fair(5, 5, '1')]);
    expect([...q]).to.have.length(1);
    r2.close();
    stop();
    w.close();
    expect(() => RecordStoreReader.open(join(dir, 'missing')))
      .to.throw(ValidationError)
      .with.property('field', 'store');
  });

  it('stops_flushing_and_reports_a_failed_flush_instead_of_throwing_from_the_timer', () => {
    const dir = temp.make();
    const clock = new VirtualClock(0);
    const w = RecordStoreWriter.open(dir);
    // A disk that fills up: the writer's flush fails the way fs.writeSync does (fault injected at the
    // I/O edge; a real full disk cannot be made in a test).
    let flushes = 0;
    const flush = w.flush.bind(w);
    w.flush = () => {
      flushes++;
      if (flushes === 2) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      flush();
    };
    const errors: unknown[] = [];
    flushPeriodically(w, clock, 1000, false, (e) => errors.push(e));
    w.append(fair(5, 5, '1'));
    clock.advanceTo(1000); // first flush: written
    w.append(fair(1500, 1500, '2'));
    expect(() => clock.advanceTo(2000)).not.to.throw(); // second flush fails: reported, not thrown
    clock.advanceTo(5000); // the timer is stopped: no flush after the failure
    expect(flushes).to.equal(2);
    expect(errors).to.have.length(1);
    expect((errors[0] as { code?: string }).code).to.equal('ENOSPC');
    // What was flushed before the failure is readable.
    expect(readAll(dir)).to.deep.equal([fair(5, 5, '1')]);
    w.flush = flush; // the disk has room again: closing writes the rest
    w.close();
    expect(readAll(dir)).to.deep.equal([fair(5, 5, '1'), fair(1500, 1500, '2')]);
  });

  it('summarises_instruments_and_streams_with_their_ranges', () => {
    const dir = temp.make();
    const w = RecordStoreWriter.open(dir);
    w.appendAll([trade('BTCUSDT', 5, 3, '1'), trade('BTCUSDT', 9, 8, '2'), fair(7, 6, '1')]);
    w.close();
    const r = RecordStoreReader.open(dir);
    const s = r.summary();
    expect(s.records).to.equal(3);
    expect(s.instruments).to.deep.equal([
      {
        market: 'contract',
        symbol: 'BTC_USDT',
        streams: [{ stream: 'fair', records: 1, chunks: 1, minEt: 7, maxEt: 7, minLt: 6, maxLt: 6 }],
      },
      { market: 'spot', symbol: 'BTCUSDT', streams: [{ stream: 'trade', records: 2, chunks: 1, minEt: 5, maxEt: 9, minLt: 3, maxLt: 8 }] },
    ]);
    expect(readdirSync(dir).sort()).to.deep.equal(['manifest.json', 'seg-000001.pmdi', 'seg-000001.pmdr']);
    r.close();
  });
});
