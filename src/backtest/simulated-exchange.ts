/**
 * The exchange a backtest trades on: the venue engine (through a VenueDriver: spot or contract), the
 * recorded market (ReplayMarket) and a fill model between them.
 *
 * The venue's book holds OUR orders only. The recorded book stays outside it, and meets our orders in
 * two ways, both going through the venue's own matching so that fees, balances, order states and
 * rejections are the venue's:
 *  - when an order of ours would take liquidity, the recorded levels it can reach are laid into the
 *    venue as crowd orders for the duration of that one placement (`withLiquidity`), the venue matches
 *    it, and whatever it took is marked consumed in the recorded book (ReplayBook.consume);
 *  - when the fill model says a resting order of ours fills (a recorded trade reached it through its
 *    queue, or the recorded book crossed its price), a crowd IOC at its price takes exactly that much.
 *
 * Requests travel with the model's latency: `submit` runs an operation at the venue `delay` ms after
 * it was sent and hands its answer back `responseMs` later. Everything is due at a virtual time; the
 * runner advances the clock to `nextDueAt()` and calls `runDue()` — nothing here sets a timer.
 */
import type { Clock } from '../core/clock.js';
import type { SeededRandom } from '../core/random.js';
import type { FillModel } from './fill-model.js';
import { allocateTradeAtPrice, initialAhead, onDepthChange, type QueuedOrder } from './queue-position.js';
import type { Side } from './replay-book.js';
import type { MarketListener, ReplayInstrument, ReplayMarket } from './replay-market.js';
import type { DataRecord } from '../marketdata/record/record.js';

/** What the exchange needs from a venue engine for the crowd (the recorded market's side). */
export interface VenueDriver {
  /**
   * Rests a crowd limit order (liquidity for one of our placements): its handle and the lots resting
   * (a venue may cap an order's size), or undefined if refused.
   */
  crowdRest(
    inst: ReplayInstrument,
    side: Side,
    priceTicks: number,
    lots: number,
  ): { readonly handle: string; readonly lots: number } | undefined;
  /** Lots of a crowd order still resting. */
  crowdRemaining(inst: ReplayInstrument, handle: string): number;
  crowdCancel(inst: ReplayInstrument, handle: string): void;
  /** A crowd IOC at `priceTicks` for `lots`: trades with our resting order(s) there. */
  crowdTake(inst: ReplayInstrument, takerSide: Side, priceTicks: number, lots: number): void;
  /** A recorded print (before the fill model sees it): last-price inputs of the venue. */
  onMarketTrade?(inst: ReplayInstrument, priceTicks: number, time: number): void;
  /** A recorded fair / index price or funding record. */
  onPrices?(inst: ReplayInstrument, record: DataRecord): void;
}

export interface OurRestingOrder extends QueuedOrder {
  readonly id: string;
  readonly inst: ReplayInstrument;
  readonly side: Side;
  readonly priceTicks: number;
  /** Placement order (FIFO among ours at one price). */
  readonly seq: number;
}

interface Due {
  readonly at: number;
  readonly seq: number;
  readonly run: () => void;
}

interface SideBook {
  /** Priority order: best price first, then FIFO. */
  orders: OurRestingOrder[];
  readonly byPrice: Map<number, OurRestingOrder[]>;
}

interface InstrumentOrders {
  readonly buy: SideBook;
  readonly sell: SideBook;
}

export interface ExchangeStats {
  /** Fills of our resting orders decided by the fill model. */
  makerFills: number;
  /** Placements of ours that met recorded liquidity. */
  takerPlacements: number;
  /** Fills by the recorded book crossing a resting order of ours. */
  crossFills: number;
}

const MAX_TAKER_LEVELS = 200;

export class SimulatedExchange implements MarketListener {
  readonly stats: ExchangeStats = { makerFills: 0, takerPlacements: 0, crossFills: 0 };
  private readonly due: Due[] = [];
  private dueSeq = 0;
  private readonly resting = new Map<string, OurRestingOrder>();
  private readonly perInstrument = new Map<ReplayInstrument, InstrumentOrders>();
  private orderSeq = 0;
  private readonly drivers = new Map<string, VenueDriver>();
  /** Set while our own placement runs: its fills are not the fill model's. */
  private placing = false;

  private readonly jitterMs: number;

  constructor(
    readonly clock: Clock,
    readonly market: ReplayMarket,
    readonly model: FillModel,
    /** Latency jitter draws (fill-model.ts); required when the model has jitter. */
    private readonly random?: SeededRandom,
  ) {
    market.setListener(this);
    this.jitterMs = model.latency.jitterMs ?? 0;
    if (this.jitterMs > 0 && !random) throw new RangeError('a fill model with latency jitter needs a SeededRandom');
  }

