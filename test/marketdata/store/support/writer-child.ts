/**
 * Child process for the kill test: appends sampleRecord(0, 1, 2, …) to the store in argv[2] forever,
 * and after every flush prints how many records are on their way to disk. The parent SIGKILLs it.
 */
import { RecordStoreWriter } from '../../../../src/marketdata/store/record-store-writer.js';
import { sampleRecord } from './sample-records.js';

const dir = process.argv[2]!;
const w = RecordStoreWriter.open(dir, { chunkRecords: 64, segmentBytes: 64 * 1024, segmentPeriod: 'none' });
let k = 0;
function burst(): void {
  for (let n = 0; n < 300; n++) w.append(sampleRecord(k++));
  w.flush();
  process.stdout.write(`${k}\n`);
  setImmediate(burst);
}
burst();
