/**
 * The paper accounts the emulator knows, looked up by API key. Secrets are held as KeyObjects (never a
 * printable string) and only used to verify signatures.
 */
import type { KeyObject } from 'node:crypto';
import { secretKeyOf } from '../../client/hmac.js';
import { hashString } from '../../core/random.js';
import type { SpotPermission } from '../../domain/spot-enums.js';
import type { ContractPermission } from '../../domain/contract-enums.js';
import { globalRedactor } from '../../core/redact.js';
import type { AccountConfig } from '../emulator-config.js';

export interface EmulatorAccount {
  /** The account id the engines use (the config name). */
  readonly id: string;
  readonly uid: string;
  readonly apiKey: string;
  readonly secret: KeyObject;
  readonly kycStatus: string;
  readonly marketMaker: boolean;
  readonly spotPermissions: ReadonlySet<SpotPermission>;
  readonly contractPermissions: ReadonlySet<ContractPermission>;
  readonly contractTradingAllowed: boolean;
  readonly initialSpotBalances: Readonly<Record<string, string>>;
  readonly initialContractBalances: Readonly<Record<string, string>>;
  /** Mutable account settings the API can change. */
  readonly settings: { platformDeduct: boolean };
}

export class AccountRegistry {
  private readonly byKey = new Map<string, EmulatorAccount>();
  private readonly byId = new Map<string, EmulatorAccount>();

  constructor(accounts: readonly AccountConfig[]) {
    for (const a of accounts) {
      globalRedactor.register(a.secretKey);
      const acc: EmulatorAccount = {
        id: a.name,
        uid: a.uid ?? String(10_000_000 + (hashString(a.name) % 89_999_999)),
        apiKey: a.apiKey,
        secret: secretKeyOf(a.secretKey),
        kycStatus: a.kycStatus,
        marketMaker: a.marketMaker,
        spotPermissions: new Set(a.spot.permissions),
        contractPermissions: new Set(a.contract.permissions),
        contractTradingAllowed: a.contract.tradingAllowed,
        initialSpotBalances: a.spot.balances,
        initialContractBalances: a.contract.balances,
        settings: { platformDeduct: a.spot.platformDeduct },
      };
      this.byKey.set(a.apiKey, acc);
      this.byId.set(acc.id, acc);
    }
  }

  /**
   * POST /api/v3/platformDeduct/enable. A command like the engines' (journaled and replayed), so the
   * switch survives a restart; answers the new setting, false for an unknown account.
   */
  setPlatformDeduct(accountId: string, enabled: boolean): boolean {
    const a = this.byId.get(accountId);
    if (!a) return false;
    a.settings.platformDeduct = enabled;
    return enabled;
  }

  byApiKey(apiKey: string): EmulatorAccount | undefined {
    return this.byKey.get(apiKey);
  }

  byAccountId(id: string): EmulatorAccount | undefined {
    return this.byId.get(id);
  }

  all(): EmulatorAccount[] {
    return [...this.byId.values()];
  }
}
