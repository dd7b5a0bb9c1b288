import { expect } from 'chai';
import { mkdtemp, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../src/core/errors.js';
import { loadEmulatorConfig, parseEmulatorConfig } from '../../src/emulator/emulator-config.js';
import { toContractInstrument, toSpotInstrument } from '../../src/emulator/config/instrument-schemas.js';

const ACCOUNT = { name: 'demo', apiKey: 'mx0vglDemoKey01', secretKey: 'demo-secret-0123456789abcdef' };

function configError(input: unknown): ConfigError {
  try {
    parseEmulatorConfig(input);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('expected a ConfigError');
}

describe('emulator config', () => {
  it('fills_defaults_for_an_empty_document', () => {
    const c = parseEmulatorConfig({});
    expect(c.host).to.equal('127.0.0.1');
    expect(c.port).to.equal(0);
    expect(c.clock).to.deep.equal({ mode: 'system' });
    expect(c.instruments.spot.map((s) => s.symbol)).to.deep.equal(['BTCUSDT', 'ETHUSDT']);
    expect(c.instruments.contract.map((s) => s.symbol)).to.deep.equal(['BTC_USDT', 'ETH_USDT']);
    expect(c.rateLimits.spotOrders).to.deep.equal({ limit: 12, windowMs: 1000 });
    expect(c.rateLimits.contractEndpoint).to.deep.equal({ limit: 20, windowMs: 2000 });
  });

  it('rejects_an_unknown_top_level_key_naming_it', () => {
    const e = configError({ prot: 8080 });
    expect(e.message).to.match(/prot/);
    expect(e.message).to.match(/unknown key/);
  });

  it('rejects_an_unknown_nested_key_with_its_path', () => {
    const e = configError({ accounts: [{ ...ACCOUNT, spot: { balance: { USDT: '1' } } }] });
    // The path names the unknown key itself, as for every config kind.
    expect(e.path).to.equal('accounts[0].spot.balance');
    expect(e.message).to.match(/^accounts\[0\]\.spot\.balance: unknown key \(expected one of: permissions, balances, platformDeduct\)/);
  });

  it('names_the_path_and_the_expected_value_of_a_bad_permission', () => {
    const e = configError({ accounts: [{ ...ACCOUNT, spot: { permissions: ['SPOT_ACCOUNT_READ', 'SPOT_TRADE'] } }] });
    expect(e.path).to.equal('accounts[0].spot.permissions[1]');
    expect(e.message).to.match(/one of SPOT_ACCOUNT_READ, SPOT_ACCOUNT_WRITE, SPOT_DEAL_READ, SPOT_DEAL_WRITE/);
  });

  it('accepts_the_short_permission_spellings_of_the_venue', () => {
    const c = parseEmulatorConfig({ accounts: [{ ...ACCOUNT, spot: { permissions: ['SPOT_DEAL_W', 'SPOT_ACCOUNT_R'] } }] });
    expect(c.accounts[0]!.spot.permissions).to.deep.equal(['SPOT_DEAL_WRITE', 'SPOT_ACCOUNT_READ']);
  });

  it('rejects_a_negative_balance', () => {
    const e = configError({ accounts: [{ ...ACCOUNT, spot: { balances: { USDT: '-5' } } }] });
    expect(e.path).to.equal('accounts[0].spot.balances.USDT');
    expect(e.message).to.match(/>= 0/);
  });

  it('rejects_two_accounts_with_one_api_key', () => {
    const e = configError({ accounts: [ACCOUNT, { ...ACCOUNT, name: 'other' }] });
    expect(e.path).to.equal('accounts[1].apiKey');
  });

  it('rejects_an_unknown_instrument_preset', () => {
    const e = configError({ instruments: { spot: ['DOGEUSDT'] } });
    expect(e.path).to.equal('instruments.spot[0]');
    expect(e.message).to.match(/BTCUSDT, ETHUSDT/);
  });

  it('rejects_an_unknown_market_source', () => {
    const e = configError({ market: { source: 'live' } });
    expect(e.path).to.equal('market.source');
  });

  it('rejects_a_synthetic_symbol_that_is_not_an_instrument', () => {
    const e = configError({ market: { source: 'synthetic', books: { DOGEUSDT: { levels: 3 } } } });
    expect(e.path).to.equal('market.books.DOGEUSDT');
  });

  it('takes_a_virtual_clock_start_as_an_iso_date', () => {
    const c = parseEmulatorConfig({ clock: { mode: 'virtual', start: '2026-01-01T00:00:00Z', stepMs: 5 } });
    expect(c.clock).to.deep.equal({ mode: 'virtual', start: 1_767_225_600_000, stepMs: 5 });
  });

  it('builds_the_btcusdt_preset_with_the_grid_a_client_derives_from_exchange_info', () => {
    const c = parseEmulatorConfig({});
    const btc = toSpotInstrument(c.instruments.spot[0]!);
    // quotePrecision 2 → tick 0.01; baseAssetPrecision 8 → step 0.00000001; baseSizePrecision 0.000001 is the minimum.
    expect(btc.tick.toFixed()).to.equal('0.01');
    expect(btc.step.toFixed()).to.equal('0.00000001');
    expect(btc.minQuantity.toFixed()).to.equal('0.000001');
    expect(btc.takerCommission.toFixed()).to.equal('0.0005');
  });

  it('applies_fee_overrides_to_every_instrument', () => {
    const c = parseEmulatorConfig({ fees: { spot: { taker: '0.001' }, contract: { maker: '0.0002' } } });
    expect(toSpotInstrument(c.instruments.spot[1]!, c.fees.spot).takerCommission.toFixed()).to.equal('0.001');
    const eth = toContractInstrument(c.instruments.contract[1]!, c.fees.contract);
    expect(eth.makerFeeRate.toFixed()).to.equal('0.0002');
    expect(eth.riskTiers).to.have.length(5);
  });

  it('loads_yaml_and_reports_the_file_on_a_bad_value', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'emu-config-'));
    try {
      const good = join(dir, 'good.yaml');
      await writeFile(good, 'port: 0\nseed: 3\nclock:\n  mode: virtual\n  start: 1767225600000\n');
      expect((await loadEmulatorConfig(good)).seed).to.equal(3);
      const bad = join(dir, 'bad.yaml');
      await writeFile(bad, 'port: 70000\n');
      let err: unknown;
      try {
        await loadEmulatorConfig(bad);
      } catch (e) {
        err = e;
      }
      expect(err).to.be.instanceOf(ConfigError);
      expect((err as ConfigError).path).to.equal('port');
      expect((err as ConfigError).message).to.include('bad.yaml');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
