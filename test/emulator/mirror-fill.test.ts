import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { SystemClock } from '../../src/core/clock.js';
import { emulatorCommand } from '../../src/app/cli/emulator-command.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/start-emulator.js';
import { ALICE, BOB, contractSigned, raw, spotSigned, testConfig, type RawResponse } from './support/emulator-kit.js';

const CAROL = { apiKey: 'mx0vglCarolKey01', secret: 'carol-secret-0123456789abcdef' } as const;

/**
 * Mirror end to end: emulator B stands in for the real exchange (its market model stopped, so its book
 * is exactly the orders placed on it); emulator A is started from a YAML file with `market.source:
 * mirror` pointed at B. An order on A inside B's spread rests untouched until a trade happens on B,
 * then fills at its own price when A's next poll prints that trade through A's book.
 */
describe('mirror market source, end to end', function () {
  this.timeout(30_000);
  const wall = new SystemClock();
  let dir: string;
  let b: RunningEmulator;
  let a: RunningEmulator;

  const waitFor = async (what: string, check: () => Promise<boolean>, ms = 10_000): Promise<void> => {
    const until = wall.now() + ms;
    while (!(await check())) {
      if (wall.now() > until) throw new Error(`timed out waiting for ${what}`);
      await wall.sleep(50);
    }
  };
  /**
   * Resolves once B has been asked for `endpoint` `n` more times (by A's polls): a condition, not a
   * guess at how long polls take. A zero-delay fault rule that fires on the n-th matching request counts
   * them; A polls one poll after another, so when B sees the n-th, A has applied the (n-1)-th.
   */
  const pollsOnB = async (endpoint: string, n: number): Promise<void> => {
    const fired = (): number => b.faults.firedByKind['delay'] ?? 0;
    const before = fired();
    const remove = b.faults.inject({ kind: 'delay', match: endpoint, skip: n - 1, times: 1 });
    try {
      await waitFor(`${n} polls of ${endpoint} on B`, async () => fired() > before);
    } finally {
      remove();
    }
  };
  const spotOrder = (emu: RunningEmulator, key: { apiKey: string; secret: string }, params: Record<string, string>) =>
    spotSigned(emu.url, 'POST', '/api/v3/order', params, { timestamp: emu.clock.now(), key });
  const contractPost = (emu: RunningEmulator, key: { apiKey: string; secret: string }, path: string, body: Record<string, unknown>) =>
    contractSigned(emu.url, 'POST', path, body, { requestTime: emu.clock.now(), key });
  const expectOk = (r: RawResponse) => {
    expect(r.status, r.text).to.equal(200);
    const j = r.json as { success?: boolean };
    expect(j.success, r.text).to.not.equal(false);
    return r.json as Record<string, unknown>;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'emu-mirror-'));
    const base = testConfig({
      clock: { mode: 'system' },
      rateLimits: { enabled: false },
      instruments: { spot: ['BTCUSDT'], contract: ['BTC_USDT'] },
    });
    b = await startEmulator(
      {
        ...base,
        accounts: [
          ...(base.accounts ?? []),
          { name: 'carol', apiKey: CAROL.apiKey, secretKey: CAROL.secret, contract: { balances: { USDT: '100000' } } },
        ],
      },
      { marketStopped: true },
    );
    b.contract.venue.setFairPrice('BTC_USDT', '87500');
    b.contract.venue.setIndexPrice('BTC_USDT', '87500');
    // B's book: spot 87 490 / 87 510 (bob), contract 87 490 / 87 510 (alice).
    expectOk(await spotOrder(b, BOB, { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', quantity: '0.5', price: '87510' }));
    expectOk(await spotOrder(b, BOB, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.5', price: '87490' }));
    expectOk(
      await contractPost(b, ALICE, '/api/v1/private/order/create', {
        symbol: 'BTC_USDT',
        price: 87510,
        vol: 200,
        leverage: 10,
        side: 3,
        type: 1,
        openType: 1,
      }),
    );
    expectOk(
      await contractPost(b, ALICE, '/api/v1/private/order/create', {
        symbol: 'BTC_USDT',
        price: 87490,
        vol: 200,
        leverage: 10,
        side: 1,
        type: 1,
        openType: 1,
      }),
    );
    // B's tapes are not empty when A starts: a mirror takes the trades it finds at its first poll as
    // already printed and prints what comes after them. (With an empty tape at the first poll the
    // mirror also skips the first trade that follows: mirror-market-source.ts newTrades, reported.)
    expectOk(await spotOrder(b, ALICE, { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' }));
    expectOk(
      await contractPost(b, CAROL, '/api/v1/private/order/create', {
        symbol: 'BTC_USDT',
        price: 0,
        vol: 1,
        leverage: 10,
        side: 1,
        type: 5,
        openType: 1,
      }),
    );

    // A, from YAML, mirroring B.
    const file = join(dir, 'mirror.yaml');
    await writeFile(
      file,
      stringify({
        ...testConfig({
          clock: { mode: 'system' },
          rateLimits: { enabled: false },
          instruments: { spot: ['BTCUSDT'], contract: ['BTC_USDT'] },
        }),
        market: { source: 'mirror', url: b.url, pollMs: 200 },
      }),
    );
    a = await emulatorCommand({ config: file, port: 0, detach: true, out: () => undefined });
    await waitFor("B's book on A", async () => {
      const spot = (await raw(a.url, 'GET', '/api/v3/depth?symbol=BTCUSDT&limit=1')).json as { bids: string[][]; asks: string[][] };
      const contract = (await raw(a.url, 'GET', '/api/v1/contract/depth/BTC_USDT?limit=1')).json as {
        data: { bids: number[][]; asks: number[][] };
      };
      return (
        spot.bids[0]?.[0] === '87490.00' &&
        spot.asks[0]?.[0] === '87510.00' &&
        contract.data.bids[0]?.[0] === 87490 &&
        contract.data.asks[0]?.[0] === 87510
      );
    });
  });

  after(async () => {
    await a?.stop();
    await b?.stop();
    wall.unrefAll();
    await rm(dir, { recursive: true, force: true });
  });

  it('fills_a_spot_order_inside_the_mirrored_spread_when_the_source_trades', async () => {
    expectOk(
      await spotOrder(a, ALICE, {
        symbol: 'BTCUSDT',
        side: 'SELL',
        type: 'LIMIT',
        quantity: '0.01',
        price: '87500',
        newClientOrderId: 'inside-1',
      }),
    );
    const query = async () =>
      (await spotSigned(a.url, 'GET', '/api/v3/order', { symbol: 'BTCUSDT', origClientOrderId: 'inside-1' }, { timestamp: a.clock.now() }))
        .json as { status: string; executedQty: string; cummulativeQuoteQty: string };
    // Polls go by with no trade on B: the order rests.
    await pollsOnB('spot.trades', 3);
    expect((await query()).status).to.equal('NEW');

    // A buyer on B takes 0.1 at B's ask (87 510).
    expectOk(await spotOrder(b, ALICE, { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.1' }));
    await waitFor('the fill on A', async () => (await query()).status === 'FILLED');
    // Filled at its own price: 0.01 × 87 500 = 875.
    const o = await query();
    expect([o.executedQty, o.cummulativeQuoteQty]).to.deep.equal(['0.01', '875']);
    expect(a.checkInvariants()).to.deep.equal([]);
  });

  it('fills_a_contract_order_inside_the_mirrored_spread_when_the_source_trades', async () => {
    const placed = expectOk(
      await contractPost(a, ALICE, '/api/v1/private/order/create', {
        symbol: 'BTC_USDT',
        price: 87500,
        vol: 5,
        leverage: 10,
        side: 3,
        type: 1,
        openType: 1,
      }),
    );
    const orderId = (placed.data as { orderId: string }).orderId;
    const query = async () =>
      (
        (await contractSigned(a.url, 'GET', `/api/v1/private/order/get/${orderId}`, undefined, { requestTime: a.clock.now() })).json as {
          data: { state: number; dealVol: number; dealAvgPrice: number };
        }
      ).data;
    await pollsOnB('contract.deals', 3);
    expect((await query()).state).to.equal(2);

    // A buyer on B opens a long of 20 at B's ask (87 510).
    expectOk(
      await contractPost(b, CAROL, '/api/v1/private/order/create', {
        symbol: 'BTC_USDT',
        price: 0,
        vol: 20,
        leverage: 10,
        side: 1,
        type: 5,
        openType: 1,
      }),
    );
    await waitFor('the contract fill on A', async () => (await query()).state === 3);
    const o = await query();
    expect([o.dealVol, o.dealAvgPrice]).to.deep.equal([5, 87500]);
    expect(a.checkInvariants()).to.deep.equal([]);
  });
});
