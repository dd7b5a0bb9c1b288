import { expect } from 'chai';
import { startEmulator, type RunningEmulator } from '../../src/emulator/start-emulator.js';
import { raw, testConfig } from './support/emulator-kit.js';

/**
 * What a trigger watches must stand still when the market is told to: σ 0 alone left the index noise
 * and the premium process moving the fair price, so a position's TP/SL could fire after a bot's last
 * look (issue 10's chaos audit read such a close as an unjournaled fill). With `indexNoise: 0` and
 * `premium.std: 0` as well, fair and index keep their first value over every step.
 */
describe('emulator: a calm synthetic market', () => {
  async function prices(market: Record<string, unknown>): Promise<{ fair: number[]; index: number[] }> {
    const emu: RunningEmulator = await startEmulator(testConfig({ market: { source: 'synthetic', stepMs: 1000, ...market } }));
    try {
      const fair: number[] = [];
      const index: number[] = [];
      for (let i = 0; i < 30; i++) {
        emu.advance(1000);
        fair.push(
          (JSON.parse((await raw(emu.url, 'GET', '/api/v1/contract/fair_price/BTC_USDT')).text) as { data: { fairPrice: number } }).data
            .fairPrice,
        );
        index.push(
          (JSON.parse((await raw(emu.url, 'GET', '/api/v1/contract/index_price/BTC_USDT')).text) as { data: { indexPrice: number } }).data
            .indexPrice,
        );
      }
      return { fair, index };
    } finally {
      await emu.stop();
    }
  }

  it('keeps_fair_and_index_prices_still_with_no_volatility_noise_or_premium', async () => {
    const { fair, index } = await prices({ volatilityPerYear: 0, indexNoise: 0, premium: { std: 0 } });
    expect(new Set(fair).size, `fair prices ${fair.join(' ')}`).to.equal(1);
    expect(new Set(index).size, `index prices ${index.join(' ')}`).to.equal(1);
    // Premium 0: the perpetual's fair price is the index.
    expect(fair[0]).to.equal(index[0]);
  });

  it('still_moves_the_fair_price_with_volatility_zero_alone', async () => {
    // The control: σ 0 is not a frozen market (index noise and premium go on), which is why the knobs exist.
    const { fair } = await prices({ volatilityPerYear: 0 });
    expect(new Set(fair).size).to.be.greaterThan(1);
  });

  it('refuses_a_negative_index_noise_naming_the_field', async () => {
    let error: unknown;
    try {
      await startEmulator(testConfig({ market: { source: 'synthetic', indexNoise: -1 } as never }));
    } catch (e) {
      error = e;
    }
    expect(String(error)).to.match(/market\.indexNoise/);
  });
});
