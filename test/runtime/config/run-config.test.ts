import { expect } from 'chai';
import { ConfigInvalid } from '../../../src/core/config/config-issues.js';
import { parseRunConfig } from '../../../src/runtime/config/load-run-config.js';
import { configHash, toPollConfig, toRiskLimits } from '../../../src/runtime/config/runtime-settings.js';
import { strategyCatalog } from '../../../src/runtime/container/strategy-module.js';

const catalog = strategyCatalog();

function minimal(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    mode: 'paper',
    paper: { emulatorConfig: 'config/paper-emulator.yaml' },
    instruments: ['BTCUSDT'],
    strategies: [{ id: 'mm1', name: 'spot-market-maker', instruments: ['BTCUSDT'], params: { orderSize: '0.001', maxInventory: '0.01' } }],
    ...over,
  };
}

function problems(doc: unknown): string[] {
  try {
    parseRunConfig(doc, catalog, 'test.yaml');
  } catch (e) {
    if (e instanceof ConfigInvalid) return e.lines();
    throw e;
  }
  throw new Error('expected the config to be refused');
}

describe('run config', () => {
  it('accepts_a_minimal_paper_config_and_fills_the_defaults', () => {
    const { config, strategies } = parseRunConfig(minimal(), catalog);
    expect(config.execution.cancelOnExit).to.equal(true);
    expect(config.marketData.maxSnapshotAgeMs).to.equal(5000);
    expect(config.venue.apiKeyEnv).to.equal('PERPETUA_API_KEY');
    expect(config.journal.path).to.equal('var/journal.sqlite');
    expect(strategies).to.have.length(1);
    expect((strategies[0]!.params as { spreadBps: number }).spreadBps).to.equal(10);
  });

  it('names_the_path_and_the_expected_value_of_a_bad_strategy_param', () => {
    const doc = minimal({
      strategies: [
        {
          id: 'mm1',
          name: 'spot-market-maker',
          instruments: ['BTCUSDT'],
          params: { spreadBps: 'x', orderSize: '0.001', maxInventory: '0.01' },
        },
      ],
    });
    expect(problems(doc)).to.deep.equal(['strategies[0].params.spreadBps: expected a number > 0 and <= 10000, received "x"']);
  });

  it('rejects_unknown_keys_at_every_level', () => {
    const doc = minimal({
      colour: 'blue',
      venue: { recvWindow: 5000 },
      risk: { killSwitch: { maxDrawdon: 0.1 } },
      strategies: [
        {
          id: 'mm1',
          name: 'spot-market-maker',
          instruments: ['BTCUSDT'],
          extra: 1,
          params: { orderSize: '0.001', maxInventory: '0.01', spred: 3 },
        },
      ],
    });
    const paths = problems(doc).map((l) => l.split(':')[0]);
    expect(paths).to.have.members([
      'colour',
      'venue.recvWindow',
      'risk.killSwitch.maxDrawdon',
      'strategies[0].extra',
      'strategies[0].params.spred',
    ]);
    expect(problems(doc).find((l) => l.startsWith('venue.recvWindow'))).to.contain('recvWindowMs');
  });

  it('reports_every_problem_at_once', () => {
    const lines = problems({ mode: 'papr', instruments: ['btc'], strategies: [{ id: 'a', name: 'nope', instruments: ['BTCUSDT'] }] });
    expect(lines.map((l) => l.split(':')[0])).to.have.members(['mode', 'instruments[0]', 'strategies[0].name']);
  });

  it('refuses_inline_secrets_outside_paper_mode_without_printing_them', () => {
    const secret = 'a-very-secret-value-123456';
    const lines = problems(minimal({ mode: 'live', paper: undefined, venue: { apiKey: 'mx0vglSomeKey01', apiSecret: secret } }));
    expect(lines.some((l) => l.startsWith('venue.apiSecret: inline credentials are allowed only in paper mode'))).to.equal(true);
    expect(lines.join('\n')).to.not.contain(secret);
  });

  it('masks_a_secret_shown_as_a_received_value', () => {
    const lines = problems(minimal({ venue: { apiSecret: 12345678901 } }));
    expect(lines.join('\n')).to.not.contain('12345678901');
  });

  it('requires_contract_trading_for_a_strategy_on_a_contract_symbol', () => {
    const doc = minimal({
      instruments: ['BTC_USDT'],
      strategies: [{ id: 't', name: 'perp-trend', instruments: ['BTC_USDT'], params: { size: 1 } }],
    });
    expect(problems(doc)[0]).to.match(
      /^strategies\[0\]\.instruments\[0\]: BTC_USDT is a contract symbol but venue\.contractTrading is false/,
    );
    expect(() => parseRunConfig({ ...doc, venue: { contractTrading: true } }, catalog)).to.not.throw();
  });

  it('requires_exactly_one_emulator_in_paper_mode', () => {
    expect(problems(minimal({ paper: {} }))[0]).to.match(/^paper: expected exactly one of paper\.emulatorConfig/);
    expect(problems(minimal({ paper: { emulatorConfig: 'a.yaml', emulatorUrl: 'http://127.0.0.1:1' } }))[0]).to.match(/^paper: /);
  });

  it('requires_strategy_symbols_to_be_listed_and_limits_to_name_a_strategy', () => {
    const lines = problems(
      minimal({
        risk: { strategies: { ghost: { maxNotional: 10 } } },
        strategies: [
          { id: 'mm1', name: 'spot-market-maker', instruments: ['ETHUSDT'], params: { orderSize: '0.001', maxInventory: '0.01' } },
        ],
      }),
    );
    expect(lines.map((l) => l.split(':')[0])).to.have.members(['strategies[0].instruments[0]', 'risk.strategies.ghost']);
  });

  it('maps_risk_limits_and_kill_switches_onto_risk_limits', () => {
    const { config } = parseRunConfig(
      minimal({
        marketData: { maxSnapshotAgeMs: 2500 },
        risk: {
          spotOpenOrderCap: 40,
          strategies: { mm1: { maxPositionQty: '0.5', maxNotional: 1000 } },
          killSwitch: { maxDrawdown: 0.2, maxDailyLoss: '300', maxRejects: 7 },
        },
      }),
      catalog,
    );
    const l = toRiskLimits(config);
    expect(l.maxSnapshotAgeMs).to.equal(2500);
    expect(l.spotOpenOrderCap).to.equal(40);
    expect(l.strategies.mm1!.maxPositionQty!.toFixed()).to.equal('0.5');
    expect(l.strategies.mm1!.maxNotional!.toFixed()).to.equal('1000');
    expect([
      l.killSwitch.maxDrawdown!.toFixed(),
      l.killSwitch.maxDailyLoss!.toFixed(),
      l.killSwitch.maxRejects,
      l.killSwitch.rejectWindowMs,
    ]).to.deep.equal(['0.2', '300', 7, 60_000]);
  });

  it('maps_market_data_cadences_per_instrument_kind', () => {
    const { config } = parseRunConfig(
      minimal({
        venue: { contractTrading: true },
        instruments: ['BTCUSDT', 'BTC_USDT'],
        marketData: { spot: { cycleMs: 500 }, contract: { cycleMs: 2000, streams: { ticker: {} } } },
      }),
      catalog,
    );
    const p = toPollConfig(config);
    expect(p.instruments.map((i) => `${i.kind} ${i.symbol} ${i.cycleMs} ${Object.keys(i.streams).join(',')}`)).to.deep.equal([
      'spot BTCUSDT 500 depth,ticker24h',
      'contract BTC_USDT 2000 ticker',
    ]);
  });

  it('hashes_the_config_canonically', () => {
    const a = parseRunConfig(minimal(), catalog).config;
    const b = parseRunConfig(
      {
        strategies: minimal().strategies,
        instruments: ['BTCUSDT'],
        paper: { emulatorConfig: 'config/paper-emulator.yaml' },
        mode: 'paper',
        execution: { cancelOnExit: true },
      },
      catalog,
    ).config;
    // Key order and an explicit default do not change the hash; a changed value does.
    expect(configHash(a)).to.equal(configHash(b));
    expect(configHash(a)).to.match(/^[0-9a-f]{64}$/);
    expect(configHash(parseRunConfig(minimal({ execution: { cancelOnExit: false } }), catalog).config)).to.not.equal(configHash(a));
  });
});
