import { expect } from 'chai';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { VirtualClock } from '../../../src/core/clock.js';
import { ValidationError } from '../../../src/core/errors.js';
import { encodeRecordLines } from '../../../src/marketdata/record/json-lines-codec.js';
import { metaRecord, type DataRecord } from '../../../src/marketdata/record/record.js';
import { importCommand, type ImportCommandOptions } from '../../../src/app/cli/import-command.js';
import { RecordStoreReader } from '../../../src/marketdata/store/record-store-reader.js';
import { sampleRecord } from '../store/support/sample-records.js';
import { TempFiles, dataFixture } from './support/data-fixtures.js';

function readStore(dir: string): { recs: DataRecord[]; sources: (string | undefined)[] } {
  const r = RecordStoreReader.open(dir);
  try {
    return { recs: [...r.records({ order: 'receive' })], sources: r.meta().map((m) => m.source) };
  } finally {
    r.close();
  }
}

const rejected = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('import command', () => {
  const temp = new TempFiles();
  afterEach(() => temp.remove());
  const base = (over: Partial<ImportCommandOptions>): ImportCommandOptions => ({
    kind: 'klines',
    input: [],
    out: join(temp.dir(), 'store'),
    market: 'spot',
    progress: false,
    clock: new VirtualClock(1_000),
    ...over,
  });

  it('imports_an_l2_recording_into_a_store_that_reads_back_the_same_records', async () => {
    const opts = base({ kind: 'l2', input: [dataFixture('binance_usdm_btcusdt_20230404.head250.dat.gz')], market: 'contract' });
    const summary = await importCommand(opts);
    // 88 diffs + 65 trades + 94 bookTickers + 1 snapshot + 2 × (fair, index, funding) = 254.
    expect(summary.records).to.equal(254);
    expect(summary.byStream).to.deep.equal({
      bookTicker: 94,
      trade: 65,
      'depth.snapshot': 1,
      'depth.diff': 88,
      fair: 2,
      index: 2,
      funding: 2,
    });
    expect(summary.files).to.deep.equal([{ file: opts.input[0], lines: 250, records: 254, badRows: 0 }]);
    expect(summary.elapsedMs).to.equal(0);
    const { recs, sources } = readStore(opts.out);
    expect(recs).to.have.length(254);
    expect(recs.filter((r) => r.s === 'depth.snapshot')).to.have.length(1);
    expect(sources).to.deep.equal(['l2 import of binance_usdm_btcusdt_20230404.head250.dat.gz']);
  });

  it('appends_a_second_import_to_the_same_store', async () => {
    const out = join(temp.dir(), 'store');
    await importCommand(base({ out, input: [dataFixture('binance_spot_BTCUSDT_1m_2025-05-20.head100.csv')] }));
    await importCommand(base({ out, kind: 'trades', input: [dataFixture('BTCUSDT-trades-2024-08-08.binance-vision.first40.csv')] }));
    const r = RecordStoreReader.open(out);
    expect(r.count({ streams: ['kline'] })).to.equal(100);
    expect(r.count({ streams: ['trade'] })).to.equal(40);
    expect(r.meta()).to.have.length(2);
    r.close();
  });

  it('imports_json_lines_recordings_record_for_record', async () => {
    const records: DataRecord[] = Array.from({ length: 50 }, (_, k) => sampleRecord(k));
    const file = temp.write('recording.jsonl.gz', encodeRecordLines([metaRecord('mirror'), ...records]), true);
    const opts = base({ kind: 'records', input: [file] });
    const summary = await importCommand(opts);
    expect(summary.records).to.equal(50);
    const { recs, sources } = readStore(opts.out);
    expect(recs).to.deep.equal(records);
    expect(sources).to.deep.equal(['records import of recording.jsonl.gz', 'mirror']);
  });

  it('keeps_what_was_imported_before_a_bad_row_in_a_cleanly_closed_store', async () => {
    const file = temp.write(
      'BTCUSDT_1m.csv',
      'open_time,open,high,low,close,volume\n1700000040000,1,2,0.5,1.5,10\n1700000100000,1,abc,0.5,1.5,10\n',
    );
    const opts = base({ input: [file] });
    const err = await rejected(importCommand(opts));
    expect(err).to.be.instanceOf(ValidationError);
    expect((err as ValidationError).field).to.equal(`${file} line 3 field high`);
    expect(readStore(opts.out).recs).to.have.length(1);
  });

  it('validates_its_options', async () => {
    expect(await rejected(importCommand(base({ kind: 'bars' as never, input: [dataFixture('BTCUSDT-1m-quirks.csv')] }))))
      .to.be.instanceOf(ValidationError)
      .with.property('field', 'kind');
    expect(await rejected(importCommand(base({ input: [] }))))
      .to.be.instanceOf(ValidationError)
      .with.property('field', 'input');
    expect(await rejected(importCommand(base({ input: ['/nonexistent/file.csv'] }))))
      .to.be.instanceOf(ValidationError)
      .with.property('field', 'input');
    expect(await rejected(importCommand(base({ market: 'margin' as never, input: [dataFixture('BTCUSDT-1m-quirks.csv')] }))))
      .to.be.instanceOf(ValidationError)
      .with.property('field', 'market');
  });

  it('draws_the_progress_bar_on_the_given_stream_only_when_asked', async () => {
    let written = 0;
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        written += chunk.length;
        cb();
      },
    });
    await importCommand(
      base({ input: [dataFixture('binance_spot_BTCUSDT_1m_2025-05-20.head100.csv')], progress: false, progressStream: sink }),
    );
    expect(written).to.equal(0);
    await importCommand(
      base({ input: [dataFixture('binance_spot_BTCUSDT_1m_2025-05-20.head100.csv')], progress: true, progressStream: sink }),
    );
    expect(written).to.be.greaterThan(0);
  });
});
