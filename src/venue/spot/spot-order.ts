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
import type { BookOrder } from '../book/order-book.js';
import type { SpotOrderStatus, SpotOrderType, SpotSide, SpotStpMode } from '../../domain/spot-enums.js';
import { unitsToDecimal } from '../ledger/ledger-units.js';
import type { OpenOrders } from './open-orders.js';
import { priceOf, qtyOf, quoteOf, type SpotMarket } from './spot-market.js';
import type { SpotAccountState } from './spot-venue.js';

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
  readonly cumQuoteUnits: bigint;
  status: SpotOrderStatus;
  cancelReason: SpotCancelReason;
  readonly time: number;
  updateTime: number;
  /** Ledger units this order holds locked right now (quote for buys, base for sells). */
  readonly lockedUnits: bigint;
  /** Resting on the book. */
  isWorking: boolean;
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * The venue's order. Amounts are kept as plain numbers of the market's counts — tick-lots of quote,
 * lots of base — because every one of them is a whole number of those (price·lots), and the bigint
 * ledger units the interface shows are computed when read. Only what no count can hold (a
 * quoteOrderQty amount, a count past 2^53) sits in a bigint part.
 */
export class SpotOrder implements SpotOrderState {
  origLots: number;
  executedLots = 0;
  status: SpotOrderStatus = 'NEW';
  cancelReason: SpotCancelReason = '';
  updateTime: number;
  isWorking = false;
  /** @internal executed quote in tick-lots: cumTickLots + cumTickLotsOver (the latter only past 2^53). */
  cumTickLots = 0;
  cumTickLotsOver = 0n;
  /**
   * @internal locked = lockCount·(tick-lot units for a buy, lot units for a sell) + lockRest. lockRest
   * holds a quoteOrderQty reservation and counts past 2^53.
   */
  lockCount = 0;
  lockRest = 0n;
  /** @internal the order's node on the book while it rests (cancel without an id lookup). */
  bookOrder: BookOrder<SpotOrder, number> | null = null;
  /** @internal the account's open-order list links (open-orders.ts). */
  openPrev: SpotOrder | null = null;
  openNext: SpotOrder | null = null;
  openList: OpenOrders<SpotOrder> | null = null;

  constructor(
    readonly market: SpotMarket,
    /** @internal the owner's venue state (indexes, ledger handle). */
    readonly acct: SpotAccountState,
    readonly seq: number,
    readonly orderId: string,
    readonly clientOrderId: string | undefined,
    readonly side: SpotSide,
    readonly type: SpotOrderType,
    readonly stpMode: SpotStpMode,
    readonly priceTicks: number,
    origLots: number,
    /** quoteOrderQty of a market order by amount (always > 0), in ledger units; 0n otherwise. */
    readonly quoteOrderUnits: bigint,
    readonly time: number,
  ) {
    this.origLots = origLots;
    this.updateTime = time;
  }

  // Derived rather than stored: every order is kept for days, so each field is paid for many times.
  get symbol(): string {
    return this.market.symbol;
  }

  get accountId(): string {
    return this.acct.id;
  }

  get byQuote(): boolean {
    return this.quoteOrderUnits !== 0n;
  }

  get origQuoteUnits(): bigint {
    return this.type === 'MARKET'
      ? this.quoteOrderUnits
      : BigInt(this.priceTicks) * BigInt(this.origLots) * this.market.quoteUnitsPerTickLot;
  }

  get cumQuoteUnits(): bigint {
    return (BigInt(this.cumTickLots) + this.cumTickLotsOver) * this.market.quoteUnitsPerTickLot;
  }

  get lockedUnits(): bigint {
    const per = this.side === 'BUY' ? this.market.quoteUnitsPerTickLot : this.market.baseUnitsPerLot;
    return this.lockCount === 0 ? this.lockRest : BigInt(this.lockCount) * per + this.lockRest;
  }

