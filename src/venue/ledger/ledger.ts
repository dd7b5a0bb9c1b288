/**
 * Accounts ledger: per account, per asset, free and locked balances in bigint units (ledger-units.ts),
 * plus the running totals that make conservation checkable: Σ(free + locked) + fees collected ==
 * deposits − withdrawals, per asset, at every moment.
 *
 * Flows:
 *   deposit / withdraw      paper accounts; a withdrawal never takes locked funds
 *   lock / unlock           an order reserves what it may pay (buy: price·qty quote, sell: qty base)
 *   settleTrade             one fill, both sides at once: the buyer's locked quote pays the seller, the
 *                           seller's locked base goes to the buyer, each side's fee is taken from what
 *                           it receives (so fees never need a reservation of their own)
 *
 * Misuse that would break conservation (unlocking more than is locked, settling from funds that were
 * never locked) throws: the engine above must never do it, and a test that triggers it has found a bug.
 */
import { unitsToDecimal, LEDGER_SCALE } from './ledger-units.js';
import type { Decimal } from '../../core/decimal.js';

export interface BalanceUnits {
  free: bigint;
  locked: bigint;
}

export interface BalanceView {
  readonly asset: string;
  readonly free: Decimal;
  readonly locked: Decimal;
}

export type BalanceChangeReason = 'deposit' | 'withdrawal' | 'lock' | 'unlock' | 'trade';

/** Called after every change of one (account, asset) balance; `balance` is live, copy what you keep. */
export type LedgerListener = (accountId: string, asset: string, balance: Readonly<BalanceUnits>, reason: BalanceChangeReason) => void;

export interface TradeSettlement {
  readonly buyer: string;
  readonly seller: string;
  readonly baseAsset: string;
  readonly quoteAsset: string;
  /** Base units delivered by the seller. */
  readonly baseUnits: bigint;
  /** Quote units paid by the buyer (price · qty). */
  readonly quoteUnits: bigint;
  /** Locked quote the buyer's order gives up for this fill (≥ quoteUnits; the surplus returns to free). */
  readonly buyerLockedQuote: bigint;
  /** Fee taken from the base the buyer receives. */
  readonly buyerFee: bigint;
  /** Fee taken from the quote the seller receives. */
  readonly sellerFee: bigint;
}

interface AssetTotals {
  deposited: bigint;
  withdrawn: bigint;
  fees: bigint;
}

export class Ledger {
  readonly scale: number;
  private readonly books = new Map<string, Map<string, BalanceUnits>>();
  private readonly totals = new Map<string, AssetTotals>();
  private readonly paid = new Map<string, Map<string, bigint>>();
  private listener: LedgerListener | undefined;

  constructor(opts: { scale?: number } = {}) {
    this.scale = opts.scale ?? LEDGER_SCALE;
  }

  /** One listener (the venue); it fans out to its own subscribers. */
  setListener(listener: LedgerListener | undefined): void {
    this.listener = listener;
  }

  accountIds(): IterableIterator<string> {
    return this.books.keys();
  }

  hasAccount(accountId: string): boolean {
    return this.books.has(accountId);
  }

  /** Creates an empty account (accounts also appear on their first deposit). */
  openAccount(accountId: string): void {
    if (!this.books.has(accountId)) this.books.set(accountId, new Map());
  }

  /** Live balances of an account (asset → units); empty when unknown. */
  balancesOf(accountId: string): ReadonlyMap<string, Readonly<BalanceUnits>> {
    return this.books.get(accountId) ?? EMPTY;
  }

  balance(accountId: string, asset: string): Readonly<BalanceUnits> {
    return this.books.get(accountId)?.get(asset) ?? ZERO_BALANCE;
  }

  free(accountId: string, asset: string): bigint {
    return this.balance(accountId, asset).free;
  }

  locked(accountId: string, asset: string): bigint {
    return this.balance(accountId, asset).locked;
  }

