import { expect } from 'chai';
import { ConfigError } from '../../../src/core/errors.js';
import { parseEmulatorConfig } from '../../../src/emulator/emulator-config.js';
import { startEmulator } from '../../../src/emulator/start-emulator.js';
import { accountsConfig } from './support/accounts-kit.js';

/** The configuration of master / sub-accounts and of the fee extensions. */
describe('account extension config', () => {
  const failure = async (input: Parameters<typeof startEmulator>[0]): Promise<ConfigError> => {
    try {
      const emu = await startEmulator(input, { marketStopped: true });
      await emu.stop();
    } catch (e) {
      if (e instanceof ConfigError) return e;
      throw e;
    }
    throw new Error('expected a ConfigError');
  };

  it('fills_the_fee_extension_defaults', () => {
    const c = parseEmulatorConfig({});
    expect(c.fees.platformToken).to.deep.equal({ asset: 'MX', discount: '0.2' });
    expect(c.fees.contractDeduct).to.deep.equal([{ deductCoin: 'MX', settleCoin: 'USDT', discountRatio: '0.2' }]);
    expect([c.fees.contractSchedules, c.fees.contractDiscounts]).to.deep.equal([{}, []]);
  });

  it('refuses_a_discount_of_one_or_more', () => {
    expect(() => parseEmulatorConfig({ fees: { platformToken: { discount: '1' } } })).to.throw(ConfigError, 'fees.platformToken.discount');
  });

  it('refuses_a_master_that_is_not_an_account', async () => {
    const base = accountsConfig();
    const accounts = (base.accounts ?? []).map((a) => (a.name === 'sub1' ? { ...a, master: 'nobody' } : a));
    expect((await failure({ ...base, accounts })).message).to.contain('nobody');
  });

  it('refuses_a_sub_account_of_a_sub_account', async () => {
    const base = accountsConfig();
    const accounts = (base.accounts ?? []).map((a) => (a.name === 'sub2' ? { ...a, master: 'sub1' } : a));
    expect((await failure({ ...base, accounts })).message).to.contain('is itself a sub-account');
  });

  it('refuses_a_schedule_for_an_unlisted_contract', async () => {
    const e = await failure({ ...accountsConfig(), fees: { contractSchedules: { DOGE_USDT: { feeRateMode: 'NORMAL' } } } });
    expect(e.message).to.contain('instruments.contract');
  });
});
