/**
 * The account-side services of the emulator beyond plain trading, wired once per emulator:
 *
 *   spot STP strategy groups    StpGroupRegistry → the spot venue's STP membership
 *   contract MM blacklists      MarketMakerBlacklists → the contract venue's sameStpGroup
 *   contract fees               ContractFeeModel → the contract venue's feeRates hook
 *   spot platform-token fees    PlatformTokenDeduction → the spot venue's fee payer
 *   PnL analysis                PnlRecorder (venue events + 00:00 UTC snapshots) → PnlAnalysis
 *
 * Build it before the engines (the contract engine takes the fee and STP hooks at construction), then
 * `attach` the engines before anything is replayed or funded, so every event is seen.
 *
 * Persistence: the changes the API makes here (STP groups, blacklists) go through journaled handles
 * (`stpGroups`, `blacklists`), and the midnight snapshots are taken by the emulator's timeline through a
 * journaled call, so all of it is rebuilt by the journal's replay (`replayTargets`).
 */
import type { Clock } from '../../core/clock.js';
import { Decimal } from '../../core/decimal.js';
import { ConfigError } from '../../core/errors.js';
import type { ContractInstrument } from '../../domain/instrument.js';
import type { AccountId } from '../../core/ids.js';
import { ContractFeeModel } from '../../venue/fees/contract-fee-model.js';
import { PlatformTokenDeduction } from '../../venue/fees/platform-token-deduction.js';
import { PnlAnalysis } from '../../venue/analysis/pnl-analysis.js';
import { PnlRecorder } from '../../venue/analysis/pnl-recorder.js';
import { StpGroupRegistry, type StpMember } from '../../venue/spot/stp-groups.js';
import type { AccountRegistry, EmulatorAccount } from '../auth/account-registry.js';
import { toContractFeeOverride, toDeductConfigs, toDiscountConfigs, type FeeExtensionsConfig } from '../config/account-ext-config.js';
import type { ContractEngine } from '../engine/contract-engine.js';
import type { SpotEngine } from '../engine/spot-engine.js';
import { journaled, type CommandJournal } from '../engine/command-journal.js';
import { MarketMakerBlacklists } from './market-maker-blacklists.js';
import { isCrowdAccount } from '../../venue/market/crowd-accounts.js';

/** Per-account settings of these services (from the account config). */
export interface AccountExtSettings {
  /** Config name of the master account; absent for a master account. */
  readonly master?: string | undefined;
  /** Contract fee deduction switched on (discountType.useFeeDeduct). */
  readonly contractFeeDeduct?: boolean | undefined;
}

export interface AccountExtServicesOptions {
  readonly clock: Clock;
  readonly accounts: AccountRegistry;
  readonly settings: (accountId: string) => AccountExtSettings;
  readonly contractInstruments: readonly ContractInstrument[];
  readonly fees: FeeExtensionsConfig;
  /** Where the API's changes are journaled (persistence on). */
  readonly journal?: CommandJournal | undefined;
  /** Creation time of the configured fee discounts (the venue's first start; default: now). */
  readonly createdAt?: number;
}

/** Methods of the STP registry and the blacklists that change state (journaled, replayed). */
const STP_GROUP_COMMANDS = ['create', 'delete', 'addUids', 'removeUids'] as const;
const BLACKLIST_COMMANDS = ['create', 'update', 'delete'] as const;

const isCrowd = (id: string): boolean => isCrowdAccount(id) || id.startsWith('__');

export class AccountExtServices {
  readonly contractFees: ContractFeeModel;
  /** The handle the API uses (journaled). */
  readonly blacklists: MarketMakerBlacklists;
  private readonly blacklistStore: MarketMakerBlacklists;
  private spotGroupStore: StpGroupRegistry | undefined;
  private spotGroups: StpGroupRegistry | undefined;
  private spotDeduction: PlatformTokenDeduction | undefined;
  private recorder: PnlRecorder | undefined;
  private pnlAnalysis: PnlAnalysis | undefined;
  private readonly byUid = new Map<string, EmulatorAccount>();
  private contractEngine: ContractEngine | undefined;

  constructor(private readonly opts: AccountExtServicesOptions) {
    for (const a of opts.accounts.all()) this.byUid.set(a.uid, a);
    for (const a of opts.accounts.all()) {
      const master = opts.settings(a.id).master;
      if (master === undefined) continue;
      if (!opts.accounts.byAccountId(master))
        throw new ConfigError(`accounts.${a.id}.master`, `expected the name of another account, got ${master}`);
      if (opts.settings(master).master !== undefined)
        throw new ConfigError(`accounts.${a.id}.master`, `expected a master account; ${master} is itself a sub-account`);
    }
    const now = () => opts.clock.now();
    this.blacklistStore = new MarketMakerBlacklists({
      now,
      accountOfUid: (uid) => this.byUid.get(uid)?.id,
      masterOf: (id) => this.masterOf(id),
    });
    this.blacklists = journaled(this.blacklistStore, 'blacklists', BLACKLIST_COMMANDS, opts.journal);
    const overrides = Object.fromEntries(Object.entries(opts.fees.contractSchedules).map(([sym, c]) => [sym, toContractFeeOverride(c)]));
    for (const sym of Object.keys(overrides)) {
      if (!opts.contractInstruments.some((i) => i.symbol === sym))
        throw new ConfigError(`fees.contractSchedules.${sym}`, 'expected a contract listed under instruments.contract');
    }
    this.contractFees = new ContractFeeModel({
      clock: opts.clock,
      instruments: opts.contractInstruments,
      overrides,
      leverageOf: (account, symbol) => this.leverageOf(account, symbol),
      deductConfigs: toDeductConfigs(opts.fees.contractDeduct),
      discountConfigs: toDiscountConfigs(opts.fees.contractDiscounts, opts.createdAt ?? opts.clock.now()),
      deductEnabled: (id) => opts.settings(id).contractFeeDeduct === true,
      exempt: isCrowd,
    });
  }

