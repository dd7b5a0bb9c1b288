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
import type { ContractPosition } from './contract-position.js';
import type { Wallet } from './contract-state.js';
import { LEDGER_SCALE } from '../ledger/ledger-units.js';
import { lastCall } from '../../core/last-call.js';

const UNITS_PER_COIN = 10 ** LEDGER_SCALE;

/** Relative slack below which the exact test decides. */
const MARGIN = 1e-9;

/** An account's positions (its Map, or a list in tests), in a stable order. */
type Positions = ReadonlyMap<unknown, ContractPosition> | readonly ContractPosition[];

/** One cross position's inputs as the bound last read them (rewritten in place when the bound is redone). */
interface Input {
  pos: ContractPosition;
  lots: number;
  cost: bigint;
  /** The margin cell's state (units, or its Decimal when not whole units). */
  imUnits: bigint;
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
  freeUnits: bigint;
  freeDec: Decimal | undefined;
  frozen: bigint;
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
      b ??= { symbol, freeUnits: 0n, freeDec: undefined, frozen: 0n, inputs: [], a: 0, b: 0, scaleA: 0, scaleB: 0 };
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
  if (b.symbol !== symbol || b.freeDec !== free.dec) return false;
  if ((b.freeUnits !== free.units || b.frozen !== wallet.frozenUnits) && !sameFunds(b, free.units, wallet.frozenUnits, free.dec))
    return false;
  let i = 0;
  for (const p of positions.values()) {
    if (!isCrossIn(p, wallet.currency)) continue;
    const x = b.inputs[i++];
    if (x === undefined || x.pos !== p || x.lots !== p.holdLots || x.cost !== p.holdCost) return false;
    if (x.imUnits !== p.imCell.units || x.imDec !== p.imCell.dec) return false;
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
function sameFunds(b: Bound, free: bigint, frozen: bigint, freeDec: Decimal | undefined): boolean {
  // With the same frozen a changed free is a changed sum (no bigint sums: each allocates).
  if (freeDec !== undefined || frozen === b.frozen || free < 0n || b.freeUnits < 0n || free + frozen !== b.freeUnits + b.frozen)
    return false;
  b.freeUnits = free;
  b.frozen = frozen;
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
  const free = wallet.freeCell.toNumber();
  const frozen = Number(wallet.frozenUnits) / UNITS_PER_COIN;
  let a = free + frozen;
  let scaleA = Math.abs(free) + Math.abs(frozen);
  let b = 0;
  let scaleB = 0;
  const inputs = bound.inputs;
  let n = 0;
  for (const p of positions.values()) {
    if (!isCrossIn(p, wallet.currency)) continue;
    const s = p.isLong ? 1 : -1;
    const q = p.holdLots * p.spec.lotQtyNumber;
    const c = Number(p.holdCost) * p.spec.unitValueNumber;
    const im = p.imCell.toNumber();
    const mmr = numberOf(mmrOf(p));
    a += im;
    scaleA += Math.abs(im) + Math.abs(c);
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
    if (x === undefined) inputs.push({ pos: p, lots: p.holdLots, cost: p.holdCost, imUnits: p.imCell.units, imDec: p.imCell.dec, mark });
    else {
      x.pos = p;
      x.lots = p.holdLots;
      x.cost = p.holdCost;
      x.imUnits = p.imCell.units;
      x.imDec = p.imCell.dec;
      x.mark = mark;
    }
  }
  // Only when it changed: writing an array's length, even the same one, takes a slow path (0.4 % of a cycle).
  if (inputs.length !== n) inputs.length = n;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  const cell = wallet.freeCell;
  bound.symbol = symbol;
  bound.freeUnits = cell.units;
  bound.freeDec = cell.dec;
  bound.frozen = wallet.frozenUnits;
  bound.a = a;
  bound.b = b;
  bound.scaleA = scaleA;
  bound.scaleB = scaleB;
  return true;
}
