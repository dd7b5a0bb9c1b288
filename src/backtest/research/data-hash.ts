/**
 * Content hash of the data a backtest config reads: SHA-256 over every input file's bytes, in the
 * order the config lists them (a record store folder: its files by relative path). A queue worker on
 * another machine compares it with the coordinator's before it runs anything, so two machines never
 * mix results from different data under one sweep.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { DataSource } from '../backtest-config.js';
import { checkDataSources } from '../backtest-data.js';

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(p)));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

export async function dataContentHash(sources: readonly DataSource[], cwd: string): Promise<string> {
  const h = createHash('sha256');
  for (const input of checkDataSources(sources, cwd)) {
    const isDir = (await stat(input)).isDirectory();
    const files = isDir ? (await filesUnder(input)).sort() : [input];
    for (const f of files) {
      // The name inside a store counts (a record file moved to another day is other data); the
      // folder's own location does not.
      if (isDir) h.update(`${relative(input, f)}\0`);
      for await (const chunk of createReadStream(f)) h.update(chunk as Buffer);
      h.update('\0');
    }
  }
  return h.digest('hex');
}
