/**
 * Prometheus metrics of a running bot (prom-client, a registry of its own so two runs in one process
 * never share counters). Counters follow the runtime's events; gauges are read from the live state at
 * scrape time. Label values come only from the config (strategy ids, symbols), from fixed lists
 * (actions) or from the risk engine's rule names: anything else is folded into `other`, so the label
 * sets stay bounded however long the bot runs. Rule names are code-defined; at most MAX_RULES distinct ones
 * get a label of their own.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { type ExchangeCall, observeTransport } from '../client/transport.js';
import type { Clock } from '../core/clock.js';
import type { ExecutionEvent } from '../domain/execution-event.js';
import type { ConsoleRun, ConsoleRunInfo } from './console-port.js';
import { DeferredFeed } from './deferred-feed.js';

const MAX_RULES = 64;
/** Endpoint ids are code-defined (`spot.placeOrder`); a bound all the same, in case a caller names paths. */
const MAX_ENDPOINTS = 128;
const ENDPOINT_ID = /^[a-z][A-Za-z0-9]{0,15}\.[A-Za-z0-9]{1,63}$/;

/** An exchange answer's label: its HTTP status class (429 on its own: it is the rate limit), or how it failed. */
export function outcomeLabel(outcome: ExchangeCall['outcome']): string {
  if (typeof outcome !== 'number') return outcome;
  return outcome === 429 ? '429' : `${Math.floor(outcome / 100)}xx`;
}

const ORDER_ACTIONS: Partial<Record<ExecutionEvent['type'], string>> = {
  OrderSubmitted: 'placed',
  OrderAmended: 'amended',
  OrderReplaced: 'amended',
  OrderRejected: 'rejected',
  OrderCancelRejected: 'cancel_rejected',
  OrderAmendRejected: 'amend_rejected',
};

export class ConsoleMetrics {
  readonly registry = new Registry();
  private readonly strategies: ReadonlySet<string>;
  private readonly symbols: ReadonlySet<string>;
  private readonly rules = new Set<string>();
  private readonly orders: Counter<'strategy' | 'symbol' | 'action'>;
  private readonly fills: Counter<'strategy' | 'symbol'>;
  private readonly notional: Counter<'strategy' | 'symbol'>;
  private readonly denials: Counter<'strategy' | 'rule'>;
  private readonly drifts: Counter<'symbol'>;
  private readonly killSwitch: Counter;
  readonly httpLatency: Histogram<'route' | 'method' | 'status'>;
  private readonly exchangeLatency: Histogram<'endpoint' | 'outcome'>;
  private readonly exchangeWeight: Counter<'endpoint'>;
  private readonly endpoints = new Set<string>();
  /** Exchange calls are counted between snapshots too: the observer only queues them. */
  private readonly calls = new DeferredFeed<ExchangeCall>((c) => this.onExchangeCall(c));
  private unobserve: (() => void) | undefined;
  /** Counters follow the events between snapshots, never inside one (see DeferredFeed); a scrape drains first. */
  private readonly feed = new DeferredFeed<ExecutionEvent>((e) => this.onEvent(e));
  /** Label children by key: inc() on a cached child skips prom-client's per-call label hashing (hot path). */
  private readonly children = new Map<string, { inc(v?: number): void }>();

