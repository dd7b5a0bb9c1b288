import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ValidationError } from '../../../src/core/errors.js';
import {
  JsonLinesRecordWriter,
  decodeRecordLine,
  encodeRecordLine,
  encodeRecordLines,
  parseRecordLines,
  readRecordFile,
  RecordFileWriter,
} from '../../../src/marketdata/record/json-lines-codec.js';
import { metaRecord, type MarketRecord } from '../../../src/marketdata/record/record.js';

const sample: MarketRecord[] = [
  metaRecord('hand-made', 'codec test'),
  { s: 'depth.snapshot', m: 'spot', i: 'BTCUSDT', et: 1000, lt: 2200, u: 100, b: [['100.00', '0.005']], a: [['100.02', '0.004']] },
  { s: 'depth.diff', m: 'contract', i: 'BTC_USDT', et: 1001, lt: 2201, U: 101, u: 103, pu: 100, b: [['87631.4', '11742', 2]], a: [] },
  { s: 'trade', m: 'spot', i: 'BTCUSDT', et: 1002, lt: 2202, id: '3735693016', p: '61685.99', q: '0.00017', ts: 'sell' },
  { s: 'bookTicker', m: 'spot', i: 'BTCUSDT', et: 1003, lt: 2203, u: 7, bp: '1', bq: '2', ap: '3', aq: '4' },
  {
    s: 'kline',
    m: 'spot',
    i: 'BTCUSDT',
    et: 1004,
    lt: 2204,
    iv: '5m',
    ot: 1000,
    o: '1',
    h: '2',
    l: '0.5',
    c: '1.5',
    v: '10',
    qv: '15',
    n: 3,
    x: true,
  },
  { s: 'funding', m: 'contract', i: 'BTC_USDT', et: 1005, lt: 2205, r: '0.0001', nt: 1767225600000, min: '-0.0018', max: '0.0018', cy: 8 },
  { s: 'index', m: 'contract', i: 'BTC_USDT', et: 1006, lt: 2206, p: '87812.39' },
  { s: 'fair', m: 'contract', i: 'BTC_USDT', et: 1007, lt: 2207, p: '87790.2' },
  {
    s: 'ticker',
    m: 'spot',
    i: 'BTCUSDT',
    et: 1008,
    lt: 2208,
    last: '87904',
    open: '88395.05',
    high: '89190.19',
    low: '87405.97',
    v: '7670.80936815',
    qv: '677764373.43',
  },
];

describe('json-lines codec', () => {
  it('round_trips_every_record_type', () => {
    const text = encodeRecordLines(sample);
    expect(text.split('\n').length).to.equal(sample.length + 1);
    expect(parseRecordLines(text)).to.deep.equal(sample);
  });

  it('writes_keys_in_a_fixed_order_whatever_order_the_object_has', () => {
    const shuffled = { ts: 'buy', q: '1', p: '2', lt: 5, et: 4, i: 'X1', m: 'spot', s: 'trade' } as unknown as MarketRecord;
    expect(encodeRecordLine(shuffled)).to.equal('{"s":"trade","m":"spot","i":"X1","et":4,"lt":5,"p":"2","q":"1","ts":"buy"}');
  });

  it('names_the_line_and_field_of_a_bad_record', () => {
    const text = `${encodeRecordLine(sample[1]!)}\n{"s":"trade","m":"spot","i":"X","et":1,"lt":1,"p":"1.2.3","q":"1","ts":"buy"}\n`;
    expect(() => parseRecordLines(text))
      .to.throw(ValidationError)
      .with.property('field', 'line 2.p');
    expect(() => decodeRecordLine('not json'))
      .to.throw(ValidationError)
      .with.property('field', 'record');
    expect(() => decodeRecordLine('{"s":"nope","m":"spot"}', 7))
      .to.throw(ValidationError)
      .with.property('field', 'line 7.s');
  });

  it('writes_to_a_sink_and_reads_plain_and_gzipped_files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'perpetua-records-'));
    try {
      const chunks: string[] = [];
      const w = new JsonLinesRecordWriter({ write: (c: string) => chunks.push(c) });
      for (const r of sample) w.write(r);
      expect(w.count).to.equal(sample.length);
      writeFileSync(join(dir, 'a.jsonl.gz'), gzipSync(chunks.join('')));
      expect(readRecordFile(join(dir, 'a.jsonl.gz'))).to.deep.equal(sample);
      const fw = new RecordFileWriter(join(dir, 'b.jsonl'));
      fw.write(sample[3]!);
      fw.write(sample[7]!);
      await fw.close();
      expect(readRecordFile(join(dir, 'b.jsonl'))).to.deep.equal([sample[3], sample[7]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
