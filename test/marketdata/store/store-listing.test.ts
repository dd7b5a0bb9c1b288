import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { stringify } from 'yaml';
import { backtestCommand } from '../../../src/app/cli/backtest-command.js';
import { ConfigError } from '../../../src/core/errors.js';
import { importCommand } from '../../../src/app/cli/import-command.js';
import { RecordStoreReader } from '../../../src/marketdata/store/record-store-reader.js';
import { describeStoreSpan, storeListingLines } from '../../../src/marketdata/store/store-listing.js';
import { PERP_KLINES_FILE, perpTrendDoc } from '../../backtest/support/backtest-fixtures.js';

const sink = (): Writable => new Writable({ write: (_c, _e, cb) => cb() });

// The fixture holds 600 one-minute bars opening 2025-05-04 15:33 (1746372780000) through 01:32 the next
// day (1746408720000); a bar's record time is its CLOSE (open + 1 min), so the store spans 15:34 → 01:33.
describe('record store listing (perpetua data list) and span errors', function () {
  this.timeout(60_000);
  let dir: string;
  let store: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'perpetua-store-list-'));
    store = join(dir, 'store');
    await importCommand({
      kind: 'klines',
      market: 'contract',
      symbol: 'BTCUSDT',
      interval: '1m',
      input: [PERP_KLINES_FILE],
      out: store,
      progress: false,
    });
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('lists_symbols_streams_counts_and_span_from_the_index', () => {
    const reader = RecordStoreReader.open(store);
    try {
      const lines = storeListingLines('store', reader.summary());
      expect(lines[0]).to.match(/^store: 600 records, 1 instrument, 1 segment, /);
      expect(lines[1]).to.match(/^instrument\s+stream\s+records\s+first \(UTC\)\s+last \(UTC\)$/);
      expect(lines[2]!.split(/\s{2,}/)).to.deep.equal(['contract:BTCUSDT', 'kline', '600', '2025-05-04 15:34:00', '2025-05-05 01:33:00']);
      expect(lines).to.have.length(3);
    } finally {
      reader.close();
    }
  });

  it('names_a_missing_instrument_and_what_the_store_has', () => {
    const reader = RecordStoreReader.open(store);
    try {
      expect(describeStoreSpan('s', reader.summary(), ['spot:ETHUSDT'])).to.equal(
        's holds no records of spot:ETHUSDT (it has contract:BTCUSDT)',
      );
    } finally {
      reader.close();
    }
  });

  it('a_backtest_window_outside_the_store_names_the_store_span', async () => {
    const doc = perpTrendDoc();
    const bt = doc.backtest as Record<string, unknown>;
    const file = join(dir, 'outside.yaml');
    writeFileSync(
      file,
      stringify({
        ...doc,
        backtest: { ...bt, from: '2025-06-01T00:00:00Z', to: '2025-06-02T00:00:00Z', data: [{ kind: 'store', path: store }] },
      }),
    );
    let err: unknown;
    await backtestCommand({ config: file, out: join(dir, 'never'), progress: false, output: sink(), cwd: dir }).catch(
      (e: unknown) => (err = e),
    );
    expect(err).to.be.instanceOf(ConfigError);
    const msg = (err as Error).message;
    expect(msg).to.contain('between backtest.from 2025-06-01 00:00:00 and backtest.to 2025-06-02 00:00:00 UTC');
    expect(msg).to.contain(`${store} holds contract:BTCUSDT from 2025-05-04 15:34:00 to 2025-05-05 01:33:00 UTC`);
  });
});
