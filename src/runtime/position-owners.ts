/**
 * Whose position is it? A contract position leg belongs to the one strategy that trades its symbol;
 * when several do, to the one of them whose book holds that leg; otherwise ownership is ambiguous and
 * nobody gets it (a venue fill or a difference is then booked on the account only, with a warning).
 *
 * ownerAdjustments() turns a difference between the strategies' books and the venue that no fill
 * explains into the owner's PositionAdjusted (journaled by the runtime): the owner takes the whole
 * difference, of any sign and size, so the strategies' books add up to the venue again.
 */
import { ZERO } from '../core/decimal.js';
import type { InstrumentSymbol, StrategyId } from '../core/ids.js';
import type { PositionAdjusted } from '../domain/execution-event.js';
import { type Position, type PositionLeg, positionKey } from '../domain/position.js';

export interface OwnerView {
  /** Strategies and the symbols each trades (config). */
  readonly strategies: readonly { readonly id: StrategyId; readonly instruments: readonly InstrumentSymbol[] }[];
  /** A strategy's position on a leg (its own book). */
  position(strategyId: StrategyId, symbol: InstrumentSymbol, leg: PositionLeg): Position | undefined;
}

export function positionOwner(view: OwnerView, symbol: InstrumentSymbol, leg: PositionLeg): StrategyId | undefined {
  const traders = view.strategies.filter((s) => s.instruments.includes(symbol));
  if (traders.length === 1) return traders[0]!.id;
  const holders = traders.filter((s) => !(view.position(s.id, symbol, leg)?.quantity.isZero() ?? true));
  return holders.length === 1 ? holders[0]!.id : undefined;
}

export interface OwnerAdjustments {
  readonly adjustments: PositionAdjusted[];
  /** Differences no strategy could be given (ambiguous or no strategy trades the symbol), as text. */
  readonly unattributed: string[];
}

/**
 * For each leg of `symbols` (or only `keys`, when given) where the strategies' books do not add up to
 * the venue's position: the owner's adjustment, or a line in `unattributed`.
 */
export function ownerAdjustments(
  view: OwnerView,
  venue: readonly Position[],
  symbols: readonly InstrumentSymbol[],
  now: number,
  reason: string,
  keys?: ReadonlySet<string>,
): OwnerAdjustments {
  const inScope = new Set<string>(symbols);
  const legs = new Map<string, { symbol: InstrumentSymbol; leg: PositionLeg }>();
  for (const p of venue) if (inScope.has(p.symbol)) legs.set(positionKey(p.symbol, p.leg), { symbol: p.symbol, leg: p.leg });
  for (const s of view.strategies) {
    for (const symbol of s.instruments) {
      if (!inScope.has(symbol)) continue;
      for (const leg of ['net', 'long', 'short'] as const) {
        const p = view.position(s.id, symbol, leg);
        if (p && !p.quantity.isZero()) legs.set(positionKey(symbol, leg), { symbol, leg });
      }
    }
  }
  const adjustments: PositionAdjusted[] = [];
  const unattributed: string[] = [];
  for (const [key, { symbol, leg }] of [...legs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (keys && !keys.has(key)) continue;
    const theirs = venue.find((p) => p.symbol === symbol && p.leg === leg);
    const venueQty = theirs?.quantity ?? ZERO;
    const ours = view.strategies.reduce((sum, s) => sum.plus(view.position(s.id, symbol, leg)?.quantity ?? ZERO), ZERO);
    if (ours.eq(venueQty)) continue;
    const owner = positionOwner(view, symbol, leg);
    if (owner === undefined) {
      unattributed.push(`${symbol} ${leg}: strategies hold ${ours.toFixed()}, the venue ${venueQty.toFixed()}; no single strategy owns it`);
      continue;
    }
    const mine = view.position(owner, symbol, leg);
    const from = mine?.quantity ?? ZERO;
    const to = from.plus(venueQty.minus(ours));
    // Holding the venue's whole position, the owner takes its entry price too; a share keeps its own.
    const base = mine ?? theirs;
    if (!base) continue;
    const entryPrice = to.eq(venueQty) && theirs ? theirs.entryPrice : to.isZero() ? ZERO : base.entryPrice;
    const position: Position = { ...base, quantity: to, entryPrice, updatedAt: now };
    const head = { type: 'PositionAdjusted' as const, ts: now, strategyId: owner, symbol, leg };
    adjustments.push({ ...head, fromQuantity: from, toQuantity: to, position, reason });
  }
  return { adjustments, unattributed };
}
