/**
 * An account's fills, oldest first, kept to the newest `limit`: what a CappedLog of the fill records did,
 * with the same answers, in rows (column-ring.ts).
 *
 * Why: each kept record was a 152-byte object holding its trade and order id strings, ~330 bytes of a
 * maker+taker cycle's two fills (heap snapshot, s18-cv), all of it copied twice by the scavenger. Here a
 * fill is a row of 12 doubles and two references to what is already shared (the symbol, the position
 * ids), and is made into a FillRecord again when read (views, queries: rare), field for field.
 *
 * A fill with fee or PnL in bigint units, or whose trade or order id is not its number's own text, is
 * kept whole in its row's WHOLE slot, as the log kept it.
 */
import { orderId as toOrderId, tradeId as toTradeId, type PositionId } from '../../core/ids.js';
import type { ContractSide } from '../../domain/contract-enums.js';
import type { FillRecord } from './contract-state.js';
import { ColumnRing, ownNumber } from './column-ring.js';

// The row's doubles.
const TRADE = 0;
const ORDER = 1;
const SIDE = 2;
const PRICE_TICKS = 3;
const LOTS = 4;
const TAKER = 5;
const FEE_GRAINS = 6;
const PROFIT_GRAINS = 7;
const GRAIN = 8;
const CLOSE_LOTS = 9;
const OPEN_LOTS = 10;
const TIME = 11;
const NUMS = 12;

// The row's references.
const SYMBOL = 0;
const POSITION_IDS = 1;
const WHOLE = 2;
const REFS = 3;

export class FillLog extends ColumnRing {
  constructor() {
    super(NUMS, REFS);
  }

  /** The index-th oldest fill kept (undefined outside the list), made from its row. */
  at(index: number): FillRecord | undefined {
    return index >= 0 && index < this.length ? this.fillOfRow(this.rowOf(index)) : undefined;
  }

  *[Symbol.iterator](): Iterator<FillRecord> {
    for (let i = 0; i < this.length; i++) yield this.fillOfRow(this.rowOf(i));
  }

  /** Appends a fill and drops the oldest beyond `limit` (CappedLog.push's rule; what it dropped is not needed). */
  push(f: FillRecord, limit: number): void {
    if (this.length + 1 > limit) {
      if (this.length === 0) return;
      this.dropOldest();
    }
    const row = this.appendRow(limit);
    const r = row * REFS;
    const refs = this.refs;
    const a = this.nums;
    const n = row * NUMS;
    const trade = ownNumber(f.tradeId);
    const order = trade < 0 ? -1 : ownNumber(f.orderId);
    if (order < 0 || !fitsRow(f)) {
      refs[r + SYMBOL] = refs[r + POSITION_IDS] = undefined;
      refs[r + WHOLE] = f;
      return;
    }
    a[n + TRADE] = trade;
    a[n + ORDER] = order;
    a[n + SIDE] = f.side;
    a[n + PRICE_TICKS] = f.priceTicks;
    a[n + LOTS] = f.lots;
    a[n + TAKER] = f.taker ? 1 : 0;
    a[n + FEE_GRAINS] = f.feeGrains;
    a[n + PROFIT_GRAINS] = f.profitGrains;
    a[n + GRAIN] = f.grain;
    a[n + CLOSE_LOTS] = f.closeLots;
    a[n + OPEN_LOTS] = f.openLots;
    a[n + TIME] = f.time;
    refs[r + SYMBOL] = f.symbol;
    refs[r + POSITION_IDS] = f.positionIds;
    refs[r + WHOLE] = undefined;
  }

  /** The fields a fills query filters on, of the index-th oldest fill (0 ≤ index < length). */
  symbolAt(index: number): string {
    const r = this.rowOf(index) * REFS;
    return ((this.refs[r + WHOLE] as FillRecord | undefined)?.symbol ?? this.refs[r + SYMBOL]) as string;
  }

  /** Whether the index-th oldest fill is of order `id` (its id text, as FillRecord.orderId === id). */
  isOfOrder(index: number, id: string): boolean {
    const row = this.rowOf(index);
    const whole = this.refs[row * REFS + WHOLE] as FillRecord | undefined;
    if (whole !== undefined) return whole.orderId === id;
    // The row's order id is the text of this number (ownNumber), and so is `id` when they are equal.
    return ownNumber(id) === this.nums[row * NUMS + ORDER]!;
  }

  timeAt(index: number): number {
    const row = this.rowOf(index);
    const whole = this.refs[row * REFS + WHOLE] as FillRecord | undefined;
    return whole !== undefined ? whole.time : this.nums[row * NUMS + TIME]!;
  }

  private fillOfRow(row: number): FillRecord {
    const refs = this.refs;
    const r = row * REFS;
    const whole = refs[r + WHOLE] as FillRecord | undefined;
    if (whole !== undefined) return whole;
    const a = this.nums;
    const n = row * NUMS;
    return {
      tradeId: toTradeId(a[n + TRADE]!),
      orderId: toOrderId(a[n + ORDER]!),
      symbol: refs[r + SYMBOL] as string,
      side: a[n + SIDE] as ContractSide,
      priceTicks: a[n + PRICE_TICKS]!,
      lots: a[n + LOTS]!,
      taker: a[n + TAKER] === 1,
      feeUnits: 0n,
      profitUnits: 0n,
      feeGrains: a[n + FEE_GRAINS]!,
      profitGrains: a[n + PROFIT_GRAINS]!,
      grain: a[n + GRAIN]!,
      closeLots: a[n + CLOSE_LOTS]!,
      openLots: a[n + OPEN_LOTS]!,
      positionIds: refs[r + POSITION_IDS] as readonly PositionId[],
      time: a[n + TIME]!,
    };
  }
}

/** Whether a row holds the fill's amounts exactly: only in their double parts (which it has). Its ids are checked by ownNumber. */
function fitsRow(f: FillRecord): boolean {
  return (
    f.feeUnits === 0n &&
    f.profitUnits === 0n &&
    typeof f.feeGrains === 'number' &&
    typeof f.profitGrains === 'number' &&
    typeof f.grain === 'number' &&
    typeof f.taker === 'boolean'
  );
}
