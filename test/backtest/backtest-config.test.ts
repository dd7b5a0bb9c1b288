import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { PROJECT_ROOT } from '../support/project-root.js';
import { ConfigError } from '../../src/core/errors.js';
import { ConfigInvalid } from '../../src/core/config/config-issues.js';
import { strategyCatalog } from '../../src/runtime/container/strategy-module.js';
import { parseBacktestConfig } from '../../src/backtest/backtest-config.js';
import { checkDataSources } from '../../src/backtest/backtest-data.js';
import { perpTrendDoc, spotMmDoc } from './support/backtest-fixtures.js';

const parse = (doc: Record<string, unknown>) => parseBacktestConfig(doc, strategyCatalog(), 'test');
const issuesOf = (doc: Record<string, unknown>): string[] => {
  try {
    parse(doc);
  } catch (e) {
    if (e instanceof ConfigInvalid) return e.lines();
    throw e;
  }
  return [];
};

describe('backtest config', () => {
  it('reads_a_run_config_with_a_backtest_section', () => {
    const c = parse(spotMmDoc());
    expect(c.run.config.mode).to.equal('backtest');
    expect(c.fillModels.map((m) => m.name)).to.deep.equal(['optimistic', 'neutral', 'pessimistic']);
    expect(c.instruments[0]!.instrument.symbol).to.equal('BTCUSDT');
    expect(c.instruments[0]!.quantityFactor).to.equal(1);
  });

  it('maps_base_quantities_onto_contracts_of_the_venue', () => {
    const c = parse(perpTrendDoc());
    // BTC_USDT: 0.0001 BTC per contract → 1 recorded BTC = 10 000 contracts
    expect(c.instruments[0]!.quantityFactor).to.equal(10_000);
    expect(c.run.config.venue.contractTrading).to.equal(true);
  });

  it('names_the_path_of_every_problem', () => {
    const doc = spotMmDoc();
    const bt = doc.backtest as Record<string, unknown>;
    const issues = issuesOf({
      ...doc,
      strategies: [
        ...(doc.strategies as unknown[]),
        { id: 'two', name: 'spot-market-maker', instruments: ['BTCUSDT'], params: { orderSize: '0.001', maxInventory: '0.01' } },
      ],
      backtest: { ...bt, initialCapital: 'lots', fillModels: ['neutral', 'neutral'], instruments: { ETHUSDT: {} } },
    });
    expect(issues.some((l) => l.startsWith('strategies: expected exactly one strategy'))).to.equal(true);
    expect(issues.some((l) => l.startsWith('backtest.initialCapital:'))).to.equal(true);
  });

  it('refuses_custom_fill_models_without_a_preset_to_start_from', () => {
    const doc = spotMmDoc();
    const issues = issuesOf({ ...doc, backtest: { ...(doc.backtest as object), fillModels: [{ name: 'mine', adverseTicks: 2 }] } });
    expect(issues.some((l) => l.startsWith('backtest.fillModels[0].base:'))).to.equal(true);
    const ok = parse({
      ...doc,
      backtest: { ...(doc.backtest as object), fillModels: [{ name: 'slow', base: 'neutral', latency: { orderEntryMs: 300 } }] },
    });
    expect(ok.fillModels[0]!.latency).to.deep.equal({ orderEntryMs: 300, cancelMs: 25, responseMs: 25 });
  });

  it('fails_with_the_missing_file_and_how_relative_paths_resolve', () => {
    const c = parse(
      spotMmDoc({
        backtest: { ...(spotMmDoc().backtest as object), data: [{ kind: 'klines', market: 'spot', files: ['data/nope/missing.csv'] }] },
      }),
    );
    let err: unknown;
    try {
      checkDataSources(c.backtest.data, '/tmp/perpetua-no-such-project');
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(ConfigError);
    expect((err as ConfigError).path).to.equal('backtest.data[0].files[0]');
    expect((err as Error).message).to.contain('data/nope/missing.csv does not exist');
    expect((err as Error).message).to.contain('relative paths resolve against the working directory');
  });

  it('shipped_backtest_configs_read_only_the_sample_data_in_the_repository', () => {
    // A fresh clone has no ../shared: every data file of every shipped backtest config must be in data/sample/.
    const shipped = readdirSync(join(PROJECT_ROOT, 'config')).filter((f) => f.startsWith('backtest-') && f.endsWith('.yaml'));
    expect(shipped.length).to.be.greaterThan(1);
    for (const f of shipped) {
      const c = parse(parseYaml(readFileSync(join(PROJECT_ROOT, 'config', f), 'utf8')) as Record<string, unknown>);
      const inputs = checkDataSources(c.backtest.data, PROJECT_ROOT);
      for (const p of inputs) expect(relative(PROJECT_ROOT, p), f).to.match(/^data\/sample\//);
    }
  });
});
