/**
 * A spot order inside the venue (integer units, mutable, owned by SpotVenue) and its Decimal view for
 * the edges (HTTP emulator, simulated gateway).
 *
 * Status decisions (spot-api.md §3 names only NEW → CANCELED; the rest follows the real venue's
 * documented enumeration):
 *   NEW                 on the book, nothing filled
 *   PARTIALLY_FILLED    on the book, something filled
 *   FILLED              everything filled; a quoteOrderQty market order is FILLED when what is left of
 *                       its amount cannot buy (or, selling, be received for) one more step
 *   CANCELED            ended with nothing filled: user / cancel-all / STP cancel, an IOC, FOK or
 *                       MARKET order that found nothing (FOK never fills partially)
 *   PARTIALLY_CANCELED  ended after a partial fill: a cancelled partially filled order, the remainder of
 *                       an IOC or MARKET order, an STP cancel after fills
 */
import type { Decimal } from '../../core/decimal.js';
import type { SpotOrderStatus, SpotOrderType, SpotSide, SpotStpMode } from '../../domain/spot-enums.js';
import { unitsToDecimal } from '../ledger/ledger-units.js';
import { priceOf, qtyOf, type SpotMarket } from './spot-market.js';

export type SpotCancelReason = '' | 'stp_cancel';

export interface SpotOrderState {
  /** Venue-internal integer id (orderId without its prefix); books and indexes are keyed by it. */
  readonly seq: number;
  readonly orderId: string;
  readonly accountId: string;
  readonly symbol: string;
  readonly clientOrderId: string | undefined;
  readonly side: SpotSide;
  readonly type: SpotOrderType;
  readonly stpMode: SpotStpMode;
  /** Limit price in ticks; 0 for MARKET. */
  readonly priceTicks: number;
  /** Ordered quantity in lots; for a quoteOrderQty market order, the executed lots once it is done. */
  origLots: number;
  /** quoteOrderQty in ledger units (market by amount), price·qty for priced orders, 0 otherwise. */
  readonly origQuoteUnits: bigint;
  /** MARKET order given by quoteOrderQty. */
  readonly byQuote: boolean;
  executedLots: number;
  cumQuoteUnits: bigint;
  status: SpotOrderStatus;
  cancelReason: SpotCancelReason;
  readonly time: number;
  updateTime: number;
  /** Ledger units this order holds locked right now (quote for buys, base for sells). */
  lockedUnits: bigint;
  /** Resting on the book. */
  isWorking: boolean;
}

/** The venue's own order, read-only to callers and LIVE (later fills change it): copy or view() it to keep a snapshot. */
export type SpotOrderRecord = Readonly<SpotOrderState>;

/** Decimal view of an order (spot-api.md §2.5 fields; the emulator formats them for the wire). */
export interface SpotOrderView {
  readonly symbol: string;
  readonly orderId: string;
  readonly orderListId: -1;
  readonly clientOrderId: string | undefined;
  readonly price: Decimal;
  readonly origQty: Decimal;
  readonly executedQty: Decimal;
  readonly cummulativeQuoteQty: Decimal;
  readonly origQuoteOrderQty: Decimal;
  readonly status: SpotOrderStatus;
  readonly type: SpotOrderType;
  readonly side: SpotSide;
  readonly stpMode: SpotStpMode;
  readonly cancelReason: SpotCancelReason;
  readonly time: number;
  readonly updateTime: number;
  readonly isWorking: boolean;
  readonly accountId: string;
}

export const isOpenStatus = (s: SpotOrderStatus): boolean => s === 'NEW' || s === 'PARTIALLY_FILLED';

export function orderView(m: SpotMarket, o: SpotOrderRecord, scale: number): SpotOrderView {
  return {
    symbol: o.symbol,
    orderId: o.orderId,
    orderListId: -1,
    clientOrderId: o.clientOrderId,
    price: priceOf(m, o.priceTicks),
    origQty: qtyOf(m, o.origLots),
    executedQty: qtyOf(m, o.executedLots),
    cummulativeQuoteQty: unitsToDecimal(o.cumQuoteUnits, scale),
    origQuoteOrderQty: unitsToDecimal(o.origQuoteUnits, scale),
    status: o.status,
    type: o.type,
    side: o.side,
    stpMode: o.stpMode,
    cancelReason: o.cancelReason,
    time: o.time,
    updateTime: o.updateTime,
    isWorking: o.isWorking,
    accountId: o.accountId,
  };
}

/** Status of an order that leaves the book (or never reached it) without being filled. */
export const endedStatus = (executedLots: number): SpotOrderStatus => (executedLots > 0 ? 'PARTIALLY_CANCELED' : 'CANCELED');

/** One side of one trade, as the owner sees it (spot-api.md §2.7). */
export interface SpotOwnTradeRecord {
  readonly tradeId: string;
  readonly symbol: string;
  readonly accountId: string;
  readonly orderId: string;
  readonly clientOrderId: string | undefined;
  readonly priceTicks: number;
  readonly lots: number;
  readonly quoteUnits: bigint;
  readonly commissionUnits: bigint;
  readonly commissionAsset: string;
  readonly isBuyer: boolean;
  readonly isMaker: boolean;
  readonly isSelfTrade: boolean;
  readonly time: number;
}

export interface SpotOwnTradeView {
  readonly symbol: string;
  readonly id: string;
  readonly orderId: string;
  readonly orderListId: -1;
  readonly price: Decimal;
  readonly qty: Decimal;
  readonly quoteQty: Decimal;
  readonly commission: Decimal;
  readonly commissionAsset: string;
  readonly time: number;
  readonly isBuyer: boolean;
  readonly isMaker: boolean;
  readonly isBestMatch: true;
  readonly isSelfTrade: boolean;
  readonly clientOrderId: string | undefined;
}

export function ownTradeView(m: SpotMarket, t: SpotOwnTradeRecord, scale: number): SpotOwnTradeView {
  return {
    symbol: t.symbol,
    id: t.tradeId,
    orderId: t.orderId,
    orderListId: -1,
    price: priceOf(m, t.priceTicks),
    qty: qtyOf(m, t.lots),
    quoteQty: unitsToDecimal(t.quoteUnits, scale),
    commission: unitsToDecimal(t.commissionUnits, scale),
    commissionAsset: t.commissionAsset,
    time: t.time,
    isBuyer: t.isBuyer,
    isMaker: t.isMaker,
    isBestMatch: true,
    isSelfTrade: t.isSelfTrade,
    clientOrderId: t.clientOrderId,
  };
}
