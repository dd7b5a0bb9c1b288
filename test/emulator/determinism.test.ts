import { expect } from 'chai';
import { startEmulator, type RunningEmulator } from '../../src/emulator/start-emulator.js';
import { contractSigned, raw, spotSigned, testConfig } from './support/emulator-kit.js';

/**
 * With a virtual clock a run is a function of seed, config and requests: two runs give the same tape
 * byte for byte, and another seed gives another tape.
 */
describe('emulator determinism', () => {
  async function run(seed: number): Promise<string[]> {
    const emu: RunningEmulator = await startEmulator(
      testConfig({
        seed,
        market: {
          source: 'synthetic',
          books: { BTCUSDT: { levels: 4 }, ETHUSDT: { levels: 4 }, BTC_USDT: { levels: 4 }, ETH_USDT: { levels: 4 } },
        },
      }),
    );
    try {
      const out: string[] = [];
      for (let i = 0; i < 4; i++) {
        emu.advance(2000);
        const t = emu.clock.now();
        // The same requests at the same virtual times in both runs.
        await spotSigned(
          emu.url,
          'POST',
          '/api/v3/order',
          { symbol: 'BTCUSDT', side: i % 2 ? 'SELL' : 'BUY', type: 'MARKET', quantity: '0.001' },
          { timestamp: t },
        );
        await contractSigned(
          emu.url,
          'POST',
          '/api/v1/private/order/create',
          { symbol: 'ETH_USDT', price: 0, vol: 3, leverage: 5, side: i % 2 ? 3 : 1, type: 5, openType: 2 },
          { requestTime: t },
        );
      }
      for (const path of [
        '/api/v3/trades?symbol=BTCUSDT&limit=1000',
        '/api/v3/trades?symbol=ETHUSDT&limit=1000',
        '/api/v3/klines?symbol=BTCUSDT&interval=1m',
        '/api/v3/depth?symbol=ETHUSDT&limit=50',
        '/api/v1/contract/deals/BTC_USDT?limit=100',
        '/api/v1/contract/deals/ETH_USDT?limit=100',
        '/api/v1/contract/kline/ETH_USDT?interval=Min1',
        '/api/v1/contract/fair_price/BTC_USDT',
      ]) {
        out.push((await raw(emu.url, 'GET', path)).text);
      }
      return out;
    } finally {
      await emu.stop();
    }
  }

  it('gives_an_identical_tape_for_the_same_seed_and_config', async () => {
    const a = await run(11);
    const b = await run(11);
    expect(JSON.parse(a[0]!)).to.have.length.above(3);
    expect(JSON.parse(a[4]!).data).to.have.length.above(3);
    expect(b).to.deep.equal(a);
  });

  it('gives_another_tape_for_another_seed', async () => {
    const a = await run(11);
    const c = await run(12);
    expect(c[0]).to.not.equal(a[0]);
  });
});
