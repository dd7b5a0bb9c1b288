import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SystemClock } from '../../src/core/clock.js';
import { spotSigned } from './support/emulator-kit.js';
import { differences, flatten, snapshot, spawnEmulator, trade, TRADER, userConfig, type EmulatorProcess } from './support/user-traffic.js';

type Answer = { status: number; body: unknown };
type SpotOrder = { orderId: string; clientOrderId: string | null; status: string; price: string; origQty: string };
type Balance = { asset: string; free: string; locked: string };

const bodyOf = <T>(a: Record<string, unknown>, key: string): T => (a[key] as Answer).body as T;

/**
 * Regression for issue 10 (1): a restart of the emulator rewrote history. The emulator runs as a user
 * runs it — its own process, the system clock, a persistence file — and a signed client trades over
 * HTTP while the market model steps. Every read of the trader's own state must answer the same after
 * a restart (clean SIGTERM, or SIGKILL while requests are in flight) as it did before.
 */
describe('emulator restart on the system clock keeps history exactly', function () {
  this.timeout(120_000);
  let dir: string;
  const procs: EmulatorProcess[] = [];
  const wall = new SystemClock();

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'emu-restart-'));
  });
  afterEach(async () => {
    for (const p of procs.splice(0)) {
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
      await p.exited;
    }
    await rm(dir, { recursive: true, force: true });
  });

  const spawnIn = async () => {
    const p = await spawnEmulator(dir, userConfig(join(dir, 'paper.sqlite')));
    procs.push(p);
    return p;
  };

  /** What the traded session left: enough fills, cancels and contract orders for the comparison to bite. */
  const expectBusyHistory = (before: Record<string, unknown>) => {
    const orders = bodyOf<SpotOrder[]>(before, 'spot.allOrders');
    expect(orders.filter((o) => o.status === 'FILLED').length, 'filled spot orders').to.be.above(0);
    expect(orders.filter((o) => o.status === 'CANCELED').length, 'canceled spot orders').to.be.above(5);
    const history = bodyOf<{ data: unknown[] }>(before, 'contract.historyOrders').data;
    expect(history.length, 'contract orders').to.be.above(5);
  };

  it('answers_every_read_the_same_after_a_sigterm_restart', async () => {
    const first = await spawnIn();
    await trade(first.url, 30);
    await flatten(first.url);
    const before = await snapshot(first.url);
    expectBusyHistory(before);
    first.child.kill('SIGTERM');
    expect(await first.exited).to.equal(0);

    const second = await spawnIn();
    const after = await snapshot(second.url);
    expect(differences(before, after)).to.deep.equal([]);
  });

  it('answers_every_read_the_same_after_a_sigkill_among_requests_in_flight', async () => {
    const first = await spawnIn();
    await trade(first.url, 20);
    await flatten(first.url);
    const before = await snapshot(first.url);
    expectBusyHistory(before);

    // A burst of resting bids far below the market (never filled by the crowd), killed after the first
    // answer: each must come back wholly (order and its locked USDT) or not at all, and every
    // acknowledged one must come back.
    const acked: SpotOrder[] = [];
    let firstAck!: () => void;
    const gotOne = new Promise<void>((r) => (firstAck = r));
    const burst = Array.from({ length: 40 }, (_, k) =>
      spotSigned(
        first.url,
        'POST',
        '/api/v3/order',
        { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.001', price: String(60000 + k), newClientOrderId: `burst-${k}` },
        { timestamp: wall.now(), key: TRADER },
      )
        .then((r) => {
          if (r.status === 200) acked.push(r.json as SpotOrder);
          firstAck();
        })
        .catch(() => undefined),
    );
    await gotOne;
    first.child.kill('SIGKILL');
    await Promise.all(burst);
    expect(await first.exited).to.equal('SIGKILL');
    expect(acked.length).to.be.above(0);

    const second = await spawnIn();
    const after = await snapshot(second.url);
    const isBurst = (o: SpotOrder) => (o.clientOrderId ?? '').startsWith('burst-');
    const survivors = bodyOf<SpotOrder[]>(after, 'spot.openOrders');
    expect(survivors.every(isBurst), 'only burst orders rest').to.equal(true);
    expect(survivors.map((o) => o.orderId)).to.include.members(acked.map((o) => o.orderId));
    expect(bodyOf<SpotOrder[]>(after, 'spot.allOrders').filter((o) => !isBurst(o))).to.deep.equal(
      bodyOf<SpotOrder[]>(before, 'spot.allOrders'),
    );
    // Wholly there: the USDT each surviving bid locks (price × 0.001) is locked; nothing else moved.
    const balances = (a: Record<string, unknown>) =>
      new Map(bodyOf<{ balances: Balance[] }>(a, 'spot.account').balances.map((b) => [b.asset, b]));
    const locked = survivors.reduce((s, o) => s + Number(o.price) * Number(o.origQty), 0);
    const usdtBefore = balances(before).get('USDT')!;
    const usdtAfter = balances(after).get('USDT')!;
    expect(Number(usdtAfter.locked)).to.be.closeTo(Number(usdtBefore.locked) + locked, 1e-9);
    expect(Number(usdtAfter.free) + Number(usdtAfter.locked)).to.be.closeTo(Number(usdtBefore.free) + Number(usdtBefore.locked), 1e-9);
    expect(balances(after).get('BTC')).to.deep.equal(balances(before).get('BTC'));
    const unchanged = Object.keys(before).filter((k) => !['spot.openOrders', 'spot.allOrders', 'spot.account'].includes(k));
    expect(differences(pick(before, unchanged), pick(after, unchanged))).to.deep.equal([]);
  });
});

function pick(a: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, a[k]]));
}
