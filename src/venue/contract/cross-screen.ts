/**
 * A float screen in front of the exact cross-margin breach test (issue 12's "cross accounts re-checked
 * from equity deltas", issue 13's kline backtests: the simulated venue's crowd accounts hold cross
 * positions, so every fair-price update re-summed every crowd account in Decimals).
 *
 * With everything but the fair price F of one market fixed, the cross test of liquidation-rules
 * (breach ⇔ free + frozen + Σ (im + unrealised(mark)) ≤ Σ mmr·Q·mark) is linear in F:
 *
 *   equity − maintenance = A + B·F,  A = free + frozen + Σ im − Σ_{in F's market} s·C
 *                                        + Σ_{other markets} (s·(Q·mark − C) − mmr·Q·mark),
 *                                    B = Σ_{in F's market} Q·(s − mmr)          (s = +1 long, −1 short)
 *
 * The screen keeps A and B as doubles per wallet (an account's settle coin), recomputed only when an
 * input changes: the wallet's free and frozen, each cross position's lots, cost and margin (the tier
 * rate follows the lots), another market's mark. Decimals and bigints are immutable values, so a
 * reference (or value) comparison says whether an input changed. It answers "surely safe" only when
 * A + B·F exceeds 1e-9 of the sum of the magnitudes that went into it, far beyond the rounding of a
 * double (~1e-16 per term) or of a 40-digit Decimal; every other case goes to the exact test, so the
 * venue decides exactly as before.
 */
import type { Decimal } from '../../core/decimal.js';
import { OpenType } from '../../domain/contract-enums.js';
import type { ContractPosition, TickLots } from './contract-position.js';
import type { Wallet } from './contract-state.js';
import type { MoneyCell } from './money-cell.js';
import { lastCall } from '../../core/last-call.js';

/** Relative slack below which the exact test decides. */
const MARGIN = 1e-9;

/** An account's positions (its Map, or a list in tests), in a stable order. */
type Positions = ReadonlyMap<unknown, ContractPosition> | readonly ContractPosition[];

/** One cross position's inputs as the bound last read them (rewritten in place when the bound is redone). */
interface Input {
  pos: ContractPosition;
  lots: number;
  cost: TickLots;
  /** The margin cell's state (its two parts, or its Decimal when not whole units). */
  imBig: bigint;
  imFast: number;
  imGrain: number;
  imDec: Decimal | undefined;
  /** The mark used for a position of another market (undefined for the screened market). */
  mark: Decimal | undefined;
}

/**
 * A wallet's bound. Redone in place whenever an input changed (after every fill of the account), so
 * it and its inputs are reused rather than rebuilt: this screen runs for each holder after each match.
 */
interface Bound {
  symbol: string;
  /** The wallet's free and frozen cells as last read: their parts (MoneyCell). */
  freeBig: bigint;
  freeFast: number;
  freeGrain: number;
  freeDec: Decimal | undefined;
  frozenBig: bigint;
  frozenFast: number;
  frozenGrain: number;
  /** The free balance read was ≥ 0 (sameFunds' condition). */
  freeNonNegative: boolean;
  readonly inputs: Input[];
  a: number;
  b: number;
  /** Σ |terms of A| and Σ |coefficients of F|: the scale the slack is taken of. */
  scaleA: number;
  scaleB: number;
}

export class CrossScreen {
  private readonly bounds = new WeakMap<Wallet, Bound>();

  /**
   * True only when the cross positions of `wallet`'s account in its currency are certainly not
   * breached with `fair` (a double) as the mark of `symbol`. `positions` are the account's positions
   * (all of them, in a stable order: the screen picks the cross ones settled in the wallet's currency); `markOf` gives the
   * mark of another market (undefined: no screen); `mmrOf` the maintenance rate of a position's tier.
   */
  surelySafe(
    wallet: Wallet,
    symbol: string,
    fair: number,
    positions: Positions,
    markOf: (p: ContractPosition) => Decimal | undefined,
    mmrOf: (p: ContractPosition) => Decimal,
  ): boolean {
    let b = this.bounds.get(wallet);
    if (b === undefined || !unchanged(b, wallet, symbol, positions, markOf)) {
      const fresh = b === undefined;
      b ??= {
        symbol,
        freeBig: 0n,
        freeFast: 0,
        freeGrain: 0,
        freeDec: undefined,
        frozenBig: 0n,
        frozenFast: 0,
        frozenGrain: 0,
        freeNonNegative: false,
        inputs: [],
        a: 0,
        b: 0,
        scaleA: 0,
        scaleB: 0,
      };
      if (!redo(b, wallet, symbol, positions, markOf, mmrOf)) {
        this.bounds.delete(wallet);
        return false;
      }
      if (fresh) this.bounds.set(wallet, b);
    }
    return b.a + b.b * fair > MARGIN * (b.scaleA + b.scaleB * fair);
  }
}

const isCrossIn = (p: ContractPosition, currency: string): boolean => p.openType === OpenType.CROSS && p.spec.settleCoin === currency;

