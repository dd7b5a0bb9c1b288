import { expect } from 'chai';
import { allEndpoints } from '../../../src/api/catalogue.js';
import { ConfigError } from '../../../src/core/errors.js';
import type { EmulatorContext } from '../../../src/emulator/emulator-context.js';
import { emulatorHandlers } from '../../../src/emulator/handlers/emulator-handlers.js';
import { HandlerRegistry } from '../../../src/emulator/handlers/handler-registry.js';

const answer = (v: unknown) => () => v;

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
}

describe('HandlerRegistry', () => {
  it('refuses_a_second_handler_for_an_endpoint_naming_both_modules', () => {
    const registry = new HandlerRegistry().add('old-module', { 'contract.discountType': answer(1) });
    const err = thrown(() => registry.add('new-module', { 'contract.discountType': answer(2) }));
    expect(err).to.be.instanceOf(ConfigError);
    expect((err as ConfigError).path).to.equal('handlers.contract.discountType');
    expect((err as Error).message)
      .to.contain('old-module')
      .and.to.contain('new-module');
    // The first registration stands.
    expect(registry.table().get('contract.discountType')!({} as never)).to.equal(1);
  });

  it('refuses_an_id_the_catalogue_does_not_list', () => {
    const registry = new HandlerRegistry(new Set(['spot.ping']));
    const err = thrown(() => registry.add('typo-module', { 'spot.pnig': answer(1) }));
    expect(err).to.be.instanceOf(ConfigError);
    expect((err as ConfigError).path).to.equal('handlers.spot.pnig');
  });

  it('builds_the_emulator_table_with_exactly_one_handler_per_catalogue_endpoint', () => {
    // Handler modules only close over their arguments: the ids can be listed without an emulator.
    const ctx = { clock: { now: () => 0 } } as unknown as EmulatorContext;
    const fake = {} as never;
    const registry = emulatorHandlers({ context: ctx, spot: fake, contract: fake, prices: fake, accountExt: fake });
    expect(registry.ids().sort()).to.deep.equal(allEndpoints.map((e) => e.id).sort());
    // The fee endpoints come from the account-extension module, the trigger lists from the trigger module.
    expect(
      [
        'contract.feeDeductConfigs',
        'contract.discountType',
        'contract.orderDealFeeTotal',
        'contract.contractFeeRate',
        'contract.zeroFeeRate',
        'contract.feeDetails',
        'contract.contractFeeDiscountConfig',
      ].map((id) => registry.ownerOf(id)),
    ).to.deep.equal(Array<string>(7).fill('contract-account-ext-handlers'));
    expect(
      [
        'contract.stopOrders',
        'contract.openStopOrders',
        'contract.planOrders',
        'contract.trackOrders',
        'contract.cancelAllStopOrders',
        'contract.cancelAllPlanOrders',
      ].map((id) => registry.ownerOf(id)),
    ).to.deep.equal(Array<string>(6).fill('contract-trigger-handlers'));
    expect(['spot.tradeFee', 'spot.offlineSymbols'].map((id) => registry.ownerOf(id))).to.deep.equal([
      'spot-account-ext-handlers',
      'spot-account-ext-handlers',
    ]);
  });
});