  constructor(
    private readonly run: ConsoleRun,
    info: ConsoleRunInfo,
    clock: Clock,
  ) {
    this.strategies = new Set(info.strategies.map((s) => s.id));
    this.symbols = new Set(info.instruments);
    const registers = [this.registry];
    const bySymbol = ['strategy', 'symbol'] as const;
    this.orders = new Counter({
      name: 'perpetua_orders_total',
      help: 'Order actions by strategy, symbol and action (placed, amended, cancelled, rejected …).',
      labelNames: [...bySymbol, 'action'],
      registers,
    });
    const fillsHelp = 'Fill events (partial and complete).';
    this.fills = new Counter({ name: 'perpetua_fills_total', help: fillsHelp, labelNames: bySymbol, registers });
    this.notional = new Counter({
      name: 'perpetua_traded_notional_total',
      help: 'Traded quote value: price × quantity (× contract size).',
      labelNames: bySymbol,
      registers,
    });
    this.denials = new Counter({
      name: 'perpetua_risk_denials_total',
      help: 'Intents the risk engine (or a pause) denied, by rule.',
      labelNames: ['strategy', 'rule'],
      registers,
    });
    this.drifts = new Counter({
      name: 'perpetua_reconcile_drift_total',
      help: 'Reconciliations that found the venue position differing from ours.',
      labelNames: ['symbol'],
      registers,
    });
    this.killSwitch = new Counter({ name: 'perpetua_kill_switch_trips_total', help: 'Kill-switch trips.', registers });
    this.httpLatency = new Histogram({
      name: 'perpetua_console_request_duration_seconds',
      help: 'Console API request latency per route.',
      labelNames: ['route', 'method', 'status'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers,
    });
    this.exchangeLatency = new Histogram({
      name: 'perpetua_exchange_request_duration_seconds',
      help: 'Exchange REST request latency per endpoint (catalogue id) and outcome (2xx, 4xx, 429, 5xx, connect, timeout, reset).',
      labelNames: ['endpoint', 'outcome'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
      registers,
    });
    this.exchangeWeight = new Counter({
      name: 'perpetua_exchange_weight_total',
      help: "Rate-limit weight sent per endpoint (the catalogue's weight of each request, retries included).",
      labelNames: ['endpoint'],
      registers,
    });
    const state = run.state;
    new Gauge({
      name: 'perpetua_equity',
      help: `Account equity in ${info.valuationAsset} (absent until every asset can be valued).`,
      registers,
      collect() {
        const e = state.equity.metrics().equity;
        if (e) this.set(e.toNumber());
      },
    });
    new Gauge({
      name: 'perpetua_drawdown_ratio',
      help: 'Drawdown from the peak equity of the run, 0..1.',
      registers,
      collect() {
        const m = state.equity.metrics();
        if (m.equity && m.peakEquity && !m.peakEquity.isZero()) this.set(m.peakEquity.minus(m.equity).div(m.peakEquity).toNumber());
      },
    });
    const symbols = this.symbols;
    new Gauge({
      name: 'perpetua_position',
      help: 'Account position per symbol and leg (base units for spot inventory, contracts for perpetuals).',
      labelNames: ['symbol', 'leg'],
      registers,
      collect() {
        this.reset();
        for (const kind of ['spot', 'contract'] as const) {
          for (const p of state.accountBook(kind).positions()) {
            if (symbols.has(p.symbol)) this.set({ symbol: p.symbol, leg: p.leg }, p.quantity.toNumber());
          }
        }
      },
    });
    new Gauge({
      name: 'perpetua_marketdata_age_seconds',
      help: 'Age of the newest snapshot per symbol.',
      labelNames: ['symbol'],
      registers,
      collect() {
        const now = clock.now();
        for (const s of symbols) {
          const snap = state.lastSnapshot(s as never);
          if (snap) this.set({ symbol: s }, (now - snap.pollTime) / 1000);
        }
      },
    });
    new Gauge({
      name: 'perpetua_strategy_paused',
      help: '1 while a strategy is paused from the console.',
      labelNames: ['strategy'],
      registers,
      collect() {
        for (const s of info.strategies) this.set({ strategy: s.id }, run.isPaused(s.id) ? 1 : 0);
      },
    });
    new Gauge({
      name: 'perpetua_open_orders',
      help: 'Open orders per strategy.',
      labelNames: ['strategy'],
      registers,
      collect() {
        for (const s of info.strategies) this.set({ strategy: s.id }, state.openOrders(s.id as never).length);
      },
    });
    new Gauge({
      name: 'perpetua_stale_snapshots',
      help: 'Snapshots dropped as too old since the start of the run.',
      registers,
      collect() {
        this.set(run.status().staleSnapshots);
      },
    });
  }

  start(): void {
    this.feed.follow(this.run.events$);
    this.unobserve = observeTransport((c) => this.calls.push(c));
  }

  stop(): void {
    this.feed.stop();
    this.unobserve?.();
    this.calls.stop();
  }

  /** The text exposition format. */
  text(): Promise<string> {
    this.feed.drain();
    this.calls.drain();
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  onEvent(e: ExecutionEvent): void {
    const strategy = this.strategyLabel(e.strategyId);
    switch (e.type) {
      case 'OrderFilled':
      case 'OrderPartiallyFilled':
      case 'VenueFill': {
        const symbol = this.symbolLabel(e.fill.symbol);
        this.child(this.fills, 'f', strategy, symbol).inc();
        const i = this.run.state.instrument(e.fill.symbol);
        const size = i?.kind === 'contract' ? i.contractSize.toNumber() : 1;
        this.child(this.notional, 'n', strategy, symbol).inc(e.fill.price.toNumber() * e.fill.quantity.toNumber() * size);
        return;
      }
      case 'OrderCancelled':
        // The cancel half of a spot amend is counted as the amend (OrderReplaced), as the run stats do.
        if (e.reason !== 'replaced') this.child(this.orders, 'o', strategy, this.symbolLabel(e.symbol), 'cancelled').inc();
        return;
      case 'IntentDenied':
        if (!this.rules.has(e.rule) && this.rules.size < MAX_RULES && /^[a-z][a-z0-9-]{0,47}$/.test(e.rule)) this.rules.add(e.rule);
        this.denials.inc({ strategy, rule: this.rules.has(e.rule) ? e.rule : 'other' });
        return;
      case 'PositionDrift':
        this.drifts.inc({ symbol: this.symbolLabel(e.symbol) });
        return;
      case 'KillSwitchTripped':
        this.killSwitch.inc();
        return;
      default: {
        const action = ORDER_ACTIONS[e.type];
        if (!action) return;
        const symbol = e.type === 'OrderSubmitted' ? e.order.symbol : 'symbol' in e ? e.symbol : undefined;
        this.child(this.orders, 'o', strategy, this.symbolLabel(symbol), action).inc();
      }
    }
  }

  /** One exchange request: its latency by endpoint and outcome, and the weight it used. */
  onExchangeCall(c: ExchangeCall): void {
    const known = this.endpoints.has(c.endpoint);
    if (!known && this.endpoints.size < MAX_ENDPOINTS && ENDPOINT_ID.test(c.endpoint)) this.endpoints.add(c.endpoint);
    const endpoint = this.endpoints.has(c.endpoint) ? c.endpoint : 'other';
    this.exchangeLatency.observe({ endpoint, outcome: outcomeLabel(c.outcome) }, c.ms / 1000);
    this.child(this.exchangeWeight, 'w', endpoint).inc(c.weight);
  }

  private child(counter: Counter<string>, tag: string, ...values: string[]): { inc(v?: number): void } {
    const key = `${tag}|${values.join('|')}`;
    let c = this.children.get(key);
    if (!c) this.children.set(key, (c = counter.labels(...values)));
    return c;
  }

  private strategyLabel(id: string | undefined): string {
    return id === undefined ? 'none' : this.strategies.has(id) ? id : 'other';
  }

  private symbolLabel(symbol: string | undefined): string {
    return symbol !== undefined && this.symbols.has(symbol) ? symbol : 'other';
  }
}
