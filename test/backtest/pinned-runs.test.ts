/**
 * Pinned trading records of every shipped backtest config (issue 13): each config in config/ with a
 * `backtest` section is run through the `perpetua backtest` command, every fill model, and the hashes
 * of its orders, fills, funding and equity series (src/backtest/run-fingerprint.ts) must equal the
 * ones recorded here. They were recorded by this code before the backtester's speed work; a speed
 * change must keep every one of them (the differential check), and a correctness change that moves
 * them says so in its commit and updates them here.
 *
 * Besides the shipped configs, the reference perpetual trend strategy on the 50.8-day BTCUSDT recording
 * of ../shared/data (the run issue 13's budget is measured on), neutral model; skipped with a message
 * when ../shared/data is absent (a fresh clone). The shipped configs read data/sample and always run.
 */
import { expect } from 'chai';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { backtestCommand } from '../../src/app/cli/backtest-command.js';
import { PROJECT_ROOT } from '../support/project-root.js';
import { runFingerprint as runHashes, type RunFingerprint as RunHashes } from '../../src/backtest/run-fingerprint.js';

/**
 * `<config>/<fill model>` → hashes, as recorded before the speed work (see the file comment). One
 * correctness change moved them since: backtest-perp ends at `to` = 2025-05-12 00:00 and now keeps the
 * bar that opens at 23:59 (issue 13, defect 2): one more equity sample, orders, fills and funding alike.
 * backtest-spot-grid and backtest-perp-as-maker were pinned when the strategy library landed (issue 18),
 * from the first run of their configs, before any speed work touched them; backtest-target-position
 * likewise when execution algorithms landed (issue 18 item 5), and backtest-perp-trailing when perp-trend
 * gained trailing protection (issue 18 item 4), from its first run; backtest-funding-carry from its
 * first run (the sample gained a week of spot and perpetual bars of the same minutes for it). A second
 * correctness change moved the fills of backtest-funding-carry and backtest-target-position only: a spot
 * order's fills taken while it was being placed now carry its client id (they had none); every other
 * field of every fill, and all orders, funding and equity, are as before.
 */
