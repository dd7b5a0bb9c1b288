/** Log files carry an ISO UTC time on every line, from the injected clock. */
import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../src/core/logger.js';

describe('logger file', () => {
  it('stamps_every_line_with_the_clock_time_in_iso_utc', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'perpetua-log-'));
    try {
      const file = join(dir, 'run.log');
      let now = 1_767_225_600_000; // 2026-01-01T00:00:00Z
      const logger = createLogger({ quiet: true, file, clock: { now: () => now } });
      logger.info('first');
      now += 1500;
      logger.warn('second');
      await new Promise<void>((resolve) => {
        logger.on('finish', () => resolve());
        logger.end();
      });
      // winston's file transport finishes its write after the logger's finish: wait for both lines.
      const lineCount = (): number => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').length : 0);
      for (let i = 0; i < 1000 && lineCount() < 2; i++) await new Promise((r) => setImmediate(r));
      const lines = readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { time: string; message: string });
      expect(lines.map((l) => [l.time, l.message])).to.deep.equal([
        ['2026-01-01T00:00:00.000Z', 'first'],
        ['2026-01-01T00:00:01.500Z', 'second'],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
