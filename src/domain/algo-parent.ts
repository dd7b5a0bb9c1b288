/**
 * What a strategy, the status line and the journal see of an execution algorithm (TWAP, iceberg): the
 * parent's progress, computed from its children's venue fills. Journaled with every change (AlgoUpdated)
 * so a restart knows which parents were working and which children to look for.
 */
import type { Decimal } from '../core/decimal.js';
import type { ClientOrderId, InstrumentSymbol, StrategyId } from '../core/ids.js';
import type { OrderSide } from './order.js';

/**
 * working → completed (all filled) | cancelled (strategy, runtime stop, kill switch, restart) |
 * stopped (denied children, see `reason`) | expired (TWAP time up with quantity left).
 */
export type AlgoState = 'working' | 'completed' | 'cancelled' | 'stopped' | 'expired';

export interface AlgoParent {
  /** The parent's client id; children are `<parent>` with a slot 1, 2, … (client-id-codec.ts). */
  readonly parentId: ClientOrderId;
  readonly intentId: string;
  readonly strategyId: StrategyId;
  readonly algo: 'twap' | 'iceberg';
  readonly symbol: InstrumentSymbol;
  readonly side: OrderSide;
  readonly quantity: Decimal;
  /** Σ children's venue fills. */
  readonly filledQty: Decimal;
  /** Σ price·qty over the children's fills / filledQty; absent before the first fill. */
  readonly avgPrice?: Decimal;
  /** quantity − filledQty. */
  readonly remaining: Decimal;
  /** Quantity of children sent and not closed. */
  readonly inFlight: Decimal;
  readonly state: AlgoState;
  /** Children sent so far (child n has slot n in base 36). */
  readonly children: number;
  /** Children risk denied, in all. */
  readonly denials: number;
  /** Why it ended, or the newest denial while working. */
  readonly reason?: string;
  readonly startedAt: number;
  /** TWAP: when the duration ends. */
  readonly endsAt?: number;
  readonly updatedAt: number;
}

export const isAlgoActive = (p: AlgoParent): boolean => p.state === 'working';
