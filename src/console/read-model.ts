/**
 * The console's view of a running bot. Live state (positions, open orders, balances, strategy
 * counters) is read from the runtime when asked; what the runtime does not keep is gathered here from
 * its event stream and bounded: the recent fills and denials, and once a second an equity, drawdown
 * and mid-price sample for the charts. Listeners (the SSE streams) hear of every event and sample.
 *
 * Everything handed out is plain JSON: decimals as strings, times as ms since the epoch.
 */
import type { Clock, TimerHandle } from '../core/clock.js';
import type { Decimal } from '../core/decimal.js';
import { fillToJson, type RunFillJson } from '../backtest/report/backtest-run.js';
import type { Balance } from '../domain/balance.js';
import type { ExecutionEvent } from '../domain/execution-event.js';
import { intentSymbol } from '../domain/intent.js';
import type { Order } from '../domain/order.js';
import type { Position } from '../domain/position.js';
import type { StrategyCounters } from '../runtime/run-stats.js';
import type { ConsoleRun, ConsoleRunInfo } from './console-port.js';
import { DeferredFeed } from './deferred-feed.js';
import { Ring } from './ring.js';

/** A fill as the backtest report writes it, with the strategy and the time under the console's name. */
export type FillLine = RunFillJson & { readonly ts: number; readonly strategyId: string | null };

export interface DenialLine {
  readonly ts: number;
  readonly strategyId: string | null;
  readonly intent: string;
  readonly symbol: string | null;
  readonly rule: string;
  readonly reason: string;
}

export interface LogLine {
  readonly ts: number;
  readonly level: string;
  readonly message: string;
}

export interface Sample {
  readonly ts: number;
  readonly equity: string | null;
  readonly drawdown: string | null;
  readonly mids: Readonly<Record<string, string>>;
}

/** What a live stream is told: an event (in short) or a new sample. */
export type Update = { readonly kind: 'event'; readonly event: EventLine } | { readonly kind: 'sample'; readonly sample: Sample };

export interface EventLine {
  readonly ts: number;
  readonly type: string;
  readonly strategyId: string | null;
  readonly symbol: string | null;
  readonly clientOrderId: string | null;
}

const dec = (d: Decimal | undefined): string | null => (d === undefined ? null : d.toFixed());

export function orderLine(o: Order): Record<string, unknown> {
  return {
    clientOrderId: o.clientOrderId,
    venueOrderId: o.venueOrderId ?? null,
    strategyId: o.strategyId,
    symbol: o.symbol,
    side: o.side,
    type: o.type,
    price: dec(o.price),
    quantity: dec(o.quantity),
    filled: dec(o.filledQty),
    status: o.status,
    slot: o.slot ?? null,
    positionSide: o.positionSide ?? null,
    reduceOnly: o.reduceOnly ?? false,
    createdAt: o.createdAt,
  };
}

export function positionLine(p: Position): Record<string, unknown> {
  const { symbol, kind, leg } = p;
  return { symbol, kind, leg, quantity: p.quantity.toFixed(), entryPrice: p.entryPrice.toFixed(), realizedPnl: p.realizedPnl.toFixed() };
}

export class ConsoleReadModel {
  private readonly fillRing = new Ring<FillLine>(500);
  private readonly denialRing = new Ring<DenialLine>(200);
  private readonly logRing = new Ring<LogLine>(300);
  private readonly sampleRing = new Ring<Sample>(3600);
  private readonly listeners = new Set<(batch: readonly Update[]) => void>();
  /** Updates not yet told: listeners hear them in one batch per turn of the event loop, off the trading path. */
  private queued: Update[] = [];
  /** Events are applied between snapshots, never inside one (see DeferredFeed). */
  private readonly feed = new DeferredFeed<ExecutionEvent>((e) => this.onEvent(e));
  private timer: TimerHandle | undefined;

  constructor(
    readonly run: ConsoleRun,
    readonly info: ConsoleRunInfo,
    private readonly clock: Clock,
    private readonly sampleMs = 1000,
  ) {}

  start(): void {
    this.feed.follow(this.run.events$);
    this.timer = this.clock.setInterval(this.sampleMs, () => this.sample());
  }

  stop(): void {
    this.feed.stop();
    this.clock.clearTimer(this.timer);
    this.listeners.clear();
  }

