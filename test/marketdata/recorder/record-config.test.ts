import { expect } from 'chai';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigInvalid } from '../../../src/core/config/config-issues.js';
import { ConfigError } from '../../../src/core/errors.js';
import {
  DEFAULT_CONTRACT_URL,
  DEFAULT_SPOT_URL,
  loadRecordConfig,
  parseDuration,
  parseRecordConfig,
  toMarketPollConfig,
} from '../../../src/marketdata/recorder/record-config.js';
import { TempDirs } from './support/recorder-rig.js';

function problems(input: unknown): string[] {
  try {
    parseRecordConfig(input);
  } catch (e) {
    if (e instanceof ConfigInvalid) return e.lines();
    throw e;
  }
  throw new Error('expected the config to be refused');
}

/** The repository's config/ folder, found from the compiled test wherever it runs. */
function configDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 10; i++) {
    if (existsSync(join(dir, 'config', 'record-mexc.yaml'))) return join(dir, 'config');
    dir = dirname(dir);
  }
  throw new Error('config/record-mexc.yaml not found above the compiled test');
}

const minimal = { out: 'rec', instruments: [{ symbol: 'BTCUSDT', streams: { depth: {} } }] };

describe('record config', () => {
  const dirs = new TempDirs();
  after(() => dirs.cleanup());

  it('fills_the_defaults_and_infers_the_kind_from_the_symbol', () => {
    const c = parseRecordConfig({
      out: 'rec',
      instruments: [
        { symbol: 'BTCUSDT', streams: { depth: {} } },
        { symbol: 'BTC_USDT', streams: { ticker: {} } },
      ],
    });
    expect(c.venue).to.deep.equal({
      spotUrl: DEFAULT_SPOT_URL,
      contractUrl: DEFAULT_CONTRACT_URL,
      requestTimeoutMs: 10_000,
      rateLimit: true,
    });
    expect(c.instruments.map((i) => [i.kind, i.symbol, i.cycleMs])).to.deep.equal([
      ['spot', 'BTCUSDT', 1000],
      ['contract', 'BTC_USDT', 1000],
    ]);
    expect(c.store).to.deep.equal({ flushMs: 5000, fsync: 'close', codec: 'deflate', segmentPeriod: 'day' });
    expect(c.duration).to.equal(undefined);
    // The pollers' own config shape.
    expect(toMarketPollConfig(c).instruments[1]).to.deep.equal({
      kind: 'contract',
      symbol: 'BTC_USDT',
      cycleMs: 1000,
      streams: { ticker: {} },
    });
  });

  it('refuses_unknown_keys_naming_each_path_and_the_accepted_keys', () => {
    expect(problems({ ...minimal, outDir: 'x', instruments: [{ symbol: 'BTCUSDT', streams: { depth: { limt: 5 } } }] })).to.deep.equal([
      'instruments[0].streams.depth.limt: unknown key (expected one of: everyMs, limit)',
      'outDir: unknown key (expected one of: out, venue, instruments, backoff, budget, duration, store, log, source)',
    ]);
  });

  it('refuses_the_spot_average_price_which_no_record_stream_holds', () => {
    expect(problems({ out: 'rec', instruments: [{ symbol: 'BTCUSDT', streams: { depth: {}, avgPrice: {} } }] })).to.deep.equal([
      'instruments[0].streams.avgPrice: unknown key (expected one of: depth, bookTicker, trades, klines, ticker24h)',
    ]);
  });

  it('names_the_path_and_the_expected_value_of_a_bad_value', () => {
    expect(
      problems({
        out: 'rec',
        venue: { spotUrl: 'api.mexc.com' },
        store: { fsync: 'always' },
        instruments: [
          { symbol: 'BTC_USDT', kind: 'spot', streams: { depth: {} } },
          { symbol: 'ETHUSDT', cycleMs: 10, streams: { klines: { intervals: ['Min1'] } } },
        ],
      }),
    ).to.deep.equal([
      'venue.spotUrl: expected an http(s) URL, received "api.mexc.com"',
      'instruments[0].symbol: expected a spot symbol (BTCUSDT), received "BTC_USDT"',
      'instruments[1].cycleMs: expected a whole number of milliseconds 50..3600000, received 10',
      'store.fsync: expected one of flush, chunk, close, never, received "always"',
    ]);
    expect(problems({ out: 'rec', instruments: [{ symbol: 'ETHUSDT', streams: { klines: { intervals: ['Min1'] } } }] })).to.deep.equal([
      'instruments[0].streams.klines.intervals[0]: expected one of 1m, 5m, 15m, 30m, 60m, 4h, 1d, 1W, 1M, received "Min1"',
    ]);
    expect(problems({ out: 'rec', instruments: [{ symbol: 'ETHUSDT', streams: { depth: null } }] })).to.deep.equal([
      'instruments[0].streams.depth: expected an object ({} polls every cycle), received null',
    ]);
  });

  it('refuses_a_cadence_faster_than_the_cycle_and_cadences_over_the_rate_budget', () => {
    expect(
      problems({ out: 'rec', instruments: [{ symbol: 'BTCUSDT', cycleMs: 1000, streams: { trades: { everyMs: 500 } } }] }),
    ).to.deep.equal(['instruments[0].streams.trades.everyMs: expected at least the cycle (1000 ms), received 500']);
    expect(problems({ out: 'rec', instruments: [minimal.instruments[0], minimal.instruments[0]] })).to.deep.equal([
      'instruments[1].symbol: BTCUSDT is listed twice',
    ]);
    // trades every 100 ms (weight 5 → 50 weight/s) + depth (weight 1 → 10/s) = 60 > the default 10 weight/s
    let err: unknown;
    try {
      parseRecordConfig({ out: 'rec', instruments: [{ symbol: 'BTCUSDT', cycleMs: 100, streams: { depth: {}, trades: {} } }] });
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(ConfigInvalid);
    expect((err as ConfigInvalid).path).to.equal('instruments[0].streams.trades');
    // With a budget that covers it, accepted.
    expect(() =>
      parseRecordConfig({
        out: 'rec',
        budget: { spotWeightPerSecond: 60, contractCallsPerSecondPerEndpoint: 5 },
        instruments: [{ symbol: 'BTCUSDT', cycleMs: 100, streams: { depth: {}, trades: {} } }],
      }),
    ).to.not.throw();
  });

  it('reads_durations_as_seconds_or_with_a_unit', () => {
    expect([
      parseDuration(90),
      parseDuration(2.5),
      parseDuration('90s'),
      parseDuration('15m'),
      parseDuration('2h'),
      parseDuration('1d'),
      parseDuration('500ms'),
      parseDuration('45'),
    ]).to.deep.equal([90_000, 2_500, 90_000, 900_000, 7_200_000, 86_400_000, 500, 45_000]);
    expect([parseDuration(0), parseDuration(-1), parseDuration('2 weeks'), parseDuration('')]).to.deep.equal([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(parseRecordConfig({ ...minimal, duration: '15m' }).duration).to.equal(900_000);
    expect(problems({ ...minimal, duration: 'soon' })).to.deep.equal([
      'duration: expected seconds > 0 or a duration like 90s, 15m, 2h, 1d, received "soon"',
    ]);
  });

  it('loads_the_example_configs', async () => {
    const emulator = await loadRecordConfig(join(configDir(), 'record-emulator.yaml'));
    expect(emulator.venue.spotUrl).to.equal('http://127.0.0.1:8787');
    expect(emulator.instruments.map((i) => i.symbol)).to.deep.equal(['BTCUSDT', 'BTC_USDT']);
    const mexc = await loadRecordConfig(join(configDir(), 'record-mexc.yaml'));
    expect([mexc.venue.spotUrl, mexc.venue.contractUrl]).to.deep.equal([DEFAULT_SPOT_URL, DEFAULT_CONTRACT_URL]);
    expect(mexc.duration).to.equal(undefined);
  });

  it('reports_a_file_that_is_not_yaml_with_its_name', async () => {
    const file = join(dirs.make(), 'bad.yaml');
    writeFileSync(file, 'out: [unclosed\n');
    let err: unknown;
    try {
      await loadRecordConfig(file);
    } catch (e) {
      err = e;
    }
    // The one loader's wording (core/config/yaml-config.ts): the file, then where the syntax breaks.
    expect(err).to.be.instanceOf(ConfigInvalid);
    expect((err as ConfigInvalid).source).to.equal(file);
    expect((err as ConfigInvalid).lines()).to.have.length(1);
    expect((err as ConfigInvalid).lines()[0]).to.match(/^not valid YAML at line \d+, column \d+: /);
    expect((err as ConfigError).message).to.include(file);
  });
});
