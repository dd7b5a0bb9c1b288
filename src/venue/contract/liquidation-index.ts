/**
 * Isolated positions by their liquidation edge, per contract and side (issue 12), so a fair-price
 * update finds the positions it may breach in O(k + 1) instead of screening every holder.
 *
 * The edge is the liquidation screen's (liquidation-screen.ts `edgeOf`: the liquidation price as a
 * double, widened by 1e-9), and a position is selected exactly when the screen would NOT call it surely
 * safe — a long when fair ≤ edge, a short when fair ≥ edge — so the selection is the set the old scan
 * sent to the exact test, and the exact Decimal test (margin-math `isBreached`) still decides.
 *
 * Keys follow the figures the edge depends on (lots, cost, margin; the tier rate follows the lots):
 * a position of an account liquidation watches (never-liquidated.ts) carries this index as its `watch` and reports every change of
 * them (ContractPosition's open, close, releaseMargin and im setter; the ledger reports its creation
 * and its closing), and the touched positions are
 * re-keyed in one pass before the next selection. The index also counts the open cross positions per
 * settle coin, so the liquidation engine knows when no cross check can be due.
 */
import { OpenType, PositionState } from '../../domain/contract-enums.js';
import type { ContractPosition, PositionWatch } from './contract-position.js';
import type { AccountState } from './contract-state.js';
import { edgeOf } from './liquidation-screen.js';
import { PriceLadder } from './price-ladder.js';
import { isLiquidatable } from './never-liquidated.js';

/**
 * On a position: whether its slot here is that of a counted open cross position (what rekey leaves as
 * it is). Under a symbol, so the emulator's snapshot (string keys) neither writes nor deletes it: a
 * restored position has none and goes through rekey once, which sets it.
 */
const COUNTED_CROSS = Symbol('counted cross position');

interface Counted {
  [COUNTED_CROSS]?: boolean;
}

/** What most updates select: nothing (shared, never written). */
const NONE: ReadonlySet<ContractPosition> = new Set();

/** Where a position is keyed. */
interface Slot {
  readonly ladder: PriceLadder<ContractPosition> | undefined;
  readonly key: number;
  /** Counted as an open cross position of its settle coin. */
  readonly cross: boolean;
}

/** The isolated positions of one contract: longs and shorts by edge. */
export class SideLadders {
  readonly longs = new PriceLadder<ContractPosition>();
  readonly shorts = new PriceLadder<ContractPosition>();
}

export class LiquidationIndex implements PositionWatch {
  private readonly touchedPositions = new Set<ContractPosition>();
  private readonly slots = new Map<ContractPosition, Slot>();
  private readonly bySymbol = new Map<string, SideLadders>();
  private readonly crossBySettleCoin = new Map<string, number>();

  touched(p: ContractPosition): void {
    // An open cross position already counted is left as it is by rekey, whatever its lots and margin:
    // the usual fill of a cross account tells this several times per position (a set insertion each).
    if ((p as Counted)[COUNTED_CROSS] === true && p.state === PositionState.HOLDING && p.openType === OpenType.CROSS) return;
    this.touchedPositions.add(p);
  }

  /** Whether an account liquidation watches holds an open cross position settled in `currency`. */
  hasCross(currency: string): boolean {
    this.rekey();
    return (this.crossBySettleCoin.get(currency) ?? 0) > 0;
  }

  /** The isolated positions of `symbol` the liquidation screen would send to the exact test at `fair`. */
  candidates(symbol: string, fair: number): ReadonlySet<ContractPosition> {
    this.rekey();
    const ladders = this.bySymbol.get(symbol);
    // A long is safe when fair > edge, a short when fair < edge (LiquidationScreen.surelySafe).
    if (ladders === undefined || (!ladders.longs.anyAtOrAbove(fair) && !ladders.shorts.anyAtOrBelow(fair))) return NONE;
    const out = new Set<ContractPosition>();
    const add = (p: ContractPosition): void => void out.add(p);
    ladders.longs.atOrAbove(fair, add);
    ladders.shorts.atOrBelow(fair, add);
    return out;
  }

