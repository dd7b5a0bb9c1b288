/**
 * The emulator as a user runs it, for the restart-equality tests: a separate `perpetua emulator`
 * process on the SYSTEM clock with a persistence file, driven by a scripted signed client over HTTP
 * (spot maker orders near the touch, some cancels, contract market orders carrying TP/SL and their
 * closes), and a snapshot of every read endpoint that shows the account's own state.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { SystemClock } from '../../../src/core/clock.js';
import type { EmulatorConfigInput } from '../../../src/emulator/emulator-config.js';
import { PROJECT_ROOT } from '../../support/project-root.js';
import { contractSigned, raw, spotSigned, type RawResponse, type TestKey } from './emulator-kit.js';

export const TRADER: TestKey = { apiKey: 'mx0vglTraderKey1', secret: 'trader-secret-0123456789abcdef' };

const wall = new SystemClock();

/**
 * System clock, a fast market model (50 ms steps, busy crowd takers so resting user orders fill) and
 * no rate limits: the conditions under which the live run and the journal's replay can part ways.
 */
export function userConfig(persistencePath: string): EmulatorConfigInput {
  const book = { levels: 3, takerArrivalPerSec: 20, takerMeanNotional: 5000 };
  return {
    seed: 11,
    clock: { mode: 'system' },
    rateLimits: { enabled: false },
    instruments: { spot: ['BTCUSDT'], contract: ['BTC_USDT'] },
    market: { source: 'synthetic', stepMs: 50, books: { BTCUSDT: book, BTC_USDT: book } },
    accounts: [
      {
        name: 'trader',
        uid: '30000001',
        apiKey: TRADER.apiKey,
        secretKey: TRADER.secret,
        spot: { balances: { USDT: '100000', BTC: '1' } },
        contract: { balances: { USDT: '100000' } },
      },
    ],
    persistence: { path: persistencePath },
  };
}

export interface EmulatorProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Resolves with the exit code (or signal) once the process is gone. */
  readonly exited: Promise<number | string>;
}

/** `node dist/src/app/cli.js emulator --config <file> --port 0`; resolves once it prints its URL. */
export async function spawnEmulator(dir: string, config: EmulatorConfigInput): Promise<EmulatorProcess> {
  const file = join(dir, 'emulator.json');
  writeFileSync(file, JSON.stringify(config));
  const child = spawn(process.execPath, [join(PROJECT_ROOT, 'dist/src/app/cli.js'), 'emulator', '--config', file, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  let err = '';
  child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    void exited.then((code) => reject(new Error(`emulator exited (${code}) before listening: ${err.slice(0, 2000)}`)));
  });
  return { url, child, exited };
}

function ok(r: RawResponse, what: string): RawResponse {
  const j = r.json as Record<string, unknown> | undefined;
  const failed = r.status !== 200 || (j !== undefined && j.success === false);
  expect(failed, `${what}: ${r.status} ${r.text.slice(0, 300)}`).to.equal(false);
  return r;
}

const spot = (url: string, method: string, path: string, params: Record<string, string> = {}) =>
  spotSigned(url, method, path, params, { timestamp: wall.now(), key: TRADER });
const contract = (url: string, method: 'GET' | 'POST', path: string, params?: Record<string, unknown> | unknown[]) =>
  contractSigned(url, method, path, params, { requestTime: wall.now(), key: TRADER });

async function touch(url: string): Promise<{ bid: number; ask: number }> {
  const r = ok(await raw(url, 'GET', '/api/v3/ticker/bookTicker?symbol=BTCUSDT'), 'bookTicker');
  const j = r.json as { bidPrice: string; askPrice: string };
  return { bid: Number(j.bidPrice), ask: Number(j.askPrice) };
}

/**
 * `rounds` rounds of trading: a spot bid and ask at the touch (the crowd's takers fill some), a cancel
 * of the previous round's bid, and every third round a contract market buy with TP/SL that the round
 * after closes. Answers the order ids the venue acknowledged.
 */