const PINNED: Readonly<Record<string, RunHashes>> = {
  'backtest-funding-carry/neutral': {
    orders: '387b50c79db1fbdb0568212a1ded6852',
    fills: '89d79acfe393a65658879d771ab8df0f',
    funding: 'efe0ec897f5a5e267056c379681a691b',
    equity: '82e42428e7e4a4aadd7a1dbc0a30adf8',
    counts: '2 orders, 2 fills, 20 funding, 10081 samples',
  },
  'backtest-funding-carry/optimistic': {
    orders: '91eb05b20c314bb7a9816d51b0ca219c',
    fills: '92b020d33f679adcbfde5f883ef70582',
    funding: 'efe0ec897f5a5e267056c379681a691b',
    equity: '82e42428e7e4a4aadd7a1dbc0a30adf8',
    counts: '2 orders, 2 fills, 20 funding, 10081 samples',
  },
  'backtest-funding-carry/pessimistic': {
    orders: '0e355d8f39402b9ef461fad57c81f2a1',
    fills: '0d010cb56c2e13401f4d1c26759a17e6',
    funding: 'efe0ec897f5a5e267056c379681a691b',
    equity: 'dfc2cacf8d8f4044e2694285114ea6b6',
    counts: '2 orders, 2 fills, 20 funding, 10081 samples',
  },
  'backtest-perp/neutral': {
    orders: '03325d9ee1f0c2c22c0708cb75eb860a',
    fills: '4a07a1b4b4a71e3d371878ddda28f57c',
    funding: '32f80a1baf24cf0c5889a0797a20d414',
    equity: '6af3b4f271fb151a07f750faf2f68947',
    counts: '362 orders, 362 fills, 7 funding, 10081 samples',
  },
  'backtest-perp/optimistic': {
    orders: '397d7dd67c44a0aa11e87a872b2a78b9',
    fills: 'b354973815fa3a37bb1152cf1b8fbc5f',
    funding: '32f80a1baf24cf0c5889a0797a20d414',
    equity: '6af3b4f271fb151a07f750faf2f68947',
    counts: '362 orders, 362 fills, 7 funding, 10081 samples',
  },
  'backtest-perp/pessimistic': {
    orders: 'db8dde58646443023c67ad832cda666d',
    fills: '5da48230ceb3542ee0d859d51746a4b6',
    funding: '32f80a1baf24cf0c5889a0797a20d414',
    equity: '70f7eb302c700829be5f7428a766020b',
    counts: '362 orders, 362 fills, 7 funding, 10081 samples',
  },
  'backtest-spot-mm/neutral': {
    orders: '795f7f5ff994f9c64234a2bbf4206550',
    fills: '65a56bcc49e690424c969e157401524d',
    funding: 'e3b0c44298fc1c149afbf4c8996fb924',
    equity: '3de945f89aed949cd3eb078bf629fae0',
    counts: '588 orders, 508 fills, 0 funding, 652 samples',
  },
  'backtest-spot-mm/optimistic': {
    orders: 'd3559dcd4a8fb19ec42376b056ab6f9a',
    fills: '193f843bd9513872a5bb5d5692ff0b7f',
    funding: 'e3b0c44298fc1c149afbf4c8996fb924',
    equity: 'b1387ca5c96e9dbfdc9f29033673c84d',
    counts: '605 orders, 145 fills, 0 funding, 652 samples',
  },
  'backtest-spot-mm/pessimistic': {
    orders: 'e3868606a5b39308c720e71788e35276',
    fills: 'e2ec5a8bd2610e7fafd3a47d91e08835',
    funding: 'e3b0c44298fc1c149afbf4c8996fb924',
    equity: '6517f46e88e2555ccda363d4600ef841',
    counts: '557 orders, 504 fills, 0 funding, 652 samples',
  },
  'perp-trend-50d (../shared/data)/neutral': {
    orders: '73e503d846ba147949ff4f6a9619264e',
    fills: '8c38be6d53612ed2352c3f39921920e6',
    funding: 'a68e71bdc95345cb9b3ddd986f87adf4',
    equity: 'e84df25725ee5a42b8489820c21fde94',
    counts: '2657 orders, 2657 fills, 64 funding, 73140 samples',
  },
  'sweep-walk-forward/neutral': {
    orders: 'ea2b66ea7ceb444e56248b6fab766cfc',
    fills: '48e8b2e7d346f6bb48706ad3e162fb09',
    funding: '32f80a1baf24cf0c5889a0797a20d414',
    equity: 'bd7b3d28828ef9f511cb034854b44ab1',
    counts: '376 orders, 376 fills, 7 funding, 10588 samples',
  },
  'sweep-walk-forward/optimistic': {
    orders: '8afce83d96407607ce5edf0908fa72a7',
    fills: '611449d9781aa95c3da0845a5c90e13e',
    funding: '32f80a1baf24cf0c5889a0797a20d414',
    equity: 'bd7b3d28828ef9f511cb034854b44ab1',
    counts: '376 orders, 376 fills, 7 funding, 10588 samples',
  },
  'sweep-walk-forward/pessimistic': {
    orders: '1c22ebb048f89605b8da4656c5e1c91b',
    fills: '52ad51df895aa67ace15c811d096591f',
    funding: '32f80a1baf24cf0c5889a0797a20d414',
    equity: '93ad91bc395fec6a21308e02f6c3ea85',
    counts: '376 orders, 376 fills, 7 funding, 10588 samples',
  },
  'backtest-perp-as-maker/neutral': {
    orders: '228c9c0eb3df9beebd8213a02a90dc03',
    fills: '342e761724c5bd77c902024e3ce5214c',
    funding: 'ca8a301ddbdc3005e2553055b5f9ce1a',
    equity: 'de78b1434e4235a4912fcb629c6ddffa',
    counts: '1240 orders, 1242 fills, 1 funding, 1441 samples',
  },
  'backtest-perp-as-maker/optimistic': {
    orders: 'd5d1d93c26eac2688a197f69e83ff88b',
    fills: '48a6d7e8f6f3ed003b4c7269d23eb6f6',
    funding: '696f9b8e14eb5b9e62bf4c6bda15fa34',
    equity: '98ece7c8d66be4f26e31b1d22e667393',
    counts: '1681 orders, 1680 fills, 2 funding, 1441 samples',
  },
  'backtest-perp-as-maker/pessimistic': {
    orders: '7457b664c4e2d4154fb843c9932fcc06',
    fills: '8f0b94132566bcd30cbf1f4929c99469',
    funding: 'c29103a769a74d9f7da971cdc44460bd',
    equity: '7a9709d48c830f8315597dffe6874bd7',
    counts: '1260 orders, 1259 fills, 1 funding, 1441 samples',
  },
  'backtest-perp-trailing/neutral': {
    orders: 'ad87ec01b462b114bdfcb5c3e243679c',
    fills: 'ee4bd336460db3c705e2cc3151cdf3f2',
    funding: 'b8c3f388d8e554df5e4fd2aefa0bae13',
    equity: '2ecba7e41e5b8800fcd26280947aa90a',
    counts: '364 orders, 393 fills, 7 funding, 10081 samples',
  },
  'backtest-spot-grid/neutral': {
    orders: '75015f51979ea504e6e570a0f6be0841',
    fills: '486a29baf1ccc82163fabb1c09dfa5d5',
    funding: 'e3b0c44298fc1c149afbf4c8996fb924',
    equity: '27771cd871471f5b0b78918c675e9809',
    counts: '193 orders, 648 fills, 0 funding, 652 samples',
  },
  'backtest-spot-grid/optimistic': {
    orders: '5fbae159a27d362b055210dd526c6ca6',
    fills: 'f4269598f7182fe08eccd3a95043687b',
    funding: 'e3b0c44298fc1c149afbf4c8996fb924',
    equity: 'ba5795a7f4acbb6f495634add7fbdcd8',
    counts: '199 orders, 306 fills, 0 funding, 652 samples',
  },
  'backtest-spot-grid/pessimistic': {
    orders: '4245946b8d2b1a7366ba48311a352071',
    fills: 'debd8f0800e3f66e05ef2e689960752e',
    funding: 'e3b0c44298fc1c149afbf4c8996fb924',
    equity: '51dcd670bcaf65abc2b2f82cb3ed91ed',
    counts: '193 orders, 681 fills, 0 funding, 652 samples',
  },
  'backtest-target-position/neutral': {
    orders: '657070d277dcb058c647100a03e3e8c2',
    fills: '821ca5da5d9bd2125200190065f536aa',
    funding: 'e3b0c44298fc1c149afbf4c8996fb924',
    equity: '8f0f15d6e3dc101e3f3da05dbe49cc1e',
    counts: '20 orders, 22 fills, 0 funding, 652 samples',
  },
  'backtest-target-position/optimistic': {
    orders: 'bc10782822cfabfce9c26fe46a54fc1d',
    fills: '1cf7f629f46552675c68c297f62e96d9',
    funding: 'e3b0c44298fc1c149afbf4c8996fb924',
    equity: '8f0f15d6e3dc101e3f3da05dbe49cc1e',
    counts: '20 orders, 22 fills, 0 funding, 652 samples',
  },
  'backtest-target-position/pessimistic': {
    orders: 'aa94ec61cf61835ef336245b59e375fb',
    fills: 'fa7ab4e8313d04c6e8128efa66a0d435',
    funding: 'e3b0c44298fc1c149afbf4c8996fb924',
    equity: 'ddea605baf544cdcdc36db437b4a0009',
    counts: '20 orders, 20 fills, 0 funding, 652 samples',
  },
};

