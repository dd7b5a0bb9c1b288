/*
 * Frozen copy (issue 12) of src/venue/contract/liquidation-rules.ts as it was before the venue's money became integer
 * units: the reference model (contract-venue-reference.ts) keeps the Decimal state it was written against.
 */
/**
 * Pure decisions of the liquidation engine; the venue applies them.
 *
 * Isolated: breach when im + unrealised(fair) ≤ mmr·Q·fair (margin-math). The insurance fund takes the
 * position over at the bankruptcy price rounded to the tick towards the account (long up, short
 * down), so the account's loss never exceeds im; the rounding remainder is the fund's fee.
 *
 * Cross: breach when free + frozen + Σ_cross (im + unrealised(mark)) ≤ Σ_cross mmr·Q·mark. The fund
 * takes every cross position over at the mark (to the nearest tick); of what the account has left,
 * up to the maintenance margin goes to the fund, and a negative remainder is covered by it.
 */
import { Decimal } from '../../src/core/decimal.js';
import type { ContractPosition } from './reference-contract-position.js';
import type { ContractSpec } from '../../src/venue/contract/contract-spec.js';
import { bankruptcyPrice, initialMargin, maintenanceMargin, unrealisedPnl, floorMoney } from '../../src/venue/contract/margin-math.js';

const ZERO = new Decimal(0);

/** The tick an isolated position is taken over at: bankruptcy rounded towards the account, at least 1. */
export function bankruptcyCloseTicks(pos: ContractPosition): number {
  const ticks = pos.spec.priceToTicks(bankruptcyPrice(pos.figures()), pos.isLong ? 'up' : 'down');
  return Math.max(1, ticks);
}

/** The tick a cross position is taken over at: the mark to the nearest tick, at least 1. */
export function markCloseTicks(spec: ContractSpec, mark: Decimal): number {
  return Math.max(1, spec.priceToTicks(mark, 'nearest'));
}

export interface CrossMargin {
  /** free + frozen + Σ (im + unrealised). */
  readonly equity: Decimal;
  /** Σ maintenance margin. */
  readonly maintenance: Decimal;
  readonly positions: number;
}

/** Cross-margin balance of one account and settle coin. */
export function crossMargin(
  positions: Iterable<ContractPosition>,
  free: Decimal,
  frozen: Decimal,
  markOf: (p: ContractPosition) => Decimal,
  mmrOf: (p: ContractPosition) => Decimal,
): CrossMargin {
  let equity = free.add(frozen);
  let maintenance = ZERO;
  let n = 0;
  for (const p of positions) {
    const mark = markOf(p);
    equity = equity.add(p.im).add(unrealisedPnl(p.figures(), mark));
    maintenance = maintenance.add(maintenanceMargin(p.qty, mark, mmrOf(p)));
    n++;
  }
  return { equity, maintenance, positions: n };
}

export const isCrossBreached = (c: CrossMargin): boolean => c.positions > 0 && c.equity.lte(c.maintenance);

/**
 * Automatic top-up of an isolated position: enough to bring im + unrealised back to the initial
 * margin at the fair price, limited by what the account has available. Zero when nothing is needed.
 */
export function autoAddAmount(pos: ContractPosition, fair: Decimal, available: Decimal, scale: number): Decimal {
  const target = initialMargin(pos.qty.mul(fair), pos.leverage, scale, 'ceil');
  const balance = pos.im.add(unrealisedPnl(pos.figures(), fair));
  const add = Decimal.min(available, target.sub(balance));
  return add.gt(0) ? add : ZERO;
}

/** What a liquidated cross account pays the fund (fee) or the fund pays for it (cover). */
export function crossSettlement(freeAfterClose: Decimal, maintenance: Decimal): { fee: Decimal; cover: Decimal } {
  if (freeAfterClose.lt(0)) return { fee: ZERO, cover: freeAfterClose.neg() };
  return { fee: Decimal.min(freeAfterClose, maintenance), cover: ZERO };
}

/** Splits `total` over weights (floored to `scale`, the last part takes the rest) so the parts add up exactly. */
export function splitByWeight(total: Decimal, weights: readonly Decimal[], scale: number): Decimal[] {
  const sum = weights.reduce((s, w) => s.add(w), ZERO);
  const out: Decimal[] = [];
  let left = total;
  weights.forEach((w, i) => {
    const part = i === weights.length - 1 || sum.isZero() ? left : floorMoney(total.mul(w).div(sum), scale);
    out.push(part);
    left = left.sub(part);
  });
  if (out.length > 0 && !left.isZero()) out[out.length - 1] = out[out.length - 1]!.add(left);
  return out;
}
