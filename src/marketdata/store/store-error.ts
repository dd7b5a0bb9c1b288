/**
 * A record store whose bytes are not what its writer wrote, beyond what crash recovery may repair:
 * a chunk in the middle of a segment fails its crc while later chunks are intact, or a segment file
 * is not one of ours. Never retryable; the message names the file and the byte offset.
 */
import { PerpetuaError } from '../../core/errors.js';

export class StoreCorrupted extends PerpetuaError {
  readonly retryable = false;
  constructor(
    readonly file: string,
    readonly offset: number,
    detail: string,
  ) {
    super(`${file} @ byte ${offset}: ${detail}`);
  }
}

/** Another live process holds the store's writer lock. */
export class StoreLocked extends PerpetuaError {
  readonly retryable = true;
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(`${dir} is being written by process ${pid}`);
  }
}