  /** Adds a live listener (told in batches); returns its removal. */
  listen(fn: (batch: readonly Update[]) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  /** A log line (from the console's winston transport). */
  log(level: string, message: string): void {
    this.logRing.push({ ts: this.clock.now(), level, message });
  }

  // ---------------------------------------------------------------- views

  status(): Record<string, unknown> {
    const s = this.run.status();
    return {
      mode: this.info.mode,
      venue: this.info.venue,
      now: s.now,
      uptimeMs: s.elapsedMs,
      valuationAsset: this.info.valuationAsset,
      instruments: this.info.instruments,
      equity: dec(s.equity),
      drawdown: dec(this.drawdown()),
      killSwitch: s.killSwitch ?? null,
      snapshots: s.snapshots,
      staleSnapshots: s.staleSnapshots,
      marks: Object.fromEntries(s.marks.map((m) => [m.symbol, dec(m.mid)])),
      totals: counters(s.totals),
    };
  }

  strategies(): Record<string, unknown>[] {
    const byId = new Map(this.run.status().strategies.map((s) => [s.id as string, s]));
    return this.info.strategies.map((d) => {
      const s = byId.get(d.id);
      return {
        id: d.id,
        name: d.name,
        instruments: d.instruments,
        params: d.params,
        state: this.run.isPaused(d.id) ? 'paused' : 'running',
        openOrders: s?.openOrders ?? 0,
        realizedPnl: dec(s?.realizedPnl),
        unrealizedPnl: dec(s?.unrealizedPnl),
        fees: dec(s?.fees),
        positions: (s?.positions ?? []).map((p) => ({ ...p, quantity: dec(p.quantity), entryPrice: dec(p.entryPrice) })),
        counters: s ? counters(s.counters) : null,
      };
    });
  }

  /** The account's positions per venue kind (the venue's word after each reconciliation) and each strategy's share. */
  positions(): Record<string, unknown> {
    const state = this.run.state;
    const open = (ps: readonly Position[]): Record<string, unknown>[] => ps.filter((p) => !p.quantity.isZero()).map(positionLine);
    const account = (['spot', 'contract'] as const).flatMap((k) => open(state.accountBook(k).positions()));
    const strategies = Object.fromEntries(this.info.strategies.map((d) => [d.id, open(state.positions(d.id as never))]));
    return { account, strategies };
  }

  openOrders(): Record<string, unknown>[] {
    return this.info.strategies.flatMap((d) => this.run.state.openOrders(d.id as never).map(orderLine));
  }

  balances(): Record<string, unknown>[] {
    const line = (b: Balance): Record<string, unknown> => ({
      asset: b.asset,
      free: dec(b.free),
      locked: dec(b.locked),
      equity: dec(b.equity),
    });
    return this.run.state.balances().map(line);
  }

  fills(limit?: number): FillLine[] {
    this.feed.drain();
    return this.fillRing.last(limit);
  }

  denials(limit?: number): DenialLine[] {
    this.feed.drain();
    return this.denialRing.last(limit);
  }

  logs(limit?: number): LogLine[] {
    return this.logRing.last(limit);
  }

  samples(limit?: number): Sample[] {
    return this.sampleRing.last(limit);
  }

  drawdown(): Decimal | undefined {
    const m = this.run.state.equity.metrics();
    if (!m.equity || !m.peakEquity || m.peakEquity.isZero()) return undefined;
    return m.peakEquity.minus(m.equity).div(m.peakEquity);
  }

  // ---------------------------------------------------------------- feed

  private onEvent(e: ExecutionEvent): void {
    // VenueFill: a fill the venue made itself (liquidation, TP/SL), booked to the position's owner.
    if (e.type === 'OrderFilled' || e.type === 'OrderPartiallyFilled' || e.type === 'VenueFill') {
      const f = e.fill;
      const strategyId = e.strategyId ?? f.strategyId ?? null;
      const clientOrderId = f.clientOrderId ?? (e.type === 'VenueFill' ? undefined : e.clientOrderId) ?? null;
      this.fillRing.push({ ...fillToJson(f), clientOrderId, ts: f.time, strategyId });
    } else if (e.type === 'IntentDenied') {
      const symbol = intentSymbol(e.intent) ?? null;
      this.denialRing.push({ ts: e.ts, strategyId: e.strategyId ?? null, intent: e.intent.kind, symbol, rule: e.rule, reason: e.reason });
    }
    if (this.listeners.size === 0) return;
    const event: EventLine = {
      ts: e.ts,
      type: e.type,
      strategyId: e.strategyId ?? null,
      symbol: 'symbol' in e ? e.symbol : e.type === 'OrderSubmitted' || e.type === 'OrderAdopted' ? e.order.symbol : null,
      clientOrderId: 'clientOrderId' in e && typeof e.clientOrderId === 'string' ? e.clientOrderId : null,
    };
    this.tell({ kind: 'event', event });
  }

  private sample(): void {
    this.feed.drain();
    const s = this.run.status();
    const mids: Record<string, string> = {};
    for (const m of s.marks) if (m.mid) mids[m.symbol] = m.mid.toFixed();
    const sample: Sample = { ts: s.now, equity: dec(s.equity), drawdown: dec(this.drawdown()), mids };
    this.sampleRing.push(sample);
    this.tell({ kind: 'sample', sample });
  }

  private tell(u: Update): void {
    if (this.queued.push(u) === 1) setImmediate(() => this.flush());
  }

  private flush(): void {
    const batch = this.queued;
    this.queued = [];
    for (const fn of this.listeners) {
      try {
        fn(batch);
      } catch {
        // A broken stream must not stop the others (its own close handler removes it).
      }
    }
  }
}

function counters(c: StrategyCounters): Record<string, unknown> {
  return { ...c, volume: c.volume.toFixed(), deniedBy: { ...c.deniedBy } };
}
