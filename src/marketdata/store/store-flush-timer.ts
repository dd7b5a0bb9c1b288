/**
 * Bounds how long a live recorder holds records in memory, in WALL time: the writer itself owns no
 * timer (docs/architecture.md rule 1), so the recorder asks the injected Clock to flush it periodically.
 * `durable` also fsyncs (survives power loss at the cost of a disk flush per period).
 *
 * A flush that fails (disk full, the volume gone) runs in a timer callback, where a throw would be an
 * uncaught exception that kills the process with the data still buffered: the timer stops and the
 * error goes to `onError` instead, so the owner can stop cleanly (the store recovers its last
 * complete chunk on the next open either way).
 */
import type { Clock } from '../../core/clock.js';
import type { RecordStoreWriter } from './record-store-writer.js';

/** Starts flushing `writer` every `periodMs`; returns the function that stops it. */
export function flushPeriodically(
  writer: RecordStoreWriter,
  clock: Clock,
  periodMs: number,
  durable = false,
  onError?: (error: unknown) => void,
): () => void {
  const handle = clock.setInterval(periodMs, () => {
    try {
      if (durable) writer.sync();
      else writer.flush();
    } catch (e) {
      clock.clearTimer(handle);
      if (!onError) throw e;
      onError(e);
    }
  });
  return () => clock.clearTimer(handle);
}
