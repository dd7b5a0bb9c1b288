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
 *
 * Fast path (`lockGrains`, `unlockGrains`, `settleGrains`): the same flows with amounts given as plain
 * numbers of GRAINS. Why: at scale 18 almost every amount passes 2^53, so every bigint operation
 * allocates, and that was the largest cost of a spot command. A grain is the largest unit that divides
 * every amount the venue moves in an asset — lot sizes, tick·lot sizes and exact fee steps registered
 * through `measure()` (their gcd). Each balance is held as `big + fast·grain`: `big` a bigint of ledger
 * units (deposits, withdrawals, inexact fees), `fast` a signed safe integer of grains that the fast
 * path adds to without allocating. Exactness: grains are whole ledger units, `fast` stays within
 * ±2^51 (beyond that it is folded into `big`), and every comparison the fast path makes
 * (free ≥ amount, locked ≥ amount) is done on a cached, capped `floor(big / grain)` that is exact in
 * the range where the answer depends on it (see Slot). A caller whose amount does not fit (too many
 * grains, or an asset without a grain) uses the bigint methods; both paths act on the same balances.
 */
import { gcd, unitsToDecimal, LEDGER_SCALE } from './ledger-units.js';
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

/** The same settlement in grains of each asset (see `measure`); a caller may reuse one object. */
export interface GrainSettlement {
  buyer: LedgerAccount;
  seller: LedgerAccount;
  baseAsset: string;
  quoteAsset: string;
  base: number;
  quote: number;
  buyerLockedQuote: number;
  buyerFee: number;
  sellerFee: number;
}

/**
 * A unit the fast path counts in: `units` ledger units of `asset` per count (one lot of base, one
 * tick·lot of quote, one exact fee step). `grains` is how many grains of the asset one count is, kept
 * up to date by the ledger when the asset's grain gets finer; NaN when a count is too large for the
 * fast path (then count·grains is NaN and fails every `≤ MAX_GRAINS` test).
 */
export interface LedgerMeasure {
  readonly asset: string;
  readonly units: bigint;
  readonly grains: number;
}

/** Largest grain amount a fast-path call accepts, and the bound `fast` parts are folded at. */
export const MAX_GRAINS = 2 ** 51;
/** Cap of the cached floor(big / grain): above any sum the fast path compares it with. */
const BIG_CAP = 2 ** 52;
const BIG_CAP_N = BigInt(BIG_CAP);

/**
 * A live handle on one account's balances (from `account()`), so a caller that keeps it skips the
 * account lookup on every fast-path call. Opaque: read balances through the Ledger.
 */
export interface LedgerAccount {
  readonly id: string;
  /** @internal */
  readonly slots: Map<string, Slot>;
}

interface MutableMeasure {
  readonly asset: string;
  readonly units: bigint;
  grains: number;
}

/** Per asset: the grain, the measures counting in it, and every two-part amount to refold when it changes. */
export class AssetGrain {
  /** 0n until the first measure of the asset. */
  grain = 0n;
  readonly measures = new Map<bigint, MutableMeasure>();
  readonly slots: Slot[] = [];
  readonly accs: Acc[] = [];
  /** Fees collected in the asset (the totals' accumulator, kept here to skip a lookup per fee). */
  fees: Acc | undefined;
}

/** floor(v / g) capped to ±BIG_CAP; 0 without a grain. */
function capDiv(v: bigint, g: bigint): number {
  if (g === 0n) return 0;
  let q = v / g;
  if (v < 0n && q * g !== v) q -= 1n;
  if (q > BIG_CAP_N) return BIG_CAP;
  if (q < -BIG_CAP_N) return -BIG_CAP;
  return Number(q);
}

/**
 * One (account, asset) balance: free = fb + ff·grain, locked = lb + lf·grain. The engine keeps fb and
 * lb ≥ 0 (bigint operations fold the fast part in first, and a balance never goes negative), so
 * fbg = floor(fb / grain) capped at 2^52 decides `free ≥ x·grain` exactly as `fbg + ff ≥ x` for any
 * |ff|, x ≤ 2^51: below the cap fbg is exact, and at the cap both sides say yes.
 */
export class Slot implements BalanceUnits {
  fb = 0n;
  lb = 0n;
  ff = 0;
  lf = 0;
  fbg = 0;
  lbg = 0;
  /** Fees this account has paid in this asset (the `paid` accumulator, kept here to skip lookups). */
  paid: Acc | undefined;

