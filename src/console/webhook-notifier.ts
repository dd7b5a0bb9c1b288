/**
 * Notifications to a generic webhook: a JSON POST per fill, kill-switch trip, position drift, start
 * and stop. Sent one at a time in order; a 5xx, a 429 or a network failure is tried again after
 * retryDelayMs, doubled each time, up to maxAttempts; a 4xx is not (the receiver refused it). Only the
 * URL's host is ever logged, and the body goes through the redactor (no key, secret or token in it).
 */
import { request } from 'undici';
import type { Observable, Subscription } from 'rxjs';
import { fillToJson } from '../backtest/report/backtest-run.js';
import type { ClientLogger } from '../client/catalogue-client.js';
import type { Clock } from '../core/clock.js';
import { globalRedactor } from '../core/redact.js';
import type { ExecutionEvent } from '../domain/execution-event.js';
import type { WebhookConfig, WebhookEventName } from '../runtime/config/console-config.js';
import { Ring } from './ring.js';

export interface WebhookNotice {
  readonly source: 'perpetua';
  readonly kind: WebhookEventName;
  readonly ts: number;
  readonly text: string;
  readonly data: Readonly<Record<string, unknown>>;
}

export interface WebhookStats {
  sent: number;
  failed: number;
  attempts: number;
}

/** One notice's fate, as the console's webhook section lists it. */
export interface WebhookDelivery {
  readonly ts: number;
  readonly kind: WebhookEventName;
  readonly text: string;
  readonly delivered: boolean;
  readonly attempts: number;
  /** Why the last attempt failed (HTTP status or error name), or null when delivered. */
  readonly error: string | null;
  /** Clock time the notice was delivered or given up. */
  readonly doneAt: number;
}

/** What the console shows of the webhook: its target (host only), settings, counts and recent deliveries. */
export interface WebhookView {
  readonly configured: true;
  readonly host: string;
  readonly events: readonly WebhookEventName[];
  readonly maxAttempts: number;
  readonly retryDelayMs: number;
  readonly timeoutMs: number;
  readonly stats: WebhookStats;
  readonly queued: number;
  readonly deliveries: readonly WebhookDelivery[];
}

export class WebhookNotifier {
  readonly stats: WebhookStats = { sent: 0, failed: 0, attempts: 0 };
  private readonly deliveries = new Ring<WebhookDelivery>(50);
  private readonly queue: WebhookNotice[] = [];
  private sending: Promise<void> | undefined;
  private sub: Subscription | undefined;
  private readonly host: string;

  constructor(
    private readonly cfg: WebhookConfig,
    private readonly clock: Clock,
    private readonly logger: ClientLogger,
  ) {
    this.host = new URL(cfg.url).host;
  }

  /** Follows the runtime's events: fills, kill-switch trips and drifts become notices. */
  attach(events$: Observable<ExecutionEvent>): void {
    this.sub = events$.subscribe((e) => {
      if (e.type === 'OrderFilled' || e.type === 'OrderPartiallyFilled' || e.type === 'VenueFill') {
        const f = e.fill;
        const data = {
          ...fillToJson(f),
          strategyId: e.strategyId ?? f.strategyId ?? null,
          clientOrderId: f.clientOrderId ?? (e.type === 'VenueFill' ? null : e.clientOrderId),
          byVenue: e.type === 'VenueFill',
        };
        this.notify('fill', `${data.strategyId ?? '-'} ${f.side} ${data.quantity} ${f.symbol} @ ${data.price}`, data);
      } else if (e.type === 'KillSwitchTripped') {
        this.notify('kill-switch', `kill switch ${e.rule}: ${e.reason}`, { rule: e.rule, reason: e.reason });
      } else if (e.type === 'PositionDrift') {
        const text = `position drift ${e.symbol} ${e.leg}: ours ${e.localQuantity.toFixed()}, exchange ${e.venueQuantity.toFixed()}`;
        this.notify('drift', text, {
          symbol: e.symbol,
          leg: e.leg,
          localQuantity: e.localQuantity.toFixed(),
          venueQuantity: e.venueQuantity.toFixed(),
        });
      }
    });
  }

  detach(): void {
    this.sub?.unsubscribe();
  }

  notify(kind: WebhookEventName, text: string, data: Record<string, unknown> = {}): void {
    if (!this.cfg.events.includes(kind)) return;
    this.queue.push({ source: 'perpetua', kind, ts: this.clock.now(), text, data });
    this.sending ??= this.drain();
  }

  /** The console's view: never the URL itself (it often carries a token), only its host. */
  view(): WebhookView {
    const { events, maxAttempts, retryDelayMs, timeoutMs } = this.cfg;
    const queued = this.queue.length + (this.sending ? 1 : 0);
    const stats = { ...this.stats };
    const deliveries = this.deliveries.last();
    return { configured: true, host: this.host, events, maxAttempts, retryDelayMs, timeoutMs, stats, queued, deliveries };
  }

  /** Resolves when every queued notice is sent or given up. */
  async idle(): Promise<void> {
    while (this.sending) await this.sending;
  }

  private async drain(): Promise<void> {
    try {
      for (let n = this.queue.shift(); n !== undefined; n = this.queue.shift()) await this.send(n);
    } finally {
      this.sending = undefined;
    }
  }

  private async send(n: WebhookNotice): Promise<void> {
    const body = globalRedactor.redact(JSON.stringify(n));
    let delay = this.cfg.retryDelayMs;
    let why = '';
    let tries = 0;
    for (let attempt = 1; attempt <= this.cfg.maxAttempts; attempt++) {
      this.stats.attempts++;
      tries = attempt;
      try {
        const res = await request(this.cfg.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'perpetua-webhook' },
          body,
          headersTimeout: this.cfg.timeoutMs,
          bodyTimeout: this.cfg.timeoutMs,
        });
        await res.body.dump();
        if (res.statusCode < 300) {
          this.stats.sent++;
          this.record(n, true, attempt, null);
          return;
        }
        why = `HTTP ${res.statusCode}`;
        if (res.statusCode < 500 && res.statusCode !== 429) break;
      } catch (e) {
        why = e instanceof Error ? e.name : 'error';
      }
      if (attempt < this.cfg.maxAttempts) {
        await this.clock.sleep(delay);
        delay *= 2;
      }
    }
    this.stats.failed++;
    this.record(n, false, tries, why);
    this.logger.warn(`webhook ${this.host}: ${n.kind} notice not delivered (${why})`);
  }

  private record(n: WebhookNotice, delivered: boolean, attempts: number, error: string | null): void {
    this.deliveries.push({ ts: n.ts, kind: n.kind, text: n.text, delivered, attempts, error, doneAt: this.clock.now() });
  }
}