  /** @internal executed quote in tick-lots, exact (a bigint only past 2^53). */
  cumTickLotsBig(): bigint {
    return BigInt(this.cumTickLots) + this.cumTickLotsOver;
  }

  /** @internal adds a fill's tick-lots given exactly as a bigint (past 2^53). */
  addCumBig(tickLots: bigint): void {
    this.cumTickLotsOver += tickLots;
  }

  /** @internal adds a fill's tick-lots (a safe integer). */
  addCum(tickLots: number): void {
    const next = this.cumTickLots + tickLots;
    if (next <= MAX_SAFE) this.cumTickLots = next;
    else this.cumTickLotsOver += BigInt(tickLots);
  }

  /** @internal gives up `count` counts of the reservation (a safe integer). */
  unlockCounts(count: number): void {
    if (count <= this.lockCount) this.lockCount -= count;
    else this.lockRest -= BigInt(count) * this.perCount();
  }

  /** @internal gives up ledger units (a quoteOrderQty reservation, counts past 2^53). */
  unlockUnits(units: bigint): void {
    this.lockRest -= units;
  }

  /** @internal drops the whole reservation (the ledger side is released by the venue). */
  clearLock(): void {
    this.lockCount = 0;
    this.lockRest = 0n;
  }

  private perCount(): bigint {
    return this.side === 'BUY' ? this.market.quoteUnitsPerTickLot : this.market.baseUnitsPerLot;
  }
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
  // The venue's own orders keep their quote in tick-lots: a Decimal multiplication instead of parsing units.
  let cum: Decimal;
  let origQuote: Decimal;
  if (o instanceof SpotOrder && o.cumTickLotsOver === 0n) cum = quoteOf(m, o.cumTickLots, scale);
  else cum = unitsToDecimal(o.cumQuoteUnits, scale);
  const origTickLots = o.priceTicks * o.origLots;
  if (o instanceof SpotOrder && o.type !== 'MARKET' && origTickLots <= Number.MAX_SAFE_INTEGER) origQuote = quoteOf(m, origTickLots, scale);
  else origQuote = unitsToDecimal(o.origQuoteUnits, scale);
  return {
    symbol: o.symbol,
    orderId: o.orderId,
    orderListId: -1,
    clientOrderId: o.clientOrderId,
    price: priceOf(m, o.priceTicks),
    origQty: qtyOf(m, o.origLots),
    executedQty: qtyOf(m, o.executedLots),
    cummulativeQuoteQty: cum,
    origQuoteOrderQty: origQuote,
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

/**
 * One side of one trade inside the venue: quote and commission units are computed when read (price ·
 * lots · tick-lot units, fee steps · fee units per step) so a fill allocates no bigint.
 */
export class SpotOwnTrade implements SpotOwnTradeRecord {
  constructor(
    /** The side's order (account, ids, side and market come from it). */
    readonly order: SpotOrder,
    readonly tradeId: string,
    readonly priceTicks: number,
    readonly lots: number,
    /** Commission = commissionCount · commissionPer when commissionPer > 0n, else commissionRest. */
    private readonly commissionCount: number,
    private readonly commissionPer: bigint,
    private readonly commissionRest: bigint,
    readonly commissionAsset: string,
    readonly isMaker: boolean,
    readonly isSelfTrade: boolean,
    readonly time: number,
  ) {}

  get symbol(): string {
    return this.order.market.symbol;
  }

  get accountId(): string {
    return this.order.accountId;
  }

  get orderId(): string {
    return this.order.orderId;
  }

  get clientOrderId(): string | undefined {
    return this.order.clientOrderId;
  }

  get isBuyer(): boolean {
    return this.order.side === 'BUY';
  }

  get quoteUnits(): bigint {
    return BigInt(this.priceTicks) * BigInt(this.lots) * this.order.market.quoteUnitsPerTickLot;
  }

  get commissionUnits(): bigint {
    return this.commissionPer > 0n ? BigInt(this.commissionCount) * this.commissionPer : this.commissionRest;
  }
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
