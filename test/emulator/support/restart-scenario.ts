/**
 * A paper-trading session that changes every kind of state the API can change, for the restart
 * tests: spot platform-token deduction, an STP strategy group with members, resting and filled spot
 * orders, a market-maker blacklist (created, then updated), a one-way position mode, a leverage
 * setting, a contract position with a stop-loss on the position, a limit order carrying TP/SL, a plan
 * order and a trailing order, a midnight (equity snapshots, funding) and trades after it.
 *
 * Virtual time starts at 23:59:00 UTC so the session crosses 00:00 with the market model running
 * (small crowd books: three levels).
 */
import { expect } from 'chai';
import type { EmulatorConfigInput } from '../../../src/emulator/emulator-config.js';
import type { RunningEmulator } from '../../../src/emulator/start-emulator.js';
import { contractSigned, spotSigned, type RawResponse, type TestKey } from './emulator-kit.js';
import type { ReadRefs } from './read-everything.js';

/** 2026-01-01T23:59:00Z */
export const EVE = Date.parse('2026-01-01T23:59:00Z');

export const KEYS = {
  master: { apiKey: 'mx0vglMasterKey1', secret: 'master-secret-0123456789abcdef' },
  sub1: { apiKey: 'mx0vglSubOneKey1', secret: 'sub1-secret-0123456789abcdefgh' },
  mm: { apiKey: 'mx0vglMarketMkr1', secret: 'mm-secret-0123456789abcdefghij' },
  mmsub: { apiKey: 'mx0vglMmSubKey01', secret: 'mmsub-secret-0123456789abcdefg' },
} as const satisfies Record<string, TestKey>;

export const UIDS = { master: '20000001', sub1: '20000002', mm: '20000010', mmsub: '20000011' } as const;

export function scenarioConfig(persistencePath?: string, extra: Partial<EmulatorConfigInput> = {}): EmulatorConfigInput {
  const account = (name: keyof typeof KEYS, more: Record<string, unknown> = {}) => ({
    name,
    uid: UIDS[name],
    apiKey: KEYS[name].apiKey,
    secretKey: KEYS[name].secret,
    spot: { balances: { USDT: '100000', BTC: '2', MX: '1000' } },
    contract: { balances: { USDT: '100000' } },
    ...more,
  });
  return {
    seed: 5,
    clock: { mode: 'virtual', start: EVE, stepMs: 0 },
    rateLimits: { enabled: false },
    instruments: {
      spot: [
        'BTCUSDT',
        {
          symbol: 'MXUSDT',
          baseAsset: 'MX',
          quoteAsset: 'USDT',
          baseAssetPrecision: 2,
          quotePrecision: 4,
          minQuantity: '0.01',
          minQuoteAmount: '1',
          maxQuoteAmount: '1000000',
          makerCommission: '0.001',
          takerCommission: '0.002',
        },
      ],
      contract: ['BTC_USDT'],
    },
    market: {
      source: 'synthetic',
      underlyings: { MX: { price: '2.5' } },
      books: { BTCUSDT: { levels: 3 }, MXUSDT: { levels: 3 }, BTC_USDT: { levels: 3 } },
    },
    accounts: [
      account('master'),
      account('sub1', { master: 'master' }),
      account('mm', { marketMaker: true }),
      account('mmsub', { master: 'mm' }),
    ] as EmulatorConfigInput['accounts'],
    ...(persistencePath ? { persistence: { path: persistencePath } } : {}),
    ...extra,
  };
}

/** What the session created, for the reads. */
export interface ScenarioRefs {
  stpGroupId?: string;
  tpslOrderId?: string;
  positionId?: string;
}

function ok(r: RawResponse, what: string): RawResponse {
  const j = r.json as Record<string, unknown> | undefined;
  const failed =
    r.status !== 200 ||
    (j !== undefined && j.success === false) ||
    (j !== undefined && typeof j.code === 'number' && j.code !== 0 && j.code !== 200 && typeof j.msg === 'string' && !('data' in j));
  expect(failed, `${what}: ${r.status} ${r.text.slice(0, 300)}`).to.equal(false);
  return r;
}

const dataOf = <T>(r: RawResponse): T => (r.json as { data: T }).data;