const SHARED = resolve(PROJECT_ROOT, '..', 'shared', 'data');
const LONG_KLINES = join(SHARED, 'binance_perp_1m', 'binance_usdm_BTCUSDT_perp_1m_2025-05-04_2025-06-24.csv');
const LONG_FUNDING = join(SHARED, 'binance_perp_funding_mark', 'binance_usdm_BTCUSDT_funding_rate_8h_2022-01-01_2025-10-27.csv');

const sink = (): Writable => new Writable({ write: (_c, _e, cb) => cb() });

interface Case {
  readonly name: string;
  /** The config file the command runs. */
  readonly file: string;
  /** Data files the case needs; missing ones under ../shared skip the case. */
  readonly data: readonly string[];
}

function dataFilesOf(file: string): string[] {
  const doc = parseYaml(readFileSync(file, 'utf8')) as { backtest?: { data?: { files?: string[]; path?: string }[] } };
  return (doc.backtest?.data ?? []).flatMap((d) => [...(d.files ?? []), ...(d.path ? [d.path] : [])]).map((f) => resolve(PROJECT_ROOT, f));
}

function shippedCases(): Case[] {
  const dir = join(PROJECT_ROOT, 'config');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => join(dir, f))
    .filter((file) => (parseYaml(readFileSync(file, 'utf8')) as { backtest?: unknown }).backtest !== undefined)
    .map((file) => ({ name: file.slice(dir.length + 1).replace(/\.yaml$/, ''), file, data: dataFilesOf(file) }));
}

