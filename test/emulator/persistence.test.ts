import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../src/core/errors.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/start-emulator.js';
import type { EmulatorConfigInput } from '../../src/emulator/emulator-config.js';
import { ALICE, BOB, contractSigned, spotSigned, testConfig } from './support/emulator-kit.js';

const CAROL = { apiKey: 'mx0vglCarolKey01', secret: 'carol-secret-0123456789abcdef' };

/**
 * Paper accounts survive a restart: the journal of one run is replayed by the next, with the market
 * model running (journaled as its steps, which replay its crowd orders) on a virtual clock.
 */
describe('emulator persistence', () => {
  let dir: string;
  let config: EmulatorConfigInput;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'emu-persist-'));
    const base = testConfig({
      persistence: { path: join(dir, 'paper.sqlite') },
      market: {
        source: 'synthetic',
        books: { BTCUSDT: { levels: 3 }, ETHUSDT: { levels: 3 }, BTC_USDT: { levels: 3 }, ETH_USDT: { levels: 3 } },
      },
    });
    config = {
      ...base,
      accounts: [
        ...(base.accounts ?? []),
        { name: 'carol', apiKey: CAROL.apiKey, secretKey: CAROL.secret, contract: { balances: { USDT: '50000' } } },
      ],
    };
  });
  const stopLater: RunningEmulator[] = [];
  afterEach(async () => {
    for (const e of stopLater.splice(0)) await e.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** Everything a paper trader would look at, minus what moves with the next market step. */
  async function snapshot(emu: RunningEmulator) {
    const t = emu.clock.now();
    const spot = (path: string, params: Record<string, string> = {}) =>
      spotSigned(emu.url, 'GET', path, params, { timestamp: t }).then((r) => r.json);
    const contract = (path: string, params?: Record<string, unknown>) =>
      contractSigned(emu.url, 'GET', path, params, { requestTime: t }).then((r) => (r.json as { data: unknown }).data);
    const assets = (await contract('/api/v1/private/account/assets')) as Record<string, unknown>[];
    const positions = (await contract('/api/v1/private/position/open_positions')) as Record<string, unknown>[];
    return {
      balances: ((await spot('/api/v3/account')) as { balances: unknown }).balances,
      openOrders: await spot('/api/v3/openOrders'),
      allOrders: await spot('/api/v3/allOrders', { symbol: 'BTCUSDT' }),
      myTrades: await spot('/api/v3/myTrades', { symbol: 'BTCUSDT' }),
      cash: assets.map((a) => [a.currency, a.cashBalance, a.positionMargin, a.frozenBalance]),
      positions: positions.map((p) => [p.positionId, p.positionType, p.holdVol, p.openAvgPrice, p.im, p.leverage]),
      contractOpen: await contract('/api/v1/private/order/list/open_orders', { page_num: 1, page_size: 50 }),
      contractHistory: await contract('/api/v1/private/order/list/history_orders', { page_num: 1, page_size: 50 }),
      tape: (await (await fetch(`${emu.url}/api/v3/trades?symbol=BTCUSDT&limit=1000`)).json()) as unknown[],
      deals: (await (await fetch(`${emu.url}/api/v1/contract/deals/BTC_USDT?limit=100`)).json()) as unknown,
    };
  }

  it('restores_balances_orders_positions_history_and_tape_after_a_restart', async () => {
    const first = await startEmulator(config);
    stopLater.push(first);
    first.advance(3000);
    let t = first.clock.now();
    // A resting spot order far from the market, and a fill between two paper accounts.
    await spotSigned(
      first.url,
      'POST',
      '/api/v3/order',
      { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.002', price: '80000', newClientOrderId: 'keep-me' },
      { timestamp: t },
    );
    await spotSigned(
      first.url,
      'POST',
      '/api/v3/order',
      { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quoteOrderQty: '100' },
      { timestamp: t },
    );
    // A contract position bought from the crowd, carol short against the crowd, and a resting contract order.
    await contractSigned(
      first.url,
      'POST',
      '/api/v1/private/order/create',
      { symbol: 'BTC_USDT', price: 0, vol: 7, leverage: 5, side: 3, type: 5, openType: 1 },
      { requestTime: t, key: CAROL },
    );
    await contractSigned(
      first.url,
      'POST',
      '/api/v1/private/order/create',
      { symbol: 'BTC_USDT', price: 0, vol: 7, leverage: 5, side: 1, type: 5, openType: 1 },
      { requestTime: t, key: ALICE },
    );
    await contractSigned(
      first.url,
      'POST',
      '/api/v1/private/order/create',
      { symbol: 'BTC_USDT', price: 80000, vol: 3, leverage: 5, side: 1, type: 1, openType: 1, externalOid: 'keep-c' },
      { requestTime: t },
    );
    first.advance(2000);
    t = first.clock.now();
    const before = await snapshot(first);
    expect((before.openOrders as unknown[]).length).to.equal(1);
    expect(before.positions.length).to.equal(1);
    expect((before.myTrades as unknown[]).length).to.be.above(0);
    await first.stop();

    const second = await startEmulator(config);
    stopLater.push(second);
    try {
      expect(second.replayed).to.be.above(10);
      expect(second.clock.now()).to.equal(t);
      const after = await snapshot(second);
      expect(after).to.deep.equal(before);
      expect(second.checkInvariants()).to.deep.equal([]);
      // The restored order is live: it can be cancelled by its client id.
      const cancel = await spotSigned(
        second.url,
        'DELETE',
        '/api/v3/order',
        { symbol: 'BTCUSDT', origClientOrderId: 'keep-me' },
        { timestamp: t },
      );
      expect((cancel.json as { status: string }).status).to.equal('CANCELED');
    } finally {
      await second.stop();
    }
  });

  it('does_not_deposit_initial_balances_twice', async () => {
    const first = await startEmulator(config, { marketStopped: true });
    await first.stop();
    const second = await startEmulator(config, { marketStopped: true });
    try {
      const acct = await spotSigned(second.url, 'GET', '/api/v3/account', {}, { timestamp: second.clock.now(), key: BOB });
      const usdt = (acct.json as { balances: { asset: string; free: string }[] }).balances.find((b) => b.asset === 'USDT');
      expect(usdt?.free).to.equal('50000');
    } finally {
      await second.stop();
    }
  });

  it('refuses_a_journal_written_for_other_instruments', async () => {
    const first = await startEmulator(config, { marketStopped: true });
    await first.stop();
    let err: unknown;
    try {
      stopLater.push(
        await startEmulator(
          { ...config, instruments: { spot: ['BTCUSDT'], contract: ['BTC_USDT'] }, market: { source: 'synthetic' } },
          { marketStopped: true },
        ),
      );
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(ConfigError);
    expect((err as ConfigError).path).to.equal('persistence.path');
  });
});
