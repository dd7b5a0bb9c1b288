/**
 * An account's final orders (completed, cancelled, invalid), oldest first, kept to the newest `limit`:
 * what a CappedLog of the orders themselves did, with the same answers, in rows (column-ring.ts).
 *
 * Why: the log kept each final order's live record — a 336-byte object with its resting-only fields,
 * its used-margin cell and the number boxes of its grains (2e9 is not a small integer), ~960 bytes a
 * maker+taker cycle's two orders kept (heap snapshot, s18-cv). Here a final order is a row of 18 doubles
 * and six references to what is already an object elsewhere (market, price, ids); nothing is allocated
 * (heap kept per cycle by the history of orders and fills: 1,213 -> 118 bytes, retained.mjs, s19-cv).
 * A record is made into an OrderState again when read (views, queries, lookups by id: rare), field for
 * field what the order held when it became final.
 *
 * An order whose amounts do not fit the doubles exactly (bigint fee or PnL units, a used-margin cell in
 * Decimal or bigint form, a bigint cost), whose id is not its number's own text, or that the order index
 * does not hold in a page, is kept whole in its row's WHOLE slot, as the log kept it.
 */
import type { Decimal } from '../../core/decimal.js';
import { orderId as toOrderId, type PositionId } from '../../core/ids.js';
import type {
  ContractOrderErrorCode,
  ContractOrderState,
  ContractOrderType,
  ContractSide,
  ContractStpMode,
  OpenType,
  OrderCategory,
  PositionMode,
} from '../../domain/contract-enums.js';
import type { AccountState, MarketState, OrderState } from './contract-state.js';
import type { CancelReason } from './contract-views.js';
import { MoneyCell } from './money-cell.js';
import { ColumnRing, ownNumber } from './column-ring.js';

// The row's doubles.
const ID = 0;
const SEQ = 1;
/** The small codes and flags, packed (PACKING). */
const CODES = 2;
const LEVERAGE = 3;
const PRICE_TICKS = 4;
const LOTS = 5;
const DEAL_LOTS = 6;
const DEAL_COST = 7;
const USED_FAST = 8;
const USED_GRAIN = 9;
const TAKER_GRAINS = 10;
const MAKER_GRAINS = 11;
const PROFIT_GRAINS = 12;
const MONEY_GRAIN = 13;
const CREATE = 14;
const UPDATE = 15;
const FROZEN_GRAINS = 16;
const FROZEN_GRAIN = 17;
const NUMS = 18;

/** Bit offset and width of each code in CODES (26 bits: a small integer). */
const SIDE_AT = 0;
const TYPE_AT = 3;
const CATEGORY_AT = 6;
const STATE_AT = 9;
const ERROR_AT = 12;
const OPEN_TYPE_AT = 16;
const MODE_AT = 18;
const STP_AT = 20;
const FLAGS_AT = 22;

// The row's references.
const MARKET = 0;
const DISPLAY = 1;
const POSITION = 2;
const EXTERNAL = 3;
const CANCEL = 4;
const WHOLE = 5;
const REFS = 6;

// FLAGS bits.
const REDUCE_ONLY = 1;
const CLOSING = 2;
const IS_BUY = 4;
/** The order had a used-margin cell (an order that never booked margin has none: usedMarginOf reads zero either way). */
const HAS_USED = 8;

export class OrderHistory extends ColumnRing {
  constructor(readonly owner: AccountState) {
    super(NUMS, REFS);
  }

  /** The index-th oldest final order kept (undefined outside the list), made from its record. */
  at(index: number): OrderState | undefined {
    return index >= 0 && index < this.length ? this.orderOfRow(this.rowOf(index)) : undefined;
  }

  /** The order at `position` (nextPosition when it was pushed), or undefined when it was dropped since. */
  atPosition(position: number): OrderState | undefined {
    const row = this.rowAtPosition(position);
    return row < 0 ? undefined : this.orderOfRow(row);
  }

  *[Symbol.iterator](): Iterator<OrderState> {
    for (let i = 0; i < this.length; i++) yield this.orderOfRow(this.rowOf(i));
  }

