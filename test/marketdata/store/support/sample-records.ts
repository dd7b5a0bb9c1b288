/** Deterministic records shared by the store tests and the writer child process. */
import type { DataRecord } from '../../../../src/marketdata/record/record.js';

const T0 = 1_723_161_255_000;

/** Record number k of an endless interleaving of trades and depth diffs of two instruments. */
export function sampleRecord(k: number): DataRecord {
  const i = k % 4 < 2 ? 'BTCUSDT' : 'ETHUSDT';
  const t = T0 + Math.floor(k / 3) * 5;
  if (k % 2 === 0)
    return {
      s: 'trade',
      m: 'spot',
      i,
      et: t + 1250,
      lt: t,
      id: String(k),
      p: `${61000 + (k % 97)}.${String(k % 100).padStart(2, '0')}000000`,
      q: '0.00100000',
      ts: k % 3 === 0 ? 'buy' : 'sell',
    };
  return {
    s: 'depth.diff',
    m: 'spot',
    i,
    et: t + 1250,
    lt: t,
    U: k,
    u: k + 3,
    b: [[`${61000 + (k % 89)}.10000000`, `${k % 7}.00000000`]],
    a: [
      [`${61100 + (k % 83)}.20000000`, '0.50000000'],
      [`${61101 + (k % 83)}.20000000`, '0.00000000'],
    ],
  };
}

/** The unique number k carried by a sample record. */
export const sampleNumber = (r: DataRecord): number => (r.s === 'trade' ? Number(r.id) : r.s === 'depth.diff' ? r.U : NaN);
