/**
 * Streams the lines of a text file, gunzipping when the file starts with the gzip magic (whatever
 * its name), so an import never holds a whole file in memory. Strips a UTF-8 BOM and CR line ends.
 */
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';

export interface SourceLine {
  readonly text: string;
  /** 1-based. */
  readonly lineNo: number;
}

export function isGzipFile(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const b = Buffer.alloc(2);
    return readSync(fd, b, 0, 2, 0) === 2 && b[0] === 0x1f && b[1] === 0x8b;
  } finally {
    closeSync(fd);
  }
}

/** `onBytes` receives the number of FILE bytes (compressed, for .gz) read so far, for progress. */
export async function* readLines(path: string, onBytes?: (bytesRead: number) => void): AsyncGenerator<SourceLine> {
  const raw = createReadStream(path, { highWaterMark: 256 * 1024 });
  if (onBytes) raw.on('data', () => onBytes(raw.bytesRead));
  const input = isGzipFile(path) ? raw.pipe(createGunzip()) : raw;
  raw.on('error', (e) => input.destroy(e));
  const rl = createInterface({ input, crlfDelay: Infinity });
  let lineNo = 0;
  try {
    for await (const line of rl) {
      lineNo++;
      yield { text: lineNo === 1 && line.charCodeAt(0) === 0xfeff ? line.slice(1) : line, lineNo };
    }
  } finally {
    rl.close();
    raw.destroy();
  }
}