export async function trade(url: string, rounds: number): Promise<{ spot: string[]; contract: string[] }> {
  const ids = { spot: [] as string[], contract: [] as string[] };
  let lastBid: string | undefined;
  for (let k = 0; k < rounds; k++) {
    const { bid, ask } = await touch(url);
    const place = async (side: 'BUY' | 'SELL', price: number) => {
      const r = await spot(url, 'POST', '/api/v3/order', {
        symbol: 'BTCUSDT',
        side,
        type: 'LIMIT',
        quantity: '0.001',
        price: price.toFixed(2),
      });
      const id = (ok(r, `spot ${side}`).json as { orderId: string }).orderId;
      ids.spot.push(id);
      return id;
    };
    const b = await place('BUY', bid);
    await place('SELL', ask);
    if (lastBid !== undefined) await spot(url, 'DELETE', '/api/v3/order', { symbol: 'BTCUSDT', orderId: lastBid });
    lastBid = b;
    if (k % 3 === 0) {
      const r = await contract(url, 'POST', '/api/v1/private/order/create', {
        symbol: 'BTC_USDT',
        price: 0,
        vol: 20,
        leverage: 10,
        side: 1,
        type: 5,
        openType: 1,
        takeProfitPrice: Math.round(ask * 1.05),
        stopLossPrice: Math.round(bid * 0.95),
      });
      ids.contract.push(String((ok(r, 'contract open').json as { data: { orderId: string } }).data.orderId));
    } else if (k % 3 === 1) {
      const r = await contract(url, 'POST', '/api/v1/private/order/create', {
        symbol: 'BTC_USDT',
        price: 0,
        vol: 20,
        leverage: 10,
        side: 4,
        type: 5,
        openType: 1,
      });
      ok(r, 'contract close');
    }
  }
  return ids;
}

/** Cancels every order and closes every position, so the account's state no longer moves with the market. */
export async function flatten(url: string): Promise<void> {
  ok(await spot(url, 'DELETE', '/api/v3/openOrders', { symbol: 'BTCUSDT' }), 'spot cancel all');
  ok(await contract(url, 'POST', '/api/v1/private/order/cancel_all', {}), 'contract cancel all');
  ok(await contract(url, 'POST', '/api/v1/private/stoporder/cancel_all', {}), 'stop orders cancel all');
  ok(await contract(url, 'POST', '/api/v1/private/position/close_all', {}), 'close all');
}

/** The trader's own state as every read endpoint shows it (answers by endpoint). */
export async function snapshot(url: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const put = async (name: string, r: Promise<RawResponse>) => {
    const a = await r;
    out[name] = { status: a.status, body: a.json ?? a.text };
  };
  await put('spot.openOrders', spot(url, 'GET', '/api/v3/openOrders', { symbol: 'BTCUSDT' }));
  await put('spot.allOrders', spot(url, 'GET', '/api/v3/allOrders', { symbol: 'BTCUSDT', limit: '1000' }));
  await put('spot.myTrades', spot(url, 'GET', '/api/v3/myTrades', { symbol: 'BTCUSDT', limit: '1000' }));
  await put('spot.account', spot(url, 'GET', '/api/v3/account'));
  await put('contract.assets', contract(url, 'GET', '/api/v1/private/account/assets'));
  await put('contract.openOrders', contract(url, 'GET', '/api/v1/private/order/list/open_orders', { page_num: 1, page_size: 100 }));
  await put('contract.historyOrders', contract(url, 'GET', '/api/v1/private/order/list/history_orders', { page_num: 1, page_size: 100 }));
  await put('contract.openPositions', contract(url, 'GET', '/api/v1/private/position/open_positions'));
  await put(
    'contract.historyPositions',
    contract(url, 'GET', '/api/v1/private/position/list/history_positions', { page_num: 1, page_size: 100 }),
  );
  await put('contract.stopOrders', contract(url, 'GET', '/api/v1/private/stoporder/list/orders', { page_num: 1, page_size: 100 }));
  await put(
    'contract.feeDetails',
    contract(url, 'GET', '/api/v1/private/order/fee_details', { symbol: 'BTC_USDT', page_num: 1, page_size: 100 }),
  );
  return out;
}

/** Keys whose answers differ, with the first differing answer of each, for a readable failure. */
export function differences(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys]
    .filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]))
    .map((k) => `${k}:\n  before ${JSON.stringify(before[k]).slice(0, 600)}\n  after  ${JSON.stringify(after[k]).slice(0, 600)}`);
}
