import { expect } from 'chai';
import fc from 'fast-check';
import { RECORD_STREAMS, type DataRecord, type RecordStream } from '../../../src/marketdata/record/record.js';
import { encodeRecordLine } from '../../../src/marketdata/record/json-lines-codec.js';
import { decodeChunkPayload, encodeChunkPayload } from '../../../src/marketdata/store/chunk-codec.js';
import { recordArbs } from './support/record-arbitraries.js';

/** A chunk holds one (market, instrument, stream): give every generated record the same head. */
function roundTrip(stream: RecordStream, records: DataRecord[]): DataRecord[] {
  const seqs = records.map((_, k) => 10 + k * 3);
  const raw = encodeChunkPayload(stream, records, seqs, seqs[0] ?? 0);
  const out = decodeChunkPayload(stream, 'contract', 'BTC_USDT', seqs[0] ?? 0, raw);
  expect(out.seqs).to.deep.equal(seqs);
  return out.records;
}

describe('chunk codec', () => {
  for (const stream of RECORD_STREAMS) {
    it(`round_trips_${stream.replace('.', '_')}_records_losslessly`, () => {
      fc.assert(
        fc.property(fc.array(recordArbs[stream], { minLength: 1, maxLength: 40 }), (generated) => {
          const records = generated.map((r) => ({ ...r, m: 'contract', i: 'BTC_USDT' }) as DataRecord);
          const decoded = roundTrip(stream, records);
          expect(decoded).to.deep.equal(records);
          // Same key order as the JSON-lines codec: the decoded record re-encodes to the same line.
          expect(decoded.map((r) => JSON.stringify(r))).to.deep.equal(records.map((r) => encodeRecordLine(r)));
        }),
        { numRuns: 150 },
      );
    });
  }

  it('keeps_venue_padding_and_level_order_counts', () => {
    const rec: DataRecord = {
      s: 'depth.diff',
      m: 'contract',
      i: 'BTC_USDT',
      et: 1680652700594,
      lt: 1680652700600,
      U: 2710246765373,
      u: 2710246765597,
      pu: 2710246765326,
      b: [
        ['5000.00', '14.368', 3],
        ['28018.90', '0.000'],
      ],
      a: [],
    };
    expect(roundTrip('depth.diff', [rec])).to.deep.equal([rec]);
  });

  it('refuses_seqs_that_do_not_increase', () => {
    const t: DataRecord = { s: 'fair', m: 'contract', i: 'BTC_USDT', et: 1, lt: 1, p: '1' };
    expect(() => encodeChunkPayload('fair', [t, t], [5, 4], 5)).to.throw(RangeError);
  });
});