  /**
   * Appends a final order (kept whole unless `compact` and its amounts fit the row) and returns whether it
   * went into the row's columns. The caller drops the oldest first when the list is at its limit.
   */
  push(o: OrderState, compact: boolean, limit: number): boolean {
    const row = this.appendRow(limit);
    const refs = this.refs;
    const r = row * REFS;
    const id = compact ? ownNumber(o.id) : -1;
    const codes = id >= 0 ? codesOf(o) : -1;
    if (codes < 0) {
      const n = row * NUMS;
      this.nums[n + SEQ] = o.seq;
      refs[r + MARKET] = refs[r + DISPLAY] = refs[r + POSITION] = refs[r + EXTERNAL] = refs[r + CANCEL] = undefined;
      refs[r + WHOLE] = o;
      return false;
    }
    const a = this.nums;
    const n = row * NUMS;
    a[n + ID] = id;
    a[n + SEQ] = o.seq;
    a[n + CODES] = codes;
    a[n + LEVERAGE] = o.leverage;
    const used = o.usedMargin;
    a[n + PRICE_TICKS] = o.priceTicks;
    a[n + LOTS] = o.lots;
    a[n + DEAL_LOTS] = o.dealLots;
    a[n + DEAL_COST] = o.dealCost as number;
    a[n + USED_FAST] = used === undefined ? 0 : used.fast;
    a[n + USED_GRAIN] = used === undefined ? 0 : used.grain;
    a[n + TAKER_GRAINS] = o.takerFeeGrains;
    a[n + MAKER_GRAINS] = o.makerFeeGrains;
    a[n + PROFIT_GRAINS] = o.profitGrains;
    a[n + MONEY_GRAIN] = o.moneyGrain;
    a[n + CREATE] = o.createTime;
    a[n + UPDATE] = o.updateTime;
    a[n + FROZEN_GRAINS] = o.frozenGrains;
    a[n + FROZEN_GRAIN] = o.frozenGrain;
    refs[r + MARKET] = o.market;
    refs[r + DISPLAY] = o.displayPrice;
    refs[r + POSITION] = o.positionId;
    refs[r + EXTERNAL] = o.externalOid;
    refs[r + CANCEL] = o.cancelReason;
    refs[r + WHOLE] = undefined;
    return true;
  }

  /** The oldest record's sequence number (the list is not empty). */
  oldestSeq(): number {
    return this.nums[this.firstRow * NUMS + SEQ]!;
  }

  /** The oldest order when it is kept whole, else undefined (the list is not empty). */
  oldestWhole(): OrderState | undefined {
    return this.refs[this.firstRow * REFS + WHOLE] as OrderState | undefined;
  }

  /** The newest final order of `symbol` placed with `externalOid` (findByExternal's history half). */
  findExternal(symbol: string, externalOid: string): OrderState | undefined {
    for (let i = this.length - 1; i >= 0; i--) {
      const row = this.rowOf(i);
      const whole = this.refs[row * REFS + WHOLE] as OrderState | undefined;
      if (whole !== undefined) {
        if (whole.externalOid === externalOid && whole.market.spec.symbol === symbol) return whole;
      } else if (
        this.refs[row * REFS + EXTERNAL] === externalOid &&
        (this.refs[row * REFS + MARKET] as MarketState).spec.symbol === symbol
      ) {
        return this.orderOfRow(row);
      }
    }
    return undefined;
  }

  /** The fields a history query filters on, of the index-th oldest record (0 ≤ index < length). */
  symbolAt(index: number): string {
    const row = this.rowOf(index);
    const whole = this.refs[row * REFS + WHOLE] as OrderState | undefined;
    return (whole?.market ?? (this.refs[row * REFS + MARKET] as MarketState)).spec.symbol;
  }

  stateAt(index: number): ContractOrderState {
    return this.codeAt(index, STATE_AT, 'state') as ContractOrderState;
  }

  categoryAt(index: number): OrderCategory {
    return this.codeAt(index, CATEGORY_AT, 'category') as OrderCategory;
  }

  sideAt(index: number): ContractSide {
    return this.codeAt(index, SIDE_AT, 'side') as ContractSide;
  }

  createTimeAt(index: number): number {
    const row = this.rowOf(index);
    const whole = this.refs[row * REFS + WHOLE] as OrderState | undefined;
    return whole !== undefined ? whole.createTime : this.nums[row * NUMS + CREATE]!;
  }

  private codeAt(index: number, at: number, field: 'state' | 'category' | 'side'): number {
    const row = this.rowOf(index);
    const whole = this.refs[row * REFS + WHOLE] as OrderState | undefined;
    return whole !== undefined ? whole[field] : (this.nums[row * NUMS + CODES]! >> at) & 7;
  }