  constructor(readonly g: AssetGrain) {}

  get free(): bigint {
    return this.ff === 0 ? this.fb : this.fb + BigInt(this.ff) * this.g.grain;
  }

  set free(v: bigint) {
    this.fb = v;
    this.ff = 0;
    this.fbg = capDiv(v, this.g.grain);
  }

  get locked(): bigint {
    return this.lf === 0 ? this.lb : this.lb + BigInt(this.lf) * this.g.grain;
  }

  set locked(v: bigint) {
    this.lb = v;
    this.lf = 0;
    this.lbg = capDiv(v, this.g.grain);
  }

  /** Keeps the fast parts within ±MAX_GRAINS. */
  bound(): void {
    // The self-assignments below go through the setters, which fold the fast part into the exact one.
    /* oxlint-disable no-self-assign */
    if (this.ff > MAX_GRAINS || this.ff < -MAX_GRAINS) this.free = this.free;
    if (this.lf > MAX_GRAINS || this.lf < -MAX_GRAINS) this.locked = this.locked;
    /* oxlint-enable no-self-assign */
  }
}

/** A running total in the same two parts (fees collected, fees paid). */
export class Acc {
  big = 0n;
  fast = 0;

  constructor(readonly g: AssetGrain) {}

  get value(): bigint {
    return this.fast === 0 ? this.big : this.big + BigInt(this.fast) * this.g.grain;
  }

  addBig(units: bigint): void {
    this.big = this.value + units;
    this.fast = 0;
  }

  addGrains(grains: number): void {
    this.fast += grains;
    if (this.fast > MAX_GRAINS) this.addBig(0n);
  }
}

interface AssetTotals {
  deposited: bigint;
  withdrawn: bigint;
  readonly fees: Acc;
}