  /** The contract venue's feeRates hook. */
  readonly contractFeeRates = (account: AccountId, instrument: ContractInstrument): { maker: Decimal; taker: Decimal } =>
    this.contractFees.feeRates(account, instrument);

  /** The contract venue's sameStpGroup hook: one account, or two accounts of one MM blacklist. */
  readonly contractSameStpGroup = (a: AccountId, b: AccountId): boolean => a === b || this.blacklistStore.sameGroup(a, b);

  /** Wires the engines: spot STP membership and fee payer, contract fee learning and PnL recording. */
  attach(spot: SpotEngine, contract: ContractEngine): void {
    this.contractEngine = contract;
    const tokenCfg = this.opts.fees.platformToken;
    this.spotDeduction = new PlatformTokenDeduction({
      token: tokenCfg.asset,
      discount: tokenCfg.discount,
      enabled: (id) => this.opts.accounts.byAccountId(id)?.settings.platformDeduct === true,
      prices: spot.reader,
    });
    spot.reader.setFeePayer(this.spotDeduction);
    const now = () => this.opts.clock.now();
    this.spotGroupStore = new StpGroupRegistry({
      now,
      membership: spot.reader.stpGroups,
      memberOfUid: (uid) => this.memberOfUid(uid),
      masterOf: (id) => this.masterOf(id),
    });
    this.spotGroups = journaled(this.spotGroupStore, 'stpGroups', STP_GROUP_COMMANDS, this.opts.journal);
    contract.reader.on(this.contractFees.observe, ['OrderFilled']);
    // No timer of its own: the emulator's timeline takes the midnight snapshots as journaled calls.
    this.recorder = new PnlRecorder({
      clock: this.opts.clock,
      venue: contract.reader,
      accounts: () => this.opts.accounts.all().map((a) => a.id),
      midnightTimer: false,
    });
    this.recorder.start();
    const reference =
      this.opts.contractInstruments.find((i) => i.symbol === 'BTC_USDT')?.symbol ?? this.opts.contractInstruments[0]?.symbol;
    this.pnlAnalysis = new PnlAnalysis(this.recorder, {
      now: () => this.opts.clock.now(),
      fairPrice: (s) => (contract.reader.instrument(s) ? contract.reader.fairPrice(s) : undefined),
      indexPrice: (s) => (contract.reader.instrument(s) ? contract.reader.indexPrice(s) : undefined),
      referenceSymbol: reference,
    });
  }

  stop(): void {
    this.recorder?.stop();
  }

  /** The bare objects the journal's entries of these services replay on. */
  replayTargets(): Record<string, object> {
    if (!this.spotGroupStore || !this.recorder) throw new Error('AccountExtServices.attach() was not called');
    return { stpGroups: this.spotGroupStore, blacklists: this.blacklistStore, pnl: this.recorder };
  }

  /** Takes the 00:00 UTC equity snapshots (journaled as `pnl.takeMidnightSnapshot`). */
  takeMidnightSnapshot(at: number): void {
    const j = this.opts.journal;
    if (j) j.runRecorded('pnl', 'takeMidnightSnapshot', [at], () => this.pnl.takeMidnightSnapshot(at));
    else this.pnl.takeMidnightSnapshot(at);
  }

  get stpGroups(): StpGroupRegistry {
    if (!this.spotGroups) throw new Error('AccountExtServices.attach() was not called');
    return this.spotGroups;
  }

  get platformDeduction(): PlatformTokenDeduction {
    if (!this.spotDeduction) throw new Error('AccountExtServices.attach() was not called');
    return this.spotDeduction;
  }

  get pnl(): PnlRecorder {
    if (!this.recorder) throw new Error('AccountExtServices.attach() was not called');
    return this.recorder;
  }

  get analysis(): PnlAnalysis {
    if (!this.pnlAnalysis) throw new Error('AccountExtServices.attach() was not called');
    return this.pnlAnalysis;
  }

  /** The master account of an account (itself for a master). */
  masterOf(accountId: string): string {
    return this.opts.settings(accountId).master ?? accountId;
  }

  accountOfUid(uid: string): EmulatorAccount | undefined {
    return this.byUid.get(uid);
  }

  private memberOfUid(uid: string): StpMember | undefined {
    const a = this.byUid.get(uid);
    return a ? { accountId: a.id, masterAccountId: this.masterOf(a.id) } : undefined;
  }

  /** The highest leverage the account has set on the contract (LEVERAGE fee mode). */
  private leverageOf(account: string, symbol: string): number | undefined {
    const venue = this.contractEngine?.reader;
    if (!venue || !venue.instrument(symbol)) return undefined;
    return Math.max(...venue.leverage(account, symbol).map((r) => r.leverage));
  }
}