  private jitter(): number {
    return this.jitterMs > 0 ? this.random!.int(0, this.jitterMs) : 0;
  }

  /** The driver for instruments of one kind. */
  attach(kind: 'spot' | 'contract', driver: VenueDriver): void {
    this.drivers.set(kind, driver);
  }

  private driver(inst: ReplayInstrument): VenueDriver {
    const d = this.drivers.get(inst.kind);
    if (!d) throw new RangeError(`no ${inst.kind} venue attached to the simulated exchange`);
    return d;
  }

  // ------------------------------------------------------------------ latency

  /**
   * Runs `op` at the venue `delayMs` from now; the promise settles with its result `responseMs` after
   * that. With no latency at all it runs at once (still answered through a promise).
   */
  submit<T>(baseDelayMs: number, op: () => T): Promise<T> {
    const delayMs = baseDelayMs + this.jitter();
    const response = this.model.latency.responseMs + this.jitter();
    return new Promise<T>((resolve, reject) => {
      const exec = (): void => {
        let value: T;
        try {
          value = op();
        } catch (e) {
          if (response <= 0) reject(e);
          else this.schedule(this.clock.now() + response, () => reject(e));
          return;
        }
        if (response <= 0) resolve(value);
        else this.schedule(this.clock.now() + response, () => resolve(value));
      };
      if (delayMs <= 0) exec();
      else this.schedule(this.clock.now() + delayMs, exec);
    });
  }

