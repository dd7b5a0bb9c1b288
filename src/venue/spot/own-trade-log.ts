/**
 * One account's own trades on one symbol, oldest first, stored by column: plain numbers in a
 * Float64Array, the orders in an array, the few distinct fee shapes in a small table. Why not one
 * record object per side of each fill: those were the venue's largest source of long-lived
 * allocations (two objects and an id string per fill, all copied by the young-generation GC before
 * they settle), while myTrades reads them rarely. A record (SpotOwnTrade) is built when read.
 * (A Float64Array, not a number[]: a multi-value push onto a plain array measured ten times slower.)
 */
import type { SpotOrder } from './spot-order.js';
import { SpotOwnTrade } from './spot-order.js';

/** Numbers kept per trade, in this order. */
const TRADE_SEQ = 0;
const PRICE = 1;
const LOTS = 2;
const TIME = 3;
const FEE_COUNT = 4;
/** Index into the fee kinds (units per count, units, asset). */
const FEE_KIND = 5;
/** bit 0: maker, bit 1: self-trade */
const FLAGS = 6;
const WIDTH = 7;
const FEE_KINDS_SEARCHED = 8;

interface FeeKind {
  readonly per: bigint;
  readonly rest: bigint;
  readonly asset: string;
}

export class OwnTradeLog {
  private count = 0;
  /** WIDTH numbers per trade (every value is a safe integer, exact in a double). */
  private num = new Float64Array(16 * WIDTH);
  private orders: SpotOrder[] = [];
  /** The few distinct fee shapes of this account on this symbol (maker / taker rate, asset). */
  private readonly feeKinds: FeeKind[] = [];

  /**
   * @param tradeIds formats a trade sequence as the venue's trade id (an object, not a closure: the
   * emulator's engine snapshot carries data, not functions).
   */
  constructor(private readonly tradeIds: { format(seq: number): string }) {}

  get size(): number {
    return this.count;
  }

  /** Appends one side of a fill; the commission is feeCount · feePer when feePer > 0n, else feeRest. */
  push(
    order: SpotOrder,
    tradeSeq: number,
    priceTicks: number,
    lots: number,
    feeCount: number,
    feePer: bigint,
    feeRest: bigint,
    feeAsset: string,
    isMaker: boolean,
    isSelfTrade: boolean,
    time: number,
  ): void {
    const i = this.count;
    let num = this.num;
    if ((i + 1) * WIDTH > num.length) {
      num = new Float64Array(num.length * 2);
      num.set(this.num);
      this.num = num;
    }
    const o = i * WIDTH;
    num[o + TRADE_SEQ] = tradeSeq;
    num[o + PRICE] = priceTicks;
    num[o + LOTS] = lots;
    num[o + TIME] = time;
    num[o + FEE_COUNT] = feeCount;
    num[o + FEE_KIND] = this.feeKind(feePer, feeRest, feeAsset);
    num[o + FLAGS] = (isMaker ? 1 : 0) | (isSelfTrade ? 2 : 0);
    this.orders.push(order);
    this.count = i + 1;
  }

  time(i: number): number {
    return this.num[i * WIDTH + TIME]!;
  }

  orderOf(i: number): SpotOrder {
    return this.orders[i]!;
  }

  /** The i-th trade (0 = oldest) as a record. */
  at(i: number): SpotOwnTrade {
    const o = i * WIDTH;
    const n = this.num;
    const flags = n[o + FLAGS]!;
    const fee = this.feeKinds[n[o + FEE_KIND]!]!;
    return new SpotOwnTrade(
      this.orders[i]!,
      this.tradeIds.format(n[o + TRADE_SEQ]!),
      n[o + PRICE]!,
      n[o + LOTS]!,
      n[o + FEE_COUNT]!,
      fee.per,
      fee.rest,
      fee.asset,
      (flags & 1) !== 0,
      (flags & 2) !== 0,
      n[o + TIME]!,
    );
  }

  /** Keeps only the trades at or after `cut` (in their order); memory follows what is kept. */
  dropBefore(cut: number): void {
    const old = this.num;
    const oldKinds = this.feeKinds.splice(0);
    const orders: SpotOrder[] = [];
    let k = 0;
    for (let i = 0; i < this.count; i++) {
      const o = i * WIDTH;
      if (old[o + TIME]! < cut) continue;
      old.copyWithin(k * WIDTH, o, o + WIDTH);
      const fee = oldKinds[old[k * WIDTH + FEE_KIND]!]!;
      old[k * WIDTH + FEE_KIND] = this.feeKind(fee.per, fee.rest, fee.asset);
      orders.push(this.orders[i]!);
      k++;
    }
    this.num = old.slice(0, Math.max(16, k * 2) * WIDTH);
    this.orders = orders;
    this.count = k;
  }

  /**
   * Index of a fee shape. The first few are looked up (maker and taker rates, in kind); past them
   * (fees that needed rounding or were paid in another asset, each its own amount) a shape is simply
   * appended, so a push stays O(1).
   */
  private feeKind(per: bigint, rest: bigint, asset: string): number {
    const kinds = this.feeKinds;
    const n = kinds.length < FEE_KINDS_SEARCHED ? kinds.length : FEE_KINDS_SEARCHED;
    for (let i = 0; i < n; i++) {
      const k = kinds[i]!;
      if (k.per === per && k.rest === rest && k.asset === asset) return i;
    }
    kinds.push({ per, rest, asset });
    return kinds.length - 1;
  }
}