  /** The order of a row: the whole one, or one made from the columns (the order's fields when it became final). */
  private orderOfRow(row: number): OrderState {
    const refs = this.refs;
    const r = row * REFS;
    const whole = refs[r + WHOLE] as OrderState | undefined;
    if (whole !== undefined) return whole;
    const a = this.nums;
    const n = row * NUMS;
    const codes = a[n + CODES]!;
    const flags = codes >> FLAGS_AT;
    const isBuy = (flags & IS_BUY) !== 0;
    let usedMargin: MoneyCell | undefined;
    if ((flags & HAS_USED) !== 0) {
      usedMargin = new MoneyCell();
      usedMargin.addGrains(a[n + USED_FAST]!, a[n + USED_GRAIN]!);
    }
    return {
      id: toOrderId(a[n + ID]!),
      seq: a[n + SEQ]!,
      account: this.owner,
      market: refs[r + MARKET] as MarketState,
      side: ((codes >> SIDE_AT) & 7) as ContractSide,
      type: ((codes >> TYPE_AT) & 7) as ContractOrderType,
      category: ((codes >> CATEGORY_AT) & 7) as OrderCategory,
      openType: ((codes >> OPEN_TYPE_AT) & 3) as OpenType,
      leverage: a[n + LEVERAGE]!,
      positionMode: ((codes >> MODE_AT) & 3) as PositionMode,
      reduceOnly: (flags & REDUCE_ONLY) !== 0,
      stpMode: ((codes >> STP_AT) & 3) as ContractStpMode,
      externalOid: refs[r + EXTERNAL] as string | undefined,
      isBuy,
      bookSide: isBuy ? 'BUY' : 'SELL',
      closing: (flags & CLOSING) !== 0,
      displayPrice: refs[r + DISPLAY] as Decimal,
      priceTicks: a[n + PRICE_TICKS]!,
      lots: a[n + LOTS]!,
      dealLots: a[n + DEAL_LOTS]!,
      dealCost: a[n + DEAL_COST]!,
      frozenUnits: 0n,
      frozenGrains: a[n + FROZEN_GRAINS]!,
      frozenGrain: a[n + FROZEN_GRAIN]!,
      reservedPosition: undefined,
      usedMargin,
      takerFeeUnits: 0n,
      makerFeeUnits: 0n,
      profitUnits: 0n,
      takerFeeGrains: a[n + TAKER_GRAINS]!,
      makerFeeGrains: a[n + MAKER_GRAINS]!,
      profitGrains: a[n + PROFIT_GRAINS]!,
      moneyGrain: a[n + MONEY_GRAIN]!,
      state: ((codes >> STATE_AT) & 7) as ContractOrderState,
      errorCode: ((codes >> ERROR_AT) & 15) as ContractOrderErrorCode,
      positionId: refs[r + POSITION] as PositionId | undefined,
      createTime: a[n + CREATE]!,
      updateTime: a[n + UPDATE]!,
      cancelReason: refs[r + CANCEL] as CancelReason | undefined,
    };
  }
}

/** Whether `x` is an integer 0 … 2^bits − 1. */
const fits = (x: number, bits: number): boolean => x >>> 0 === x && x < 1 << bits;

/**
 * The order's codes and flags packed for CODES, or −1 when a row cannot hold the order exactly (see fitsRow).
 */
function codesOf(o: OrderState): number {
  if (
    !fitsRow(o) ||
    !fits(o.side, 3) ||
    !fits(o.type, 3) ||
    !fits(o.category, 3) ||
    !fits(o.state, 3) ||
    !fits(o.errorCode, 4) ||
    !fits(o.openType, 2) ||
    !fits(o.positionMode, 2) ||
    !fits(o.stpMode, 2)
  )
    return -1;
  const flags =
    (o.reduceOnly ? REDUCE_ONLY : 0) | (o.closing ? CLOSING : 0) | (o.isBuy ? IS_BUY : 0) | (o.usedMargin !== undefined ? HAS_USED : 0);
  return (
    (o.side << SIDE_AT) |
    (o.type << TYPE_AT) |
    (o.category << CATEGORY_AT) |
    (o.state << STATE_AT) |
    (o.errorCode << ERROR_AT) |
    (o.openType << OPEN_TYPE_AT) |
    (o.positionMode << MODE_AT) |
    (o.stpMode << STP_AT) |
    (flags << FLAGS_AT)
  );
}

/**
 * Whether a row holds the order's amounts exactly: in units they are all zero but for the double parts
 * (which it has), its cost is a number, its used margin (if any) a cell in its double part. (Its id is
 * checked by ownNumber.)
 */
function fitsRow(o: OrderState): boolean {
  const used = o.usedMargin;
  return (
    o.takerFeeUnits === 0n &&
    o.makerFeeUnits === 0n &&
    o.profitUnits === 0n &&
    o.frozenUnits === 0n &&
    typeof o.dealCost === 'number' &&
    // Absent on an order restored from a snapshot written before the grain fields.
    typeof o.takerFeeGrains === 'number' &&
    typeof o.makerFeeGrains === 'number' &&
    typeof o.profitGrains === 'number' &&
    typeof o.moneyGrain === 'number' &&
    typeof o.frozenGrains === 'number' &&
    typeof o.frozenGrain === 'number' &&
    (used === undefined || (used.dec === undefined && used.big === 0n && (used.fast === 0 || used.grain > 0)))
  );
}