  /** Decimal view, sorted by asset, assets with a zero balance left out unless `includeZero`. */
  balances(accountId: string, includeZero = false): BalanceView[] {
    const out: BalanceView[] = [];
    const book = this.books.get(accountId);
    if (!book) return out;
    for (const asset of [...book.keys()].sort()) {
      const b = book.get(asset)!;
      if (!includeZero && b.free === 0n && b.locked === 0n) continue;
      out.push({ asset, free: unitsToDecimal(b.free, this.scale), locked: unitsToDecimal(b.locked, this.scale) });
    }
    return out;
  }

  deposit(accountId: string, asset: string, units: bigint): void {
    if (units <= 0n) throw new RangeError(`deposit must be positive, got ${units}`);
    const b = this.slot(accountId, asset);
    b.free += units;
    this.total(asset).deposited += units;
    this.changed(accountId, asset, b, 'deposit');
  }

  /** False (and nothing changes) when the free balance is short. */
  withdraw(accountId: string, asset: string, units: bigint): boolean {
    if (units <= 0n) throw new RangeError(`withdrawal must be positive, got ${units}`);
    const b = this.books.get(accountId)?.get(asset);
    if (!b || b.free < units) return false;
    b.free -= units;
    this.total(asset).withdrawn += units;
    this.changed(accountId, asset, b, 'withdrawal');
    return true;
  }

  /** Moves free → locked; false (and nothing changes) when the free balance is short. */
  lock(accountId: string, asset: string, units: bigint): boolean {
    if (units < 0n) throw new RangeError(`lock must not be negative, got ${units}`);
    if (units === 0n) return true;
    const b = this.books.get(accountId)?.get(asset);
    if (!b || b.free < units) return false;
    b.free -= units;
    b.locked += units;
    this.changed(accountId, asset, b, 'lock');
    return true;
  }

  /** Moves locked → free. Throws when more is released than is locked (an engine bug). */
  unlock(accountId: string, asset: string, units: bigint): void {
    if (units < 0n) throw new RangeError(`unlock must not be negative, got ${units}`);
    if (units === 0n) return;
    const b = this.books.get(accountId)?.get(asset);
    if (!b || b.locked < units) throw new Error(`ledger: ${accountId} unlocks ${units} ${asset} but has ${b?.locked ?? 0n} locked`);
    b.locked -= units;
    b.free += units;
    this.changed(accountId, asset, b, 'unlock');
  }

  settleTrade(t: TradeSettlement): void {
    const buyerQuote = this.books.get(t.buyer)?.get(t.quoteAsset);
    const sellerBase = this.books.get(t.seller)?.get(t.baseAsset);
    if (!buyerQuote || buyerQuote.locked < t.buyerLockedQuote) {
      throw new Error(`ledger: buyer ${t.buyer} has ${buyerQuote?.locked ?? 0n} ${t.quoteAsset} locked, fill needs ${t.buyerLockedQuote}`);
    }
    if (!sellerBase || sellerBase.locked < t.baseUnits) {
      throw new Error(`ledger: seller ${t.seller} has ${sellerBase?.locked ?? 0n} ${t.baseAsset} locked, fill needs ${t.baseUnits}`);
    }
    if (t.buyerLockedQuote < t.quoteUnits) throw new Error(`ledger: buyer pays ${t.quoteUnits} from a reservation of ${t.buyerLockedQuote}`);
    if (t.buyerFee > t.baseUnits || t.sellerFee > t.quoteUnits || t.buyerFee < 0n || t.sellerFee < 0n) throw new Error('ledger: fee outside [0, amount received]');

    buyerQuote.locked -= t.buyerLockedQuote;
    buyerQuote.free += t.buyerLockedQuote - t.quoteUnits;
    sellerBase.locked -= t.baseUnits;
    const buyerBase = this.slot(t.buyer, t.baseAsset);
    buyerBase.free += t.baseUnits - t.buyerFee;
    const sellerQuote = this.slot(t.seller, t.quoteAsset);
    sellerQuote.free += t.quoteUnits - t.sellerFee;
    if (t.buyerFee > 0n) this.fee(t.buyer, t.baseAsset, t.buyerFee);
    if (t.sellerFee > 0n) this.fee(t.seller, t.quoteAsset, t.sellerFee);

    this.changed(t.buyer, t.quoteAsset, buyerQuote, 'trade');
    this.changed(t.seller, t.baseAsset, sellerBase, 'trade');
    // A self-trade touches the same two balances from both sides: report each once.
    if (buyerBase !== sellerBase) this.changed(t.buyer, t.baseAsset, buyerBase, 'trade');
    if (sellerQuote !== buyerQuote) this.changed(t.seller, t.quoteAsset, sellerQuote, 'trade');
  }

