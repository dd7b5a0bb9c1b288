/**
 * A position in one instrument. Quantity is signed (long > 0, short < 0) so one set of formulas serves
 * one-way (net) mode, each leg of hedged mode (long leg ≥ 0, short leg ≤ 0) and spot inventory.
 */
import { type Decimal, ZERO } from '../core/decimal.js';
import type { InstrumentSymbol } from '../core/ids.js';
import type { InstrumentKind, MarginMode, PositionSide } from './order.js';

/** `net`: one-way mode or spot inventory; `long` / `short`: a hedged-mode leg. */
export type PositionLeg = 'net' | PositionSide;

export interface Position {
  readonly symbol: InstrumentSymbol;
  readonly kind: InstrumentKind;
  readonly leg: PositionLeg;
  /** Signed: base units (spot) or contracts (contract). */
  readonly quantity: Decimal;
  /** Average entry price of the open quantity (0 when flat). */
  readonly entryPrice: Decimal;
  /** Base units per contract (1 for spot). PnL = Δprice · quantity · multiplier. */
  readonly multiplier: Decimal;
  /** Asset PnL, fees and funding are counted in (quote for spot, settle coin for contracts). */
  readonly settleAsset: string;
  readonly realizedPnl: Decimal;
  /** Fees paid in the settle asset (fees in other assets are tracked by the portfolio per asset). */
  readonly fees: Decimal;
  /** Funding received (+) or paid (−). */
  readonly funding: Decimal;
  readonly leverage?: number;
  readonly marginMode?: MarginMode;
  readonly liquidationPrice?: Decimal;
  readonly margin?: Decimal;
  readonly updatedAt: number;
}

export const positionKey = (symbol: InstrumentSymbol, leg: PositionLeg): string => `${symbol}|${leg}`;

export function flatPosition(
  symbol: InstrumentSymbol,
  kind: InstrumentKind,
  leg: PositionLeg,
  multiplier: Decimal,
  settleAsset: string,
  now = 0,
): Position {
  return {
    symbol,
    kind,
    leg,
    quantity: ZERO,
    entryPrice: ZERO,
    multiplier,
    settleAsset,
    realizedPnl: ZERO,
    fees: ZERO,
    funding: ZERO,
    updatedAt: now,
  };
}

export const isFlat = (p: Position | undefined): boolean => !p || p.quantity.isZero();

/** An open order at the venue protecting a held contract position: TP/SL, trailing or plan. */
export interface PositionProtection {
  readonly symbol: InstrumentSymbol;
  /** The position it closes. */
  readonly positionSide: PositionSide;
  /** A plan order's trigger price is one of these two, by its role. */
  readonly takeProfitPrice?: Decimal;
  readonly stopLossPrice?: Decimal;
  readonly quantity?: Decimal;
  /** Absent or 'tpsl': a TP/SL stop order; 'trailing' / 'plan': a reduce-only trigger order closing the position. */
  readonly kind?: 'tpsl' | ProtectiveOrderKind;
  /** The venue's id of a trailing or plan order (what cancels it: trigger orders carry no client id). */
  readonly id?: string;
  /** Trailing: the callback, a fraction of the benchmark (0.01 = 1 %). */
  readonly callbackRate?: Decimal;
  /** Trailing: the benchmark (the best price since activation) and the price it fires at, when active. */
  readonly benchmark?: Decimal;
  readonly triggerPrice?: Decimal;
  /** Trailing: the price that activates it (absent: active from placement). */
  readonly activationPrice?: Decimal;
  /**
   * Trailing and plan: venue ms when it was placed. Tells the order a placement whose answer was lost
   * made from an older one of the same shape (trigger orders carry no client id to query).
   */
  readonly createdAt?: number;
}

/** Reduce-only trigger orders a strategy can protect a position with, besides TP/SL. */
export type ProtectiveOrderKind = 'trailing' | 'plan';

/** Names one trailing or plan order at the venue. */
export interface ProtectiveOrderRef {
  readonly kind: ProtectiveOrderKind;
  readonly id: string;
}