describe('pinned runs: orders, fills, funding and equity of every shipped backtest config', function () {
  this.timeout(600_000);
  const tmp = mkdtempSync(join(tmpdir(), 'perpetua-pins-'));
  after(() => rmSync(tmp, { recursive: true, force: true }));

  const longFile = join(tmp, 'perp-trend-50d.yaml');
  const cases: Case[] = [...shippedCases(), { name: 'perp-trend-50d (../shared/data)', file: longFile, data: [LONG_KLINES, LONG_FUNDING] }];

  it('finds_the_shipped_backtest_configs', () => {
    // The two reference configs and the walk-forward sweep, which runs the same strategy and data.
    expect(shippedCases().map((c) => c.name)).to.include.members(['backtest-perp', 'backtest-spot-mm', 'sweep-walk-forward']);
  });

  for (const c of cases) {
    it(`keeps_the_trading_record_of_${c.name}`, async function () {
      const missing = c.data.filter((f) => !existsSync(f));
      if (missing.length > 0) {
        if (missing.every((f) => f.startsWith(SHARED))) {
          console.log(`      skipped: ${c.name} reads ${missing.join(', ')}, absent (../shared/data is not part of a fresh clone)`);
          this.skip();
        }
        throw new Error(`${c.name}: shipped data missing: ${missing.join(', ')}`);
      }
      if (c.file === longFile) {
        const base = parseYaml(readFileSync(join(PROJECT_ROOT, 'config', 'backtest-perp.yaml'), 'utf8')) as Record<
          string,
          Record<string, unknown>
        >;
        const { from: _f, to: _t, ...bt } = base.backtest!;
        const data = (bt.data as Record<string, unknown>[]).map((d) => ({
          ...d,
          files: [d.kind === 'funding' ? LONG_FUNDING : LONG_KLINES],
        }));
        writeFileSync(longFile, toYaml({ ...base, backtest: { ...bt, fillModels: ['neutral'], data } }));
      }
      const summary = await backtestCommand({
        config: c.file,
        out: join(tmp, c.name.replace(/\W+/g, '-')),
        progress: false,
        output: sink(),
        cwd: PROJECT_ROOT,
        tape: false,
      });
      const actual: Record<string, RunHashes> = {};
      for (const run of summary.runs) actual[`${c.name}/${run.fillModel}`] = runHashes(run);
      const expected: Record<string, RunHashes> = {};
      for (const k of Object.keys(actual)) if (PINNED[k]) expected[k] = PINNED[k];
      // A config without pins fails with the hashes to pin (recorded once, by hand, from this output).
      expect(actual, `pins for ${c.name}:\n${JSON.stringify(actual, null, 2)}`).to.deep.equal(expected);
    });
  }
});
