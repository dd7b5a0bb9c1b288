/**
 * Bounds how long a live recorder holds records in memory, in WALL time: the writer itself owns no
 * timer (ARCHITECTURE rule 1), so the recorder asks the injected Clock to flush it periodically.
 * `durable` also fsyncs (survives power loss at the cost of a disk flush per period).
 */
import type { Clock } from '../../core/clock.js';
import type { RecordStoreWriter } from './record-store-writer.js';

/** Starts flushing `writer` every `periodMs`; returns the function that stops it. */
export function flushPeriodically(writer: RecordStoreWriter, clock: Clock, periodMs: number, durable = false): () => void {
  const handle = clock.setInterval(periodMs, () => (durable ? writer.sync() : writer.flush()));
  return () => clock.clearTimer(handle);
}