  /**
   * Takes a fee from the FREE balance in an asset other than the one a fill delivers (platform-token
   * deduction). False, and nothing changes, when the free balance is short.
   */
  chargeFee(accountId: string, asset: string, units: bigint): boolean {
    if (units < 0n) throw new RangeError(`fee must not be negative, got ${units}`);
    if (units === 0n) return true;
    const b = this.books.get(accountId)?.get(asset);
    if (!b || b.free < units) return false;
    b.free -= units;
    this.fee(accountId, asset, units);
    this.changed(accountId, asset, b, 'trade');
    return true;
  }

  /** Fees the venue has collected in `asset`. */
  feesCollected(asset: string): bigint {
    return this.totals.get(asset)?.fees ?? 0n;
  }

  /** Fees `accountId` has paid in `asset`. */
  feesPaid(accountId: string, asset: string): bigint {
    return this.paid.get(accountId)?.get(asset) ?? 0n;
  }

  deposited(asset: string): bigint {
    return this.totals.get(asset)?.deposited ?? 0n;
  }

  withdrawn(asset: string): bigint {
    return this.totals.get(asset)?.withdrawn ?? 0n;
  }

  assets(): string[] {
    return [...this.totals.keys()].sort();
  }

  /** Conservation and sign checks; empty when consistent. */
  checkInvariants(): string[] {
    const problems: string[] = [];
    const held = new Map<string, bigint>();
    for (const [account, book] of this.books) {
      for (const [asset, b] of book) {
        if (b.free < 0n) problems.push(`${account} ${asset} free is negative (${b.free})`);
        if (b.locked < 0n) problems.push(`${account} ${asset} locked is negative (${b.locked})`);
        held.set(asset, (held.get(asset) ?? 0n) + b.free + b.locked);
      }
    }
    const assets = new Set([...held.keys(), ...this.totals.keys()]);
    for (const asset of assets) {
      const t = this.totals.get(asset) ?? { deposited: 0n, withdrawn: 0n, fees: 0n };
      const lhs = (held.get(asset) ?? 0n) + t.fees - t.deposited + t.withdrawn;
      if (lhs !== 0n) problems.push(`${asset} not conserved: Σ balances + fees − deposits + withdrawals = ${lhs}`);
      let paid = 0n;
      for (const m of this.paid.values()) paid += m.get(asset) ?? 0n;
      if (paid !== t.fees) problems.push(`${asset}: fees paid by accounts ${paid} != fees collected ${t.fees}`);
    }
    return problems;
  }

  private fee(accountId: string, asset: string, units: bigint): void {
    this.total(asset).fees += units;
    let m = this.paid.get(accountId);
    if (!m) this.paid.set(accountId, (m = new Map()));
    m.set(asset, (m.get(asset) ?? 0n) + units);
  }

  private slot(accountId: string, asset: string): BalanceUnits {
    let book = this.books.get(accountId);
    if (!book) this.books.set(accountId, (book = new Map()));
    let b = book.get(asset);
    if (!b) {
      book.set(asset, (b = { free: 0n, locked: 0n }));
      this.total(asset);
    }
    return b;
  }

  private total(asset: string): AssetTotals {
    let t = this.totals.get(asset);
    if (!t) this.totals.set(asset, (t = { deposited: 0n, withdrawn: 0n, fees: 0n }));
    return t;
  }

  private changed(accountId: string, asset: string, b: BalanceUnits, reason: BalanceChangeReason): void {
    if (this.listener !== undefined) this.listener(accountId, asset, b, reason);
  }
}

const EMPTY: ReadonlyMap<string, BalanceUnits> = new Map();
const ZERO_BALANCE: Readonly<BalanceUnits> = Object.freeze({ free: 0n, locked: 0n });