function unchanged(
  b: Bound,
  wallet: Wallet,
  symbol: string,
  positions: Positions,
  markOf: (p: ContractPosition) => Decimal | undefined,
): boolean {
  const free = wallet.freeCell;
  const frozen = wallet.frozenCell;
  if (b.symbol !== symbol || b.freeDec !== free.dec) return false;
  if (
    (b.freeBig !== free.big ||
      b.freeFast !== free.fast ||
      b.freeGrain !== free.grain ||
      b.frozenBig !== frozen.big ||
      b.frozenFast !== frozen.fast ||
      b.frozenGrain !== frozen.grain ||
      frozen.dec !== undefined) &&
    !sameFunds(b, free, frozen)
  )
    return false;
  let i = 0;
  for (const p of positions.values()) {
    if (!isCrossIn(p, wallet.currency)) continue;
    const x = b.inputs[i++];
    if (x === undefined || x.pos !== p || x.lots !== p.holdLots || x.cost !== p.holdTickLots) return false;
    const im = p.imCell;
    if (x.imBig !== im.big || x.imFast !== im.fast || x.imGrain !== im.grain || x.imDec !== im.dec) return false;
    if (p.spec.symbol !== symbol && x.mark !== markOf(p)) return false;
  }
  return i === b.inputs.length;
}

/**
 * Whether the wallet's free + frozen is the bound's, both parts ≥ 0 and in units; then the bound is
 * taken to have read this free and frozen. Why: an order that rests moves its margin from free to
 * frozen, which changes neither A (free + frozen) nor the scale the slack is taken of (|free| + |frozen|
 * with both ≥ 0), so the bound already computed stands exactly as a recomputed one would (the same
 * terms, the same rounding bound); the check after each resting placement redid it (one of the three
 * redos of a maker+taker cycle).
 */
function sameFunds(b: Bound, free: MoneyCell, frozen: MoneyCell): boolean {
  // Compared in the cells' double parts: the same bigint parts and one grain throughout, the double
  // parts' sums equal (each within ±2^52, so their sums are exact). Any other change is redone.
  const g = free.grain;
  if (
    free.dec !== undefined ||
    frozen.dec !== undefined ||
    free.big !== b.freeBig ||
    frozen.big !== b.frozenBig ||
    frozen.grain !== g ||
    b.freeGrain !== g ||
    b.frozenGrain !== g ||
    frozen.fast === b.frozenFast ||
    free.fast + frozen.fast !== b.freeFast + b.frozenFast ||
    free.isNegative() ||
    !b.freeNonNegative
  )
    return false;
  b.freeFast = free.fast;
  b.frozenFast = frozen.fast;
  return true;
}

const asNumbers = new WeakMap<Decimal, number>();

/** A tier's rate as a double (the rates are a few long-lived Decimals; one contract's positions share one, asked after every fill). */
const numberOf = lastCall((v: Decimal): number => {
  let n = asNumbers.get(v);
  if (n === undefined) asNumbers.set(v, (n = v.toNumber()));
  return n;
});

/** Recomputes `bound` from the wallet and positions; false when there is no screen (a mark missing, a sum not finite). */
function redo(
  bound: Bound,
  wallet: Wallet,
  symbol: string,
  positions: Positions,
  markOf: (p: ContractPosition) => Decimal | undefined,
  mmrOf: (p: ContractPosition) => Decimal,
): boolean {
  // Each cell within 2^-52 of its magnitude (MoneyCell.toNumber), which the scale takes.
  const free = wallet.freeCell.toNumber();
  const frozen = wallet.frozenCell.toNumber();
  let a = free + frozen;
  let scaleA = wallet.freeCell.magnitude() + wallet.frozenCell.magnitude();
  let b = 0;
  let scaleB = 0;
  const inputs = bound.inputs;
  let n = 0;
  for (const p of positions.values()) {
    if (!isCrossIn(p, wallet.currency)) continue;
    const s = p.isLong ? 1 : -1;
    const q = p.holdLots * p.spec.lotQtyNumber;
    const c = p.holdCostNumber * p.spec.unitValueNumber;
    const im = p.imCell.toNumber();
    const mmr = numberOf(mmrOf(p));
    a += im;
    scaleA += p.imCell.magnitude() + Math.abs(c);
    let mark: Decimal | undefined;
    if (p.spec.symbol === symbol) {
      a -= s * c;
      b += q * (s - mmr);
      scaleB += q * (1 + mmr);
    } else {
      mark = markOf(p);
      if (mark === undefined) return false;
      const value = q * mark.toNumber();
      a += s * value - s * c - mmr * value;
      scaleA += value * (1 + mmr);
    }
    const x = inputs[n++];
    const imCell = p.imCell;
    if (x === undefined)
      inputs.push({
        pos: p,
        lots: p.holdLots,
        cost: p.holdTickLots,
        imBig: imCell.big,
        imFast: imCell.fast,
        imGrain: imCell.grain,
        imDec: imCell.dec,
        mark,
      });
    else {
      x.pos = p;
      x.lots = p.holdLots;
      x.cost = p.holdTickLots;
      x.imBig = imCell.big;
      x.imFast = imCell.fast;
      x.imGrain = imCell.grain;
      x.imDec = imCell.dec;
      x.mark = mark;
    }
  }
  // Only when it changed: writing an array's length, even the same one, takes a slow path (0.4 % of a cycle).
  if (inputs.length !== n) inputs.length = n;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  const cell = wallet.freeCell;
  const frozenCell = wallet.frozenCell;
  bound.symbol = symbol;
  bound.freeBig = cell.big;
  bound.freeFast = cell.fast;
  bound.freeGrain = cell.grain;
  bound.freeDec = cell.dec;
  bound.freeNonNegative = cell.dec === undefined && !cell.isNegative();
  bound.frozenBig = frozenCell.big;
  bound.frozenFast = frozenCell.fast;
  bound.frozenGrain = frozenCell.grain;
  bound.a = a;
  bound.b = b;
  bound.scaleA = scaleA;
  bound.scaleB = scaleB;
  return true;
}
