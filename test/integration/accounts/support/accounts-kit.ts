/**
 * Arrangement of the account-feature scenarios: an in-process emulator on a virtual clock with the
 * market model stopped (so every trade is one of the test's own and every figure can be worked out by
 * hand), reached over real HTTP through our SpotClient and ContractClient.
 *
 * Accounts: `master` with sub-accounts `sub1`, `sub2`; `outsider` (another master); market maker `mm`
 * with sub-account `mmsub`. Spot: BTCUSDT (preset: maker 0, taker 0.0005, last 87 500) and MXUSDT
 * (platform token, maker 0.001, taker 0.002, last 2.5). Contract: BTC_USDT preset (contractSize 0.0001,
 * taker 0.0001, maker 0) unless a test gives its own fee schedule.
 */
import { VirtualClock } from '../../../../src/core/clock.js';
import { ContractClient } from '../../../../src/client/contract-client.js';
import { SpotClient } from '../../../../src/client/spot-client.js';
import type { EmulatorConfigInput } from '../../../../src/emulator/emulator-config.js';
import { startEmulator, type RunningEmulator } from '../../../../src/emulator/start-emulator.js';

/** 2026-01-01T00:00:00Z */
export const T0 = 1_767_225_600_000;
export const DAY = 86_400_000;

export interface Key {
  readonly apiKey: string;
  readonly secret: string;
  readonly uid: string;
}

export const KEYS = {
  master: { apiKey: 'mx0vglMasterKey1', secret: 'master-secret-0123456789abcdef', uid: '20000001' },
  sub1: { apiKey: 'mx0vglSubOneKey1', secret: 'sub1-secret-0123456789abcdefgh', uid: '20000002' },
  sub2: { apiKey: 'mx0vglSubTwoKey1', secret: 'sub2-secret-0123456789abcdefgh', uid: '20000003' },
  outsider: { apiKey: 'mx0vglOutsider01', secret: 'outsider-secret-0123456789abcd', uid: '20000009' },
  mm: { apiKey: 'mx0vglMarketMkr1', secret: 'mm-secret-0123456789abcdefghij', uid: '20000010' },
  mmsub: { apiKey: 'mx0vglMmSubKey01', secret: 'mmsub-secret-0123456789abcdefg', uid: '20000011' },
} as const satisfies Record<string, Key>;

export type AccountName = keyof typeof KEYS;

const SPOT_BALANCES = { USDT: '100000', BTC: '2', MX: '1000' };
const CONTRACT_BALANCES = { USDT: '100000' };

/** Per-account additions to the config entry (`contract: {feeDeduct: true}` merges into contract). */
export type AccountOverrides = Partial<
  Record<AccountName, { readonly spot?: Record<string, unknown>; readonly contract?: Record<string, unknown> }>
>;

export function accountsConfig(extra: Partial<EmulatorConfigInput> = {}, overrides: AccountOverrides = {}): EmulatorConfigInput {
  const account = (name: AccountName, more: Record<string, unknown> = {}) => ({
    name,
    uid: KEYS[name].uid,
    apiKey: KEYS[name].apiKey,
    secretKey: KEYS[name].secret,
    spot: { balances: SPOT_BALANCES, ...overrides[name]?.spot },
    contract: { balances: CONTRACT_BALANCES, ...overrides[name]?.contract },
    ...more,
  });
  return {
    seed: 11,
    clock: { mode: 'virtual', start: T0, stepMs: 0 },
    // The virtual clock stands still between requests, so per-window budgets would never refill.
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
      contract: ['BTC_USDT', 'ETH_USDT'],
    },
    market: { source: 'synthetic', underlyings: { MX: { price: '2.5' } } },
    accounts: [
      account('master', { kycStatus: '3' }),
      account('sub1', { master: 'master' }),
      account('sub2', { master: 'master' }),
      account('outsider'),
      account('mm', { marketMaker: true }),
      account('mmsub', { master: 'mm' }),
    ] as EmulatorConfigInput['accounts'],
    ...extra,
  };
}

export interface AccountsKit {
  readonly clock: VirtualClock;
  readonly emu: RunningEmulator;
  spot(name: AccountName): SpotClient;
  contract(name: AccountName): ContractClient;
  close(): Promise<void>;
}

export async function startAccountsKit(extra: Partial<EmulatorConfigInput> = {}, overrides: AccountOverrides = {}): Promise<AccountsKit> {
  const clock = new VirtualClock(T0);
  const emu = await startEmulator(accountsConfig(extra, overrides), { clock, marketStopped: true });
  const clients: { close(): Promise<void> }[] = [];
  const opts = { baseUrl: emu.url, clock, rateLimits: false as const, timeSync: false as const };
  return {
    clock,
    emu,
    spot(name) {
      const c = new SpotClient({ ...opts, credentials: { apiKey: KEYS[name].apiKey, secretKey: KEYS[name].secret } });
      clients.push(c);
      return c;
    },
    contract(name) {
      const c = new ContractClient({ ...opts, credentials: { apiKey: KEYS[name].apiKey, secretKey: KEYS[name].secret } });
      clients.push(c);
      return c;
    },
    async close() {
      for (const c of clients) await c.close();
      await emu.stop();
    },
  };
}