  /**
   * The index's consistency (one line per problem), for the venue's invariant checks: every open
   * isolated position with lots of an account liquidation watches sits in its contract's ladder of its side at
   * its current edge, nothing else does, and the cross counts are those of a scan.
   */
  problems(accounts: Iterable<AccountState>): string[] {
    this.rekey();
    const out: string[] = [];
    const cross = new Map<string, number>();
    let isolated = 0;
    for (const acct of accounts) {
      if (!isLiquidatable(acct)) continue;
      for (const p of acct.positions.values()) {
        if (p.state !== PositionState.HOLDING) continue;
        if (p.openType === OpenType.CROSS) {
          cross.set(p.spec.settleCoin, (cross.get(p.spec.settleCoin) ?? 0) + 1);
          continue;
        }
        if (p.holdLots === 0) continue;
        isolated++;
        const slot = this.slots.get(p);
        const ladders = this.bySymbol.get(p.spec.symbol);
        const edge = edgeOf(p, p.spec.tierOfLots(p.holdLots).mmr);
        if (slot?.ladder === undefined || slot.ladder !== (p.isLong ? ladders?.longs : ladders?.shorts) || slot.key !== edge)
          out.push(`liquidation index: position ${p.positionId} keyed at ${slot?.key} instead of its edge ${edge}`);
      }
    }
    let keyed = 0;
    for (const slot of this.slots.values()) if (slot.ladder !== undefined) keyed++;
    if (keyed !== isolated) out.push(`liquidation index: ${keyed} isolated positions keyed for ${isolated} open`);
    for (const coin of new Set([...this.crossBySettleCoin.keys(), ...cross.keys()])) {
      const counted = this.crossBySettleCoin.get(coin) ?? 0;
      const open = cross.get(coin) ?? 0;
      if (counted !== open) out.push(`liquidation index: ${counted} cross positions counted in ${coin}, ${open} open`);
    }
    return out;
  }

  private rekey(): void {
    if (this.touchedPositions.size === 0) return;
    for (const p of this.touchedPositions) {
      const old = this.slots.get(p);
      // An open cross position stays counted whatever its lots and margin (the usual fill of a cross account).
      if (old !== undefined && old.cross && p.state === PositionState.HOLDING && p.openType === OpenType.CROSS) {
        (p as Counted)[COUNTED_CROSS] = true;
        continue;
      }
      if (old !== undefined) {
        old.ladder?.remove(old.key, p);
        if (old.cross) this.countCross(p.spec.settleCoin, -1);
        this.slots.delete(p);
        (p as Counted)[COUNTED_CROSS] = false;
      }
      if (p.state !== PositionState.HOLDING) continue;
      // Any open cross position counts (the engine's per-account test does not look at its lots).
      if (p.openType === OpenType.CROSS) {
        this.countCross(p.spec.settleCoin, 1);
        this.slots.set(p, { ladder: undefined, key: 0, cross: true });
        (p as Counted)[COUNTED_CROSS] = true;
        continue;
      }
      if (p.holdLots === 0) continue;
      let ladders = this.bySymbol.get(p.spec.symbol);
      if (ladders === undefined) this.bySymbol.set(p.spec.symbol, (ladders = new SideLadders()));
      const ladder = p.isLong ? ladders.longs : ladders.shorts;
      const key = edgeOf(p, p.spec.tierOfLots(p.holdLots).mmr);
      ladder.insert(key, p);
      this.slots.set(p, { ladder, key, cross: false });
    }
    this.touchedPositions.clear();
  }

  private countCross(currency: string, delta: number): void {
    this.crossBySettleCoin.set(currency, (this.crossBySettleCoin.get(currency) ?? 0) + delta);
  }
}
