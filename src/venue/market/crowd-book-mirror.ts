/**
 * Reproduces a given L2 book (a recording's or a live venue's) as crowd orders through a
 * LiquidityPort, so our resting orders sit in real queues: each sync makes the crowd's resting lots
 * per price equal to the target.
 *
 * Order of operations keeps the crowd from ever crossing itself: first every reduction (a level gone
 * or smaller: crowd orders there are cancelled newest first, so those ahead of ours stay ahead as
 * long as they fit the new size), then every addition (a new order joins the back of its level). A target that crosses one
 * of OUR resting orders trades with it, which is what would have happened on the real venue.
 */
import type { BookSide, LiquidityPort } from './liquidity-port.js';

/** [priceTicks, lots], best first. */
export type TargetLevel = readonly [priceTicks: number, lots: number];

interface CrowdOrder {
  readonly id: string;
  lots: number;
}

export class CrowdBookMirror {
  private readonly bids = new Map<number, CrowdOrder[]>();
  private readonly asks = new Map<number, CrowdOrder[]>();

  constructor(
    private readonly port: LiquidityPort,
    readonly symbol: string,
  ) {}

  sync(bids: readonly TargetLevel[], asks: readonly TargetLevel[]): void {
    this.refresh(this.bids);
    this.refresh(this.asks);
    this.shrink(this.bids, new Map(bids));
    this.shrink(this.asks, new Map(asks));
    this.grow('buy', this.bids, bids);
    this.grow('sell', this.asks, asks);
  }

  /** Crowd lots this mirror has resting at a price. */
  lotsAt(side: BookSide, priceTicks: number): number {
    const q = (side === 'buy' ? this.bids : this.asks).get(priceTicks);
    return q ? q.reduce((s, o) => s + o.lots, 0) : 0;
  }

  /** Cancels everything this mirror placed. */
  clear(): void {
    for (const side of [this.bids, this.asks]) {
      for (const q of side.values()) for (const o of q) this.port.cancel(this.symbol, o.id);
      side.clear();
    }
  }

  private refresh(side: Map<number, CrowdOrder[]>): void {
    for (const [price, q] of side) {
      let w = 0;
      for (const o of q) {
        const rem = this.port.remaining(this.symbol, o.id);
        if (rem > 0) {
          o.lots = rem;
          q[w++] = o;
        }
      }
      q.length = w;
      if (w === 0) side.delete(price);
    }
  }

  private shrink(side: Map<number, CrowdOrder[]>, target: ReadonlyMap<number, number>): void {
    for (const [price, q] of side) {
      const want = target.get(price) ?? 0;
      let have = q.reduce((s, o) => s + o.lots, 0);
      while (have > want && q.length > 0) {
        const o = q.pop()!;
        this.port.cancel(this.symbol, o.id);
        have -= o.lots;
      }
      if (q.length === 0) side.delete(price);
    }
  }

  private grow(bookSide: BookSide, side: Map<number, CrowdOrder[]>, target: readonly TargetLevel[]): void {
    for (const [price, lots] of target) {
      const q = side.get(price);
      const have = q ? q.reduce((s, o) => s + o.lots, 0) : 0;
      if (lots <= have) continue;
      const want = lots - have;
      const r = this.port.place(this.symbol, bookSide, price, want, 'limit');
      const rest = want - r.filledLots;
      if (r.id === undefined || rest <= 0) continue;
      if (q) q.push({ id: r.id, lots: rest });
      else side.set(price, [{ id: r.id, lots: rest }]);
    }
  }
}