export class Ledger {
  readonly scale: number;
  private readonly books = new Map<string, LedgerAccount>();
  private readonly totals = new Map<string, AssetTotals>();
  private readonly paid = new Map<string, Map<string, Acc>>();
  private readonly grains = new Map<string, AssetGrain>();
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
    this.account(accountId);
  }

  /** The account's live handle for the fast path (opened, empty, when new). */
  account(accountId: string): LedgerAccount {
    let a = this.books.get(accountId);
    if (!a) this.books.set(accountId, (a = { id: accountId, slots: new Map() }));
    return a;
  }

  /** Live balances of an account (asset → units); empty when unknown. */
  balancesOf(accountId: string): ReadonlyMap<string, Readonly<BalanceUnits>> {
    return this.books.get(accountId)?.slots ?? EMPTY;
  }

  balance(accountId: string, asset: string): Readonly<BalanceUnits> {
    return this.books.get(accountId)?.slots.get(asset) ?? ZERO_BALANCE;
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
    const book = this.books.get(accountId)?.slots;
    if (!book) return out;
    for (const asset of [...book.keys()].sort()) {
      const b = book.get(asset)!;
      const free = b.free;
      const locked = b.locked;
      if (!includeZero && free === 0n && locked === 0n) continue;
      out.push({ asset, free: unitsToDecimal(free, this.scale), locked: unitsToDecimal(locked, this.scale) });
    }
    return out;
  }

  // ------------------------------------------------------------------ grains (fast path set-up)

  /**
   * Registers a unit the fast path will count in and returns its live measure. The asset's grain
   * becomes gcd(grain, units); when that makes it finer, every balance and fee total of the asset is
   * folded into its bigint part first (exact, O(balances of the asset), once per new unit).
   */
  measure(asset: string, units: bigint): LedgerMeasure {
    if (units <= 0n) throw new RangeError(`measure units must be positive, got ${units}`);
    const g = this.grainOf(asset);
    let m = g.measures.get(units);
    if (m) return m;
    m = { asset, units, grains: NaN };
    g.measures.set(units, m);
    const next = g.grain === 0n ? units : gcd(g.grain, units);
    if (next !== g.grain) {
      for (const s of g.slots) {
        // Through the setters: re-expresses each slot in the new grain.
        s.free = s.free; // oxlint-disable-line no-self-assign
        s.locked = s.locked; // oxlint-disable-line no-self-assign
      }
      for (const a of g.accs) a.addBig(0n);
      g.grain = next;
      for (const s of g.slots) {
        s.fbg = capDiv(s.fb, next);
        s.lbg = capDiv(s.lb, next);
      }
      for (const x of g.measures.values()) x.grains = grainsPer(x.units, next);
    } else {
      m.grains = grainsPer(units, next);
    }
    return m;
  }

  // ------------------------------------------------------------------ bigint flows

  deposit(accountId: string, asset: string, units: bigint): void {
    if (units <= 0n) throw new RangeError(`deposit must be positive, got ${units}`);
    const b = this.slot(accountId, asset);
    b.free = b.free + units;
    this.total(asset).deposited += units;
    this.changed(accountId, asset, b, 'deposit');
  }

  /** False (and nothing changes) when the free balance is short. */
  withdraw(accountId: string, asset: string, units: bigint): boolean {
    if (units <= 0n) throw new RangeError(`withdrawal must be positive, got ${units}`);
    const b = this.books.get(accountId)?.slots.get(asset);
    if (!b) return false;
    const free = b.free;
    if (free < units) return false;
    b.free = free - units;
    this.total(asset).withdrawn += units;
    this.changed(accountId, asset, b, 'withdrawal');
    return true;
  }

  /** Moves free → locked; false (and nothing changes) when the free balance is short. */
  lock(accountId: string, asset: string, units: bigint): boolean {
    if (units < 0n) throw new RangeError(`lock must not be negative, got ${units}`);
    if (units === 0n) return true;
    const b = this.books.get(accountId)?.slots.get(asset);
    if (!b) return false;
    const free = b.free;
    if (free < units) return false;
    b.free = free - units;
    b.locked = b.locked + units;
    this.changed(accountId, asset, b, 'lock');
    return true;
  }

  /** Moves locked → free. Throws when more is released than is locked (an engine bug). */
  unlock(accountId: string, asset: string, units: bigint): void {
    if (units < 0n) throw new RangeError(`unlock must not be negative, got ${units}`);
    if (units === 0n) return;
    const b = this.books.get(accountId)?.slots.get(asset);
    const locked = b?.locked ?? 0n;
    if (!b || locked < units) throw new Error(`ledger: ${accountId} unlocks ${units} ${asset} but has ${locked} locked`);
    b.locked = locked - units;
    b.free = b.free + units;
    this.changed(accountId, asset, b, 'unlock');
  }

  settleTrade(t: TradeSettlement): void {
    const buyerQuote = this.books.get(t.buyer)?.slots.get(t.quoteAsset);
    const sellerBase = this.books.get(t.seller)?.slots.get(t.baseAsset);
    if (!buyerQuote || buyerQuote.locked < t.buyerLockedQuote) {
      throw new Error(`ledger: buyer ${t.buyer} has ${buyerQuote?.locked ?? 0n} ${t.quoteAsset} locked, fill needs ${t.buyerLockedQuote}`);
    }
    if (!sellerBase || sellerBase.locked < t.baseUnits) {
      throw new Error(`ledger: seller ${t.seller} has ${sellerBase?.locked ?? 0n} ${t.baseAsset} locked, fill needs ${t.baseUnits}`);
    }
    if (t.buyerLockedQuote < t.quoteUnits)
      throw new Error(`ledger: buyer pays ${t.quoteUnits} from a reservation of ${t.buyerLockedQuote}`);
    if (t.buyerFee > t.baseUnits || t.sellerFee > t.quoteUnits || t.buyerFee < 0n || t.sellerFee < 0n)
      throw new Error('ledger: fee outside [0, amount received]');

    buyerQuote.locked = buyerQuote.locked - t.buyerLockedQuote;
    buyerQuote.free = buyerQuote.free + (t.buyerLockedQuote - t.quoteUnits);
    sellerBase.locked = sellerBase.locked - t.baseUnits;
    const buyerBase = this.slot(t.buyer, t.baseAsset);
    buyerBase.free = buyerBase.free + (t.baseUnits - t.buyerFee);
    const sellerQuote = this.slot(t.seller, t.quoteAsset);
    sellerQuote.free = sellerQuote.free + (t.quoteUnits - t.sellerFee);
    if (t.buyerFee > 0n) {
      this.feeTotal(t.baseAsset, buyerBase).addBig(t.buyerFee);
      this.feeAcc(t.buyer, t.baseAsset, buyerBase).addBig(t.buyerFee);
    }
    if (t.sellerFee > 0n) {
      this.feeTotal(t.quoteAsset, sellerQuote).addBig(t.sellerFee);
      this.feeAcc(t.seller, t.quoteAsset, sellerQuote).addBig(t.sellerFee);
    }

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
    const b = this.books.get(accountId)?.slots.get(asset);
    if (!b) return false;
    const free = b.free;
    if (free < units) return false;
    b.free = free - units;
    this.feeTotal(asset, b).addBig(units);
    this.feeAcc(accountId, asset, b).addBig(units);
    this.changed(accountId, asset, b, 'trade');
    return true;
  }

  // ------------------------------------------------------------------ fast flows (grains)

  /**
   * lock() of `grains` grains of the asset (0 ≤ grains ≤ MAX_GRAINS, an integer; the caller got it as
   * count × measure.grains). Same result, same listener calls.
   */
  lockGrains(account: LedgerAccount, asset: string, grains: number): boolean {
    if (grains === 0) return true;
    const b = account.slots.get(asset);
    if (b === undefined || b.fbg + b.ff < grains) return false;
    b.ff -= grains;
    b.lf += grains;
    b.bound();
    this.changed(account.id, asset, b, 'lock');
    return true;
  }

  /** unlock() of `grains` grains; throws like unlock() when less is locked. */
  unlockGrains(account: LedgerAccount, asset: string, grains: number): void {
    if (grains === 0) return;
    const b = account.slots.get(asset);
    if (b === undefined || b.lbg + b.lf < grains) {
      const g = b?.g.grain ?? this.grains.get(asset)?.grain ?? 0n;
      throw new Error(`ledger: ${account.id} unlocks ${BigInt(grains) * g} ${asset} but has ${b?.locked ?? 0n} locked`);
    }
    b.lf -= grains;
    b.ff += grains;
    b.bound();
    this.changed(account.id, asset, b, 'unlock');
  }

  /** settleTrade() with every amount in grains of its asset (each within [0, MAX_GRAINS]). */
  settleGrains(t: Readonly<GrainSettlement>): void {
    const buyerQuote = t.buyer.slots.get(t.quoteAsset);
    const sellerBase = t.seller.slots.get(t.baseAsset);
    if (
      buyerQuote === undefined ||
      buyerQuote.lbg + buyerQuote.lf < t.buyerLockedQuote ||
      sellerBase === undefined ||
      sellerBase.lbg + sellerBase.lf < t.base
    ) {
      // The bigint path words the error (and never gets past its checks here).
      return this.settleTrade(this.unitsOf(t));
    }
    if (t.buyerLockedQuote < t.quote) throw new Error(`ledger: buyer pays ${t.quote} grains from a reservation of ${t.buyerLockedQuote}`);
    if (t.buyerFee > t.base || t.sellerFee > t.quote || t.buyerFee < 0 || t.sellerFee < 0)
      throw new Error('ledger: fee outside [0, amount received]');

    buyerQuote.lf -= t.buyerLockedQuote;
    buyerQuote.ff += t.buyerLockedQuote - t.quote;
    buyerQuote.bound();
    sellerBase.lf -= t.base;
    sellerBase.bound();
    const buyer = t.buyer.id;
    const seller = t.seller.id;
    const buyerBase = t.buyer.slots.get(t.baseAsset) ?? this.slot(buyer, t.baseAsset);
    buyerBase.ff += t.base - t.buyerFee;
    buyerBase.bound();
    const sellerQuote = t.seller.slots.get(t.quoteAsset) ?? this.slot(seller, t.quoteAsset);
    sellerQuote.ff += t.quote - t.sellerFee;
    sellerQuote.bound();
    if (t.buyerFee > 0) {
      this.feeTotal(t.baseAsset, buyerBase).addGrains(t.buyerFee);
      this.feeAcc(buyer, t.baseAsset, buyerBase).addGrains(t.buyerFee);
    }
    if (t.sellerFee > 0) {
      this.feeTotal(t.quoteAsset, sellerQuote).addGrains(t.sellerFee);
      this.feeAcc(seller, t.quoteAsset, sellerQuote).addGrains(t.sellerFee);
    }

    const l = this.listener;
    if (l !== undefined) {
      l(buyer, t.quoteAsset, buyerQuote, 'trade');
      l(seller, t.baseAsset, sellerBase, 'trade');
      if (buyerBase !== sellerBase) l(buyer, t.baseAsset, buyerBase, 'trade');
      if (sellerQuote !== buyerQuote) l(seller, t.quoteAsset, sellerQuote, 'trade');
    }
  }

  // ------------------------------------------------------------------ totals and checks

  /** Fees the venue has collected in `asset`. */
  feesCollected(asset: string): bigint {
    return this.totals.get(asset)?.fees.value ?? 0n;
  }

  /** Fees `accountId` has paid in `asset`. */
  feesPaid(accountId: string, asset: string): bigint {
    return this.paid.get(accountId)?.get(asset)?.value ?? 0n;
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
      for (const [asset, b] of book.slots) {
        const free = b.free;
        const locked = b.locked;
        if (free < 0n) problems.push(`${account} ${asset} free is negative (${free})`);
        if (locked < 0n) problems.push(`${account} ${asset} locked is negative (${locked})`);
        held.set(asset, (held.get(asset) ?? 0n) + free + locked);
        // The fast path relies on these (see Slot); they hold whenever the balance is not negative.
        if (b.fb < 0n || b.lb < 0n) problems.push(`${account} ${asset}: negative bigint part`);
        if (b.fbg !== capDiv(b.fb, b.g.grain) || b.lbg !== capDiv(b.lb, b.g.grain)) problems.push(`${account} ${asset}: stale grain cache`);
      }
    }
    const assets = new Set([...held.keys(), ...this.totals.keys()]);
    for (const asset of assets) {
      const t = this.totals.get(asset);
      const fees = t?.fees.value ?? 0n;
      const lhs = (held.get(asset) ?? 0n) + fees - (t?.deposited ?? 0n) + (t?.withdrawn ?? 0n);
      if (lhs !== 0n) problems.push(`${asset} not conserved: Σ balances + fees − deposits + withdrawals = ${lhs}`);
      let paid = 0n;
      for (const m of this.paid.values()) paid += m.get(asset)?.value ?? 0n;
      if (paid !== fees) problems.push(`${asset}: fees paid by accounts ${paid} != fees collected ${fees}`);
    }
    return problems;
  }

  private unitsOf(t: Readonly<GrainSettlement>): TradeSettlement {
    const bg = this.grainOf(t.baseAsset).grain;
    const qg = this.grainOf(t.quoteAsset).grain;
    return {
      buyer: t.buyer.id,
      seller: t.seller.id,
      baseAsset: t.baseAsset,
      quoteAsset: t.quoteAsset,
      baseUnits: BigInt(t.base) * bg,
      quoteUnits: BigInt(t.quote) * qg,
      buyerLockedQuote: BigInt(t.buyerLockedQuote) * qg,
      buyerFee: BigInt(t.buyerFee) * bg,
      sellerFee: BigInt(t.sellerFee) * qg,
    };
  }

  private feeTotal(asset: string, b: Slot): Acc {
    return b.g.fees ?? this.total(asset).fees;
  }

  private feeAcc(accountId: string, asset: string, b: Slot): Acc {
    if (b.paid !== undefined) return b.paid;
    const g = b.g;
    let m = this.paid.get(accountId);
    if (!m) this.paid.set(accountId, (m = new Map()));
    let a = m.get(asset);
    if (!a) {
      m.set(asset, (a = new Acc(g)));
      g.accs.push(a);
    }
    b.paid = a;
    return a;
  }

  private grainOf(asset: string): AssetGrain {
    let g = this.grains.get(asset);
    if (!g) this.grains.set(asset, (g = new AssetGrain()));
    return g;
  }

  private slot(accountId: string, asset: string): Slot {
    const book = this.account(accountId).slots;
    let b = book.get(asset);
    if (!b) {
      const g = this.grainOf(asset);
      book.set(asset, (b = new Slot(g)));
      g.slots.push(b);
      this.total(asset);
    }
    return b;
  }

  private total(asset: string): AssetTotals {
    let t = this.totals.get(asset);
    if (!t) {
      const g = this.grainOf(asset);
      const fees = new Acc(g);
      g.accs.push(fees);
      g.fees = fees;
      this.totals.set(asset, (t = { deposited: 0n, withdrawn: 0n, fees }));
    }
    return t;
  }

  private changed(accountId: string, asset: string, b: BalanceUnits, reason: BalanceChangeReason): void {
    if (this.listener !== undefined) this.listener(accountId, asset, b, reason);
  }
}

/** units / grain as a number when one count stays far inside the fast range; NaN otherwise. */
function grainsPer(units: bigint, grain: bigint): number {
  const k = units / grain;
  return k <= 2n ** 40n ? Number(k) : NaN;
}

const EMPTY: ReadonlyMap<string, BalanceUnits> = new Map();
const ZERO_BALANCE: Readonly<BalanceUnits> = Object.freeze({ free: 0n, locked: 0n });