  /** Something to do at a virtual time (ties run in the order they were scheduled). */
  schedule(at: number, run: () => void): void {
    const h = this.due;
    h.push({ at, seq: this.dueSeq++, run });
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!earlier(h[i]!, h[p]!)) break;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }

  nextDueAt(): number | undefined {
    return this.due[0]?.at;
  }

  /** Runs everything due at or before `now` (the clock must already be there). */
  runDue(now: number): number {
    let n = 0;
    while (this.due.length > 0 && this.due[0]!.at <= now) {
      popDue(this.due).run();
      n++;
    }
    return n;
  }

  /** Runs everything still pending at the current time (end of a run). */
  flush(): number {
    let n = 0;
    while (this.due.length > 0) {
      popDue(this.due).run();
      n++;
    }
    return n;
  }

  // ------------------------------------------------------------------ our placements

  /**
   * Lays the recorded levels an order of `takerSide` limited at `limitTicks` (undefined: market) can
   * reach into the venue as crowd orders, runs `place`, then takes the rest away and marks what was
   * taken as consumed. `enough(lots, tickLots)` stops the walk once a market order is covered.
   */
  withLiquidity<T>(
    inst: ReplayInstrument,
    takerSide: Side,
    limitTicks: number | undefined,
    enough: (lots: number, tickLots: number) => boolean,
    place: () => T,
  ): T {
    const makerSide: Side = takerSide === 'buy' ? 'sell' : 'buy';
    const book = inst.book;
    const shift = this.model.adverseTicks * (takerSide === 'buy' ? 1 : -1);
    const fraction = this.model.takerDepthFraction;
    const ours = this.sideBook(inst, takerSide).orders[0];
    const laid: { handle: string; recorded: number; placed: number }[] = [];
    /** Recorded levels the order could reach that adverse selection moved out of its reach. */
    const faded: number[] = [];
    let cumLots = 0;
    let cumTickLots = 0;
    const driver = this.driver(inst);
    const beyond = (price: number): boolean => limitTicks !== undefined && (takerSide === 'buy' ? price > limitTicks : price < limitTicks);
    // The recorded levels from the best, in one walk (laying crowd orders changes the venue's book,
    // not the recorded one).
    book.walkLevels(makerSide, (p) => {
      if (laid.length >= MAX_TAKER_LEVELS) return false;
      if (beyond(p)) return false;
      if (enough(cumLots, cumTickLots)) return false;
      const price = p + shift;
      if (beyond(price)) {
        faded.push(p);
        return true;
      }
      // A crowd order must not trade with a resting order of ours (the recording never met it).
      if (ours && (takerSide === 'buy' ? price <= ours.priceTicks : price >= ours.priceTicks)) return false;
      const lots = Math.floor(book.visibleLots(makerSide, p) * fraction);
      if (lots <= 0 || price <= 0) return true;
      const rest = driver.crowdRest(inst, makerSide, price, lots);
      if (rest === undefined) return true;
      laid.push({ handle: rest.handle, recorded: p, placed: rest.lots });
      cumLots += rest.lots;
      cumTickLots += rest.lots * price;
      return true;
    });
    if (laid.length > 0) this.stats.takerPlacements++;
    this.placing = true;
    try {
      return place();
    } finally {
      this.placing = false;
      for (const l of laid) {
        const rest = driver.crowdRemaining(inst, l.handle);
        // A level taken whole is gone whole: the part a depth fraction held back faded with it.
        if (rest === 0) book.consume(makerSide, l.recorded, book.visibleLots(makerSide, l.recorded));
        else {
          if (l.placed > rest) book.consume(makerSide, l.recorded, l.placed - rest);
          driver.crowdCancel(inst, l.handle);
        }
      }
      for (const p of faded) book.consume(makerSide, p, book.visibleLots(makerSide, p));
    }
  }

  // ------------------------------------------------------------------ our resting orders (drivers report)

  /** An order of ours rests on the venue's book with `lots` open: the fill model starts watching it. */
  orderResting(inst: ReplayInstrument, id: string, side: Side, priceTicks: number, lots: number): void {
    if (lots <= 0) return;
    const existing = this.resting.get(id);
    if (existing) this.remove(existing);
    const o: OurRestingOrder = {
      id,
      inst,
      side,
      priceTicks,
      seq: ++this.orderSeq,
      remaining: lots,
      ahead: initialAhead(this.model, inst.book.visibleLots(side, priceTicks)),
      tradedSinceDepth: 0,
    };
    this.resting.set(id, o);
    const sb = this.sideBook(inst, side);
    const better = side === 'buy' ? (a: number, b: number) => a > b : (a: number, b: number) => a < b;
    let i = sb.orders.length;
    while (i > 0 && better(priceTicks, sb.orders[i - 1]!.priceTicks)) i--;
    sb.orders.splice(i, 0, o);
    let level = sb.byPrice.get(priceTicks);
    if (!level) sb.byPrice.set(priceTicks, (level = []));
    level.push(o);
    this.listenAt(inst, side, sb);
    const io = this.perInstrument.get(inst)!;
    if (io.buy.orders.length + io.sell.orders.length === 1) this.market.watchLevels(inst, true);
    // An order placed into a book that already crosses it fills at once.
    this.checkCross(inst);
  }

  /** A resting order of ours filled `lots` (as maker). */
  orderFilled(id: string, lots: number): void {
    const o = this.resting.get(id);
    if (!o) return;
    o.remaining -= lots;
    if (o.remaining <= 0) this.remove(o);
  }

  /** An order of ours left the book (cancelled, filled, expired). */
  orderClosed(id: string): void {
    const o = this.resting.get(id);
    if (o) this.remove(o);
  }

  restingOrder(id: string): OurRestingOrder | undefined {
    return this.resting.get(id);
  }

  get restingCount(): number {
    return this.resting.size;
  }

  private remove(o: OurRestingOrder): void {
    this.resting.delete(o.id);
    const sb = this.sideBook(o.inst, o.side);
    const i = sb.orders.indexOf(o);
    if (i >= 0) sb.orders.splice(i, 1);
    const level = sb.byPrice.get(o.priceTicks);
    if (level) {
      const j = level.indexOf(o);
      if (j >= 0) level.splice(j, 1);
      if (level.length === 0) sb.byPrice.delete(o.priceTicks);
    }
    this.listenAt(o.inst, o.side, sb);
    const io = this.perInstrument.get(o.inst)!;
    if (io.buy.orders.length + io.sell.orders.length === 0) this.market.watchLevels(o.inst, false);
  }

  /**
   * The recorded book tells onLevel only of the prices between the best and the worst of our orders on
   * `side`: a change elsewhere moves no queue of ours (onLevel finds no order there), and hearing every
   * level of every diff doubled the book's cost per level while an order of ours rested.
   */
  private listenAt(inst: ReplayInstrument, side: Side, sb: SideBook): void {
    const n = sb.orders.length;
    if (n === 0) {
      inst.book.listenRange(side, Infinity, -Infinity);
      return;
    }
    const a = sb.orders[0]!.priceTicks;
    const b = sb.orders[n - 1]!.priceTicks;
    inst.book.listenRange(side, Math.min(a, b), Math.max(a, b));
  }

  private sideBook(inst: ReplayInstrument, side: Side): SideBook {
    let io = this.perInstrument.get(inst);
    if (!io) {
      io = { buy: { orders: [], byPrice: new Map() }, sell: { orders: [], byPrice: new Map() } };
      this.perInstrument.set(inst, io);
    }
    return side === 'buy' ? io.buy : io.sell;
  }

  // ------------------------------------------------------------------ MarketListener: the fill model

  onTrade(inst: ReplayInstrument, takerSide: Side, priceTicks: number, lots: number, time: number): void {
    this.drivers.get(inst.kind)?.onMarketTrade?.(inst, priceTicks, time);
    if (this.resting.size === 0) return;
    const makerSide: Side = takerSide === 'buy' ? 'sell' : 'buy';
    const orders = this.sideBook(inst, makerSide).orders;
    if (orders.length === 0) return;
    // Our best order on that side (the orders are best first) neither reached nor passed: none is. Most
    // prints of a run end here, before the closure and the list below are made.
    const bestTicks = orders[0]!.priceTicks;
    if (makerSide === 'buy' ? bestTicks < priceTicks : bestTicks > priceTicks) return;
    const buy = makerSide === 'buy';
    const fills: [OurRestingOrder, number][] = [];
    let left = lots;
    let i = 0;
    for (; i < orders.length; i++) {
      const o = orders[i]!;
      if (buy ? o.priceTicks <= priceTicks : o.priceTicks >= priceTicks) break;
      // The print happened beyond our price: the level we sat in was gone, queue and all.
      const f = this.model.tradeThroughFillsAll ? o.remaining : Math.min(o.remaining, left);
      if (!this.model.tradeThroughFillsAll) left -= f;
      if (f > 0) fills.push([o, f]);
    }
    if (left > 0 && i < orders.length && orders[i]!.priceTicks === priceTicks) {
      const group = this.sideBook(inst, makerSide).byPrice.get(priceTicks) ?? [];
      const got = allocateTradeAtPrice(group, left);
      for (let k = 0; k < group.length; k++) if (got[k]! > 0) fills.push([group[k]!, got[k]!]);
    }
    this.execute(inst, fills, false);
  }

  onLevel(inst: ReplayInstrument, side: Side, priceTicks: number, prevLots: number, newLots: number): void {
    if (this.resting.size === 0) return;
    const level = this.sideBook(inst, side).byPrice.get(priceTicks);
    if (!level) return;
    for (const o of level) onDepthChange(o, this.model, prevLots, newLots);
  }

  onPrices(inst: ReplayInstrument, record: DataRecord): void {
    this.drivers.get(inst.kind)?.onPrices?.(inst, record);
  }

  onBook(inst: ReplayInstrument): void {
    if (this.resting.size !== 0) this.checkCross(inst);
  }

  /** Resting orders of ours that the recorded opposite book now reaches fill in full at their price. */
  private checkCross(inst: ReplayInstrument): void {
    if (this.placing) return;
    // Asked after every depth change while an order of ours rests, and almost always answered "none":
    // the list is made only when an order is crossed.
    let fills: [OurRestingOrder, number][] | undefined;
    const bestAsk = inst.book.bestVisible('sell');
    if (bestAsk !== undefined)
      for (const o of this.sideBook(inst, 'buy').orders) if (o.priceTicks >= bestAsk) (fills ??= []).push([o, o.remaining]);
    const bestBid = inst.book.bestVisible('buy');
    if (bestBid !== undefined)
      for (const o of this.sideBook(inst, 'sell').orders) if (o.priceTicks <= bestBid) (fills ??= []).push([o, o.remaining]);
    if (fills === undefined) return;
    this.stats.crossFills += fills.length;
    this.execute(inst, fills, true);
  }

  private execute(inst: ReplayInstrument, fills: readonly [OurRestingOrder, number][], _cross: boolean): void {
    if (fills.length === 0) return;
    const driver = this.driver(inst);
    for (const [o, lots] of fills) {
      if (lots <= 0 || !this.resting.has(o.id)) continue;
      this.stats.makerFills++;
      driver.crowdTake(inst, o.side === 'buy' ? 'sell' : 'buy', o.priceTicks, Math.min(lots, o.remaining));
    }
  }
}

const earlier = (a: Due, b: Due): boolean => a.at < b.at || (a.at === b.at && a.seq < b.seq);

function popDue(h: Due[]): Due {
  const top = h[0]!;
  const last = h.pop()!;
  if (h.length > 0) {
    h[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && earlier(h[l]!, h[m]!)) m = l;
      if (r < h.length && earlier(h[r]!, h[m]!)) m = r;
      if (m === i) break;
      [h[i], h[m]] = [h[m]!, h[i]!];
      i = m;
    }
  }
  return top;
}