/** Before midnight: every setting, group, blacklist, order kind and position of the session. */
export async function phaseOne(emu: RunningEmulator, refs: ScenarioRefs): Promise<void> {
  const t = emu.clock.now();
  const spot = (key: TestKey, method: string, path: string, params: Record<string, string>) =>
    spotSigned(emu.url, method, path, params, { timestamp: t, key }).then((r) => ok(r, `${method} ${path}`));
  const contract = (key: TestKey, path: string, body: Record<string, unknown> | unknown[]) =>
    contractSigned(emu.url, 'POST', path, body, { requestTime: t, key }).then((r) => ok(r, `POST ${path}`));
  const { master, sub1, mm } = KEYS;

  await spot(master, 'POST', '/api/v3/platformDeduct/enable', { platformDeductEnable: 'true' });
  const group = await spot(master, 'POST', '/api/v3/strategy/group', { tradeGroupName: 'alpha' });
  refs.stpGroupId = String(dataOf<{ tradeGroupId: number }>(group).tradeGroupId);
  await spot(master, 'POST', '/api/v3/strategy/group/uid', { uid: `${UIDS.sub1},${UIDS.master}`, tradeGroupId: refs.stpGroupId });
  await spot(master, 'POST', '/api/v3/order', {
    symbol: 'BTCUSDT',
    side: 'BUY',
    type: 'LIMIT',
    quantity: '0.01',
    price: '80000',
    newClientOrderId: 'rest-1',
  });
  await spot(master, 'POST', '/api/v3/order', {
    symbol: 'BTCUSDT',
    side: 'BUY',
    type: 'MARKET',
    quoteOrderQty: '500',
    newClientOrderId: 'mkt-1',
  });
  await spot(sub1, 'POST', '/api/v3/order', {
    symbol: 'BTCUSDT',
    side: 'SELL',
    type: 'MARKET',
    quantity: '0.001',
    newClientOrderId: 'mkt-2',
  });

  await contract(mm, '/api/v1/private/market_maker/self_trade/blacklist/create', {
    configName: 'bl1',
    blacklist: [Number(UIDS.mm), Number(UIDS.mmsub)],
  });
  await contract(mm, '/api/v1/private/market_maker/self_trade/blacklist/update', { configName: 'bl1', blacklist: [Number(UIDS.mmsub)] });
  await contract(sub1, '/api/v1/private/position/change_position_mode', { positionMode: 2 });
  await contract(master, '/api/v1/private/position/change_leverage', { leverage: 33, symbol: 'BTC_USDT', openType: 1, positionType: 1 });
  await contract(master, '/api/v1/private/order/create', {
    symbol: 'BTC_USDT',
    price: 0,
    vol: 20,
    leverage: 33,
    side: 1,
    type: 5,
    openType: 1,
  });
  const positions = dataOf<{ positionId: number }[]>(
    await contractSigned(emu.url, 'GET', '/api/v1/private/position/open_positions', undefined, { requestTime: t, key: master }),
  );
  refs.positionId = String(positions[0]!.positionId);
  await contract(master, '/api/v1/private/stoporder/place', {
    symbol: 'BTC_USDT',
    positionId: refs.positionId,
    vol: 20,
    stopLossPrice: 50000,
    lossTrend: 2,
  });
  const tpsl = await contract(master, '/api/v1/private/order/create', {
    symbol: 'BTC_USDT',
    price: 80000,
    vol: 5,
    leverage: 33,
    side: 1,
    type: 1,
    openType: 1,
    externalOid: 'tpsl-1',
    takeProfitPrice: 95000,
    stopLossPrice: 70000,
    profitTrend: 2,
    lossTrend: 3,
  });
  refs.tpslOrderId = String(dataOf<{ orderId: string }>(tpsl).orderId);
  await contract(master, '/api/v1/private/planorder/place', {
    symbol: 'BTC_USDT',
    price: 70000,
    vol: 1,
    leverage: 33,
    side: 1,
    openType: 1,
    triggerPrice: 70000,
    triggerType: 2,
    executeCycle: 1,
    trend: 1,
    orderType: 1,
  });
  await contract(master, '/api/v1/private/trackorder/place', {
    symbol: 'BTC_USDT',
    leverage: 33,
    side: 4,
    vol: 1,
    openType: 1,
    trend: 1,
    backType: 1,
    backValue: 0.01,
    positionMode: 1,
    activePrice: 200000,
  });
  await contract(sub1, '/api/v1/private/order/create', {
    symbol: 'BTC_USDT',
    price: 0,
    vol: 10,
    leverage: 10,
    side: 1,
    type: 5,
    openType: 2,
  });
}

/** After midnight: trades that move the equity away from the midnight snapshot. */
export async function phaseTwo(emu: RunningEmulator): Promise<void> {
  const t = emu.clock.now();
  ok(
    await contractSigned(
      emu.url,
      'POST',
      '/api/v1/private/order/create',
      { symbol: 'BTC_USDT', price: 0, vol: 4, leverage: 10, side: 3, type: 5, openType: 2 },
      { requestTime: t, key: KEYS.sub1 },
    ),
    'sub1 partial close',
  );
  ok(
    await spotSigned(
      emu.url,
      'POST',
      '/api/v3/order',
      { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.002', newClientOrderId: 'mkt-3' },
      { timestamp: t, key: KEYS.master },
    ),
    'master spot sell',
  );
}

export function readRefs(refs: ScenarioRefs): ReadRefs {
  return {
    spotSymbols: ['BTCUSDT', 'MXUSDT'],
    contractSymbols: ['BTC_USDT'],
    spotClientIds: { master: ['rest-1', 'mkt-1', 'mkt-3'], sub1: ['mkt-2'] },
    contractOrderIds: { master: refs.tpslOrderId ? [refs.tpslOrderId] : [] },
    externalOids: { master: [{ symbol: 'BTC_USDT', externalOid: 'tpsl-1' }] },
    stpGroupNames: ['alpha'],
    blacklistNames: ['bl1'],
    since: EVE - 86_400_000,
  };
}
