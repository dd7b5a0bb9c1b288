/** Account balances. Spot: free / locked per asset. Contract: available / frozen margin per settle coin. */
import type { Decimal } from '../core/decimal.js';
import type { InstrumentKind } from './order.js';

export interface Balance {
  readonly asset: string;
  /** Spendable now (spot free; contract availableBalance). */
  readonly free: Decimal;
  /** Held by open orders (spot locked; contract frozenBalance). */
  readonly locked: Decimal;
  /** Contract: margin held by positions. */
  readonly positionMargin?: Decimal;
  /** Contract: the venue's equity (balance + unrealised PnL). */
  readonly equity?: Decimal;
  readonly unrealizedPnl?: Decimal;
}

export interface AccountSnapshot {
  readonly kind: InstrumentKind;
  /** Keyed by asset. */
  readonly balances: Readonly<Record<string, Balance>>;
  /** When the venue reported it (our clock at receipt). */
  readonly time: number;
}

export const totalOf = (b: Balance): Decimal => b.free.plus(b.locked).plus(b.positionMargin ?? 0);
