/**
 * JSON-lines recordings (record/json-lines-codec.ts, e.g. what the live recorder or the mirror wrote
 * before the binary store existed) → the store, record for record, meta lines included.
 */
import { ValidationError } from '../../core/errors.js';
import { decodeRecordLine } from '../record/json-lines-codec.js';
import { isDataRecord, type MarketRecord } from '../record/record.js';
import { handleBadRow, type BadRowPolicy, type ImportStats } from './import-stats.js';
import { readLines } from './line-reader.js';

export async function* importRecordLinesFile(
  file: string,
  opts: { readonly onBadRow?: BadRowPolicy },
  stats: ImportStats,
  onBytes?: (n: number) => void,
): AsyncGenerator<MarketRecord> {
  const fs = stats.file(file);
  for await (const { text, lineNo } of readLines(file, onBytes)) {
    fs.lines = lineNo;
    if (!text.trim()) continue;
    try {
      let rec: MarketRecord;
      try {
        rec = decodeRecordLine(text, lineNo);
      } catch (e) {
        if (e instanceof ValidationError) throw new ValidationError(`${file} ${e.field}`, e.expected, e.received);
        throw e;
      }
      if (isDataRecord(rec)) {
        fs.records++;
        stats.record(rec);
      }
      yield rec;
    } catch (e) {
      handleBadRow(opts.onBadRow ?? 'fail', stats, fs, e);
    }
  }
}
