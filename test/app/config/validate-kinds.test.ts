/**
 * `perpetua validate` on every config kind: the kind comes from `kind:` or the keys; problems come all
 * at once, each with its YAML path and the expected value, in the same form as run configs. The
 * expected lines are written out from the schemas' bounds (port 0..65535, clock mode system|virtual,
 * …), not copied from output.
 */
import { expect } from 'chai';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectConfigKind } from '../../../src/core/config-kind.js';
import { validateConfig } from '../../../src/app/cli/validate-command.js';
import { PROJECT_ROOT } from '../../support/project-root.js';
import { ConfigInvalid } from '../../../src/core/config/config-issues.js';
import { loadEmulatorConfig } from '../../../src/emulator/emulator-config.js';
import { loadRecordConfig } from '../../../src/marketdata/recorder/record-config.js';
import { loadRunConfig } from '../../../src/runtime/config/load-run-config.js';
import { loadBacktestConfig } from '../../../src/backtest/backtest-config.js';
import { strategyCatalog } from '../../../src/runtime/container/strategy-module.js';

describe('validate: every config kind', () => {
  let dir: string;
  let cwd: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'perpetua-validate-'));
    cwd = process.cwd();
    process.chdir(PROJECT_ROOT); // shipped configs name files relative to the project
  });
  after(() => {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
  });
  const write = (name: string, text: string): string => {
    const f = join(dir, name);
    writeFileSync(f, text);
    return f;
  };

  it('accepts_every_shipped_config_as_its_kind', async () => {
    const expected: Record<string, string> = {
      'backtest-perp.yaml': 'sweep',
      'backtest-spot-mm.yaml': 'sweep',
      'backtest-spot-grid.yaml': 'sweep',
      'backtest-perp-as-maker.yaml': 'sweep',
      'default.yaml': 'run',
      'perp-paper.yaml': 'run',
      'emulator.yaml': 'emulator',
      'paper-emulator.yaml': 'emulator',
      'record-emulator.yaml': 'record',
      'record-mexc.yaml': 'record',
    };
    for (const f of readdirSync(join(PROJECT_ROOT, 'config')).filter((n) => n.endsWith('.yaml'))) {
      const r = await validateConfig(join('config', f));
      expect(r.ok, `${f}: ${r.lines.join('\n')}`).to.equal(true);
      if (expected[f]) expect(r.kind, f).to.equal(expected[f]);
    }
  });

  it('emulator_config_lists_every_problem_with_its_path', async () => {
    const f = write(
      'emu.yaml',
      [
        'port: 99999',
        'clock: { mode: sometimes }',
        'limits: { maxOpenOrders: 0 }',
        'accounts:',
        '  - { name: demo, apiKey: mx0vglDemo01, secretKey: demo-secret-0123456789, spot: { balances: { USDT: lots } } }',
        '',
      ].join('\n'),
    );
    const r = await validateConfig(f);
    expect(r.ok).to.equal(false);
    expect(r.kind).to.equal('emulator');
    expect(r.lines).to.deep.equal([
      `${f}: emulator config, 4 problems`,
      '  port: expected an integer >= 0 and <= 65535, received 99999',
      '  clock.mode: expected one of system, virtual, received "sometimes"',
      '  limits.maxOpenOrders: expected an integer >= 1, received 0',
      '  accounts[0].spot.balances.USDT: expected a decimal number >= 0, received "lots"',
    ]);
  });

  it('backtest_config_lists_every_problem_including_missing_data_files', async () => {
    const doc = [
      'instruments: [BTCUSDT]',
      'strategies: [{ id: mm1, name: spot-market-maker, instruments: [BTCUSDT], params: { spreadBps: -1, orderSize: "0.002", maxInventory: "0.02" } }]',
      'backtest:',
      '  initialCapital: abc',
      '  data: [{ kind: l2, market: spot, files: [nope.gz] }]',
      '',
    ].join('\n');
    const r = await validateConfig(write('bt.yaml', doc));
    expect(r.kind).to.equal('backtest');
    expect(r.lines.slice(1)).to.deep.equal([
      '  strategies[0].params.spreadBps: expected a number > 0 and <= 10000, received -1',
      '  backtest.initialCapital: expected a decimal number > 0, received "abc"',
    ]);
    // With the schema problems fixed, the data file is what remains, at its own path.
    const r2 = await validateConfig(write('bt2.yaml', doc.replace('spreadBps: -1', 'spreadBps: 1').replace('abc', "'1000'")));
    expect(r2.lines).to.have.length(2);
    expect(r2.lines[1]).to.match(/^ {2}backtest\.data\[0\]\.files\[0\]: nope\.gz does not exist/);
    expect(r2.lines.join('\n')).to.not.contain('ConfigInvalid');
  });

  it('sweep_rankBy_must_be_a_metric', async () => {
    const doc = [
      'instruments: [BTCUSDT]',
      'strategies: [{ id: mm1, name: spot-market-maker, instruments: [BTCUSDT], params: { orderSize: "0.002", maxInventory: "0.02" } }]',
      'backtest: { initialCapital: "1000", data: [{ kind: l2, market: spot, files: [data/sample/binance_spot_btcusdt_20240808.gz] }] }',
      'sweep: { parameters: { spreadBps: [1, 2] }, rankBy: startTime }',
      '',
    ].join('\n');
    const r = await validateConfig(write('sw.yaml', doc));
    expect(r.kind).to.equal('sweep');
    expect(r.lines).to.have.length(2);
    // The sweep schema (backtest/research) words it; validate must route to it and print it at its path.
    expect(r.lines[1]).to.match(/^ {2}sweep\.rankBy: expected one of .*\bsharpe\b.*"startTime"$/);
    expect(r.lines[1]).to.not.match(/\bstartTime\b.*\bstartTime\b/);
  });

  it('record_config_lists_every_problem', async () => {
    const r = await validateConfig(
      write('rec.yaml', 'out: x\nduration: 10q\ninstruments:\n  - symbol: BTCUSDT\n    streams: { depth: { limit: -1 } }\n'),
    );
    expect(r.kind).to.equal('record');
    expect(r.lines.slice(1)).to.deep.equal([
      '  instruments[0].streams.depth.limit: expected an integer 1..5000, received -1',
      '  duration: expected seconds > 0 or a duration like 90s, 15m, 2h, 1d, received "10q"',
    ]);
  });

  it('each_commands_loader_refuses_a_broken_file_with_the_lines_validate_prints', async () => {
    // One loader (core/config/yaml-config.ts) behind every command: what `perpetua emulator`, `record`,
    // `run` and `backtest` throw is what `validate` prints, line for line. The first line of each is
    // worked out from the schema: port is an integer 0..65535, a depth limit 1..5000, the strategy param
    // spreadBps > 0 and <= 10000; a syntax error names its line and column.
    const catalog = strategyCatalog();
    const strategy =
      'strategies: [{ id: mm1, name: spot-market-maker, instruments: [BTCUSDT], params: { spreadBps: -1, orderSize: "0.002", maxInventory: "0.02" } }]';
    const cases: [kind: string, text: string, load: (f: string) => Promise<unknown>, first: string][] = [
      [
        'emulator',
        'port: 99999\nclock: { mode: sometimes }\n',
        loadEmulatorConfig,
        'port: expected an integer >= 0 and <= 65535, received 99999',
      ],
      [
        'record',
        'out: x\ninstruments:\n  - symbol: BTCUSDT\n    streams: { depth: { limit: -1 } }\n',
        loadRecordConfig,
        'instruments[0].streams.depth.limit: expected an integer 1..5000, received -1',
      ],
      [
        'run',
        `mode: backtest\ninstruments: [BTCUSDT]\n${strategy}\n`,
        (f) => loadRunConfig(f, catalog),
        'strategies[0].params.spreadBps: expected a number > 0 and <= 10000, received -1',
      ],
      [
        'backtest',
        `instruments: [BTCUSDT]\n${strategy}\nbacktest: { initialCapital: abc, data: [{ kind: store, path: x }] }\n`,
        (f) => loadBacktestConfig(f, catalog),
        'strategies[0].params.spreadBps: expected a number > 0 and <= 10000, received -1',
      ],
      ['yaml', 'port: [unclosed\n', loadEmulatorConfig, 'not valid YAML at line '],
    ];
    for (const [kind, text, load, first] of cases) {
      const f = write(`loader-${kind}.yaml`, text);
      const shown = await validateConfig(f);
      expect(shown.ok, kind).to.equal(false);
      let err: unknown;
      try {
        await load(f);
      } catch (e) {
        err = e;
      }
      expect(err, kind).to.be.instanceOf(ConfigInvalid);
      const lines = (err as ConfigInvalid).lines();
      expect(lines, kind).to.deep.equal(shown.lines.slice(1).map((l) => l.replace(/^ {2}/, '')));
      expect(lines[0]!.startsWith(first), `${kind}: ${lines[0]}`).to.equal(true);
    }
  });

  it('kind_key_is_accepted_and_routes', async () => {
    const r = await validateConfig(write('k.yaml', 'kind: emulator\nport: 0\n'));
    expect(r.ok, r.lines.join('\n')).to.equal(true);
    expect(r.kind).to.equal('emulator');
    const bad = await validateConfig(write('k2.yaml', 'kind: strategy\nport: 0\n'));
    expect(bad.lines).to.deep.equal([
      `${join(dir, 'k2.yaml')}: 1 problem`,
      '  kind: expected one of run, backtest, sweep, emulator, record, received "strategy"',
    ]);
  });

  it('a_document_of_no_known_kind_says_how_to_name_it', async () => {
    const r = await validateConfig(write('u.yaml', 'foo: 1\n'));
    expect(r.ok).to.equal(false);
    expect(r.lines[1]).to.contain('add `kind: run | backtest | sweep | emulator | record`');
  });

  it('detects_kinds_from_keys', () => {
    expect(detectConfigKind({ mode: 'paper' })).to.equal('run');
    expect(detectConfigKind({ instruments: ['X'], backtest: {} })).to.equal('backtest');
    expect(detectConfigKind({ backtest: {}, sweep: {} })).to.equal('sweep');
    expect(detectConfigKind({ accounts: [] })).to.equal('emulator');
    expect(detectConfigKind({ instruments: [{ symbol: 'BTCUSDT' }] })).to.equal('record');
    expect(detectConfigKind({ kind: 'record', mode: 'x' })).to.equal('record');
    expect(detectConfigKind(null)).to.equal(undefined);
  });
});
