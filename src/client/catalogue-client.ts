/**
 * The engine behind SpotClient and ContractClient: one generic `call(def, input)` over any catalogue
 * entry — validate, wait for the rate limiter, build and sign with server-aligned time, send, decode —
 * plus the retry policy:
 *   - a write (placement entry or any non-GET) that times out, is reset, or gets a 5xx after it may
 *     have reached the venue → OutcomeUnknown carrying the request's client order ids; NEVER re-sent;
 *   - a GET that fails transiently → retried with exponential backoff and seeded jitter;
 *   - 429 / contract 510 → wait Retry-After, else 1, 2, 5, 10 s, then send again (the venue refused it,
 *     so a re-send cannot duplicate anything);
 *   - spot 700003 / contract 513 (timestamp rejected) → resync the clock offset, send once more;
 *   - during start-up (`startupRetry`, until `endStartup()` or its deadline) a read, a server-time sample
 *     or a write that provably never left (refused connection) is retried on any transient error until
 *     the deadline instead of a fixed number of times: one slow answer or one 429 must not end a run
 *     before it began.
 * Every wait is on the injected Clock. Error messages and log lines go through a Redactor that knows
 * this client's key and secret.
 */
import { type EndpointDef, weightOf } from '../api/endpoint.js';
import type { Clock } from '../core/clock.js';
import { ExchangeUnavailable, OutcomeUnknown, PerpetuaError, RateLimited, RequestTimeout } from '../core/errors.js';
import { isTransient, transientDelay } from '../core/transient-retry.js';
import { Redactor } from '../core/redact.js';
import { SeededRandom } from '../core/random.js';
import { ContractSigner } from './contract-signer.js';
import type { Credentials } from './credentials.js';
import { PRIORITY, RateLimiter, type Permit, type RateLimitConfig } from './rate-limiter.js';
import { assertBuildable, buildValidated, validateRequest, type PreparedRequest } from './request-builder.js';
import { decodeResponse, retryAfterMs } from './response-decoder.js';
import { SpotSigner } from './spot-signer.js';
import { TimeSync, type TimeSample } from './time-sync.js';
import { HttpTransport, TransportFailure, type Transport, type TransportTimeouts } from './transport.js';

/** Anything with a uniform [0, 1) draw; SeededRandom fits. */
export interface RandomSource {
  next(): number;
}

/** winston-compatible subset. */
export interface ClientLogger {
  debug(message: string, meta?: Record<string, unknown>): void;
  info(message: string, meta?: Record<string, unknown>): void;
  warn(message: string, meta?: Record<string, unknown>): void;
  error(message: string, meta?: Record<string, unknown>): void;
}

export interface RetryOptions {
  /** Extra attempts for a GET after a timeout, reset, connect failure or 5xx. */
  readonly maxRetries: number;
  /** Backoff before retry n (0-based): min(maxDelayMs, baseDelayMs·2ⁿ) · (0.5 + 0.5·random). */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** Waits after a 429 without Retry-After, by occurrence; the last repeats. */
  readonly rateLimitWaitsMs: readonly number[];
  /** How many 429s in a row one call sits out before giving up with RateLimited. */
  readonly maxRateLimitRetries: number;
}

export const DEFAULT_RETRY: RetryOptions = Object.freeze({
  maxRetries: 3,
  baseDelayMs: 250,
  maxDelayMs: 5_000,
  rateLimitWaitsMs: Object.freeze([1_000, 2_000, 5_000, 10_000]),
  maxRateLimitRetries: 4,
});

export interface TimeSyncSettings {
  /** Median over the last N samples (default 7). */
  readonly windowSize?: number;
  /** Round trips per sync (default 3). */
  readonly samplesPerSync?: number;
  /** Background refresh after this age (default 5 min). */
  readonly resyncIntervalMs?: number;
}

export interface ClientOptions {
  readonly baseUrl: string;
  readonly credentials?: Credentials;
  readonly clock: Clock;
  /** Jitter source for GET backoff (a SeededRandom; default: one with a fixed seed). */
  readonly random?: RandomSource;
  /** Spot recvWindow in ms (default 5000); contract Recv-Window is sent (in s, rounded up) only when set. */
  readonly recvWindow?: number;
  readonly retry?: Partial<RetryOptions>;
  /** Bucket limits, or false to switch the client-side limiter off. */
  readonly rateLimits?: Partial<RateLimitConfig> | false;
  /** Share one limiter between clients that share an IP (spot and contract on one host). */
  readonly rateLimiter?: RateLimiter;
  readonly logger?: ClientLogger;
  readonly timeouts?: Partial<TransportTimeouts>;
  /** Server-time alignment; false uses the local clock as is. */
  readonly timeSync?: TimeSyncSettings | false;
  /** Injected transport (tests); by default an undici keep-alive pool shared per base URL. */
  readonly transport?: Transport;
  /** Max sockets per origin for the default transport. */
  readonly connections?: number;
  /** Start-up patience: transient failures are retried until this long after construction (or endStartup()). */
  readonly startupRetry?: { readonly deadlineMs: number };
}

export interface CallOptions {
  /** Whole-request deadline on the client's clock. */
  readonly timeoutMs?: number;
  /** Extra headers (e.g. `timezone-login`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Overrides `retry.maxRetries` for this GET. */
  readonly maxRetries?: number;
}

/** How the engine reads the venue's clock: a path and a body → serverTime parser. */
export interface ServerTimeSource {
  readonly path: string;
  readonly parse: (body: unknown) => number | undefined;
  readonly permits: readonly Permit[];
}

const SIGNATURE_IN_QUERY = /([?&]signature=)[^&]*/;

export class CatalogueClient {
  readonly clock: Clock;
  readonly timeSync: TimeSync | undefined;
  readonly rateLimiter: RateLimiter | undefined;
  private readonly transport: Transport;
  private readonly random: RandomSource;
  private readonly retry: RetryOptions;
  private readonly recvWindowMs: number | undefined;
  private readonly spotSigner: SpotSigner | undefined;
  private readonly contractSigner: ContractSigner | undefined;
  private readonly logger: ClientLogger | undefined;
  /** Closure over a Redactor: a field holding the Redactor itself would show the secrets to util.inspect. */
  private readonly redact: (text: string) => string;
  private closed = false;
  /** End of start-up patience (clock ms); undefined once start-up is over. */
  private startupUntil: number | undefined;

  constructor(
    readonly api: EndpointDef['api'],
    options: ClientOptions,
    timeSource: ServerTimeSource,
  ) {
    this.clock = options.clock;
    this.transport =
      options.transport ??
      new HttpTransport({ baseUrl: options.baseUrl, clock: options.clock, timeouts: options.timeouts, connections: options.connections });
    // A fixed seed keeps an un-configured client deterministic too.
    this.random = options.random ?? new SeededRandom('perpetua.client.backoff');
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    if (options.startupRetry) this.startupUntil = options.clock.now() + options.startupRetry.deadlineMs;
    this.recvWindowMs = options.recvWindow ?? (api === 'spot' ? 5_000 : undefined);
    this.logger = options.logger;
    const redactor = new Redactor();
    this.redact = (text) => redactor.redact(text);
    if (options.credentials) {
      const { apiKey, secretKey } = options.credentials;
      redactor.register(apiKey, secretKey);
      if (api === 'spot') this.spotSigner = new SpotSigner(options.credentials);
      else this.contractSigner = new ContractSigner(options.credentials);
    }
    this.rateLimiter =
      options.rateLimiter ?? (options.rateLimits === false ? undefined : new RateLimiter(options.clock, options.rateLimits ?? {}));
    this.timeSync =
      options.timeSync === false
        ? undefined
        : new TimeSync({
            clock: options.clock,
            fetchSample: () => this.serverTimeSample(timeSource),
            ...options.timeSync,
            onError: (e) => this.log('warn', 'time sync failed; keeping the previous offset', { error: this.redact(String(e)) }),
          });
  }

  /** Calls one catalogue entry. Rejects with a PerpetuaError (ValidationError before anything is sent). */
  async call<T>(def: EndpointDef, input: unknown, opts: CallOptions = {}): Promise<T> {
    try {
      return await this.callInner<T>(def, input, opts);
    } catch (e) {
      throw this.scrub(e);
    }
  }

  /** Forces a time sync now (start-up, tests). */
  async syncTime(): Promise<void> {
    if (this.timeSync) await this.timeSync.sync();
  }

  /** Start-up is over: from now on the ordinary retry policy (a few retries, then the error) applies. */
  endStartup(): void {
    this.startupUntil = undefined;
  }

  /** Still starting up: transient failures are retried until the start-up deadline. */
  private patient(): boolean {
    return this.startupUntil !== undefined && this.clock.now() < this.startupUntil;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.transport.close();
  }

  private async callInner<T>(def: EndpointDef, input: unknown, opts: CallOptions): Promise<T> {
    if (this.closed) throw new ExchangeUnavailable(`${def.id}: client is closed`, { endpoint: def.id });
    const value = validateRequest(def, input);
    // Missing credentials, path parameters or required headers fail here, before any wait or send.
    assertBuildable(def, value, { hasSigner: this.api === 'spot' ? !!this.spotSigner : !!this.contractSigner, headers: opts.headers });
    const signed = def.auth === 'signed';
    const paramsForWeight = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
    const permits = this.rateLimiter?.permitsFor(def, paramsForWeight) ?? [];
    const priority = this.rateLimiter?.priorityOf(def) ?? PRIORITY.NORMAL;
    const isWrite = def.placement === true || def.method !== 'GET';
    const maxRetries = opts.maxRetries ?? this.retry.maxRetries;
    let attempt = 0;
    let rateLimitHits = 0;
    let resynced = false;

    for (;;) {
      if (signed && this.timeSync) {
        try {
          await this.timeSync.ensureFresh();
        } catch (e) {
          // Nothing was sent for this call yet. A 429 on the server-time sample is waited out like any
          // other (Retry-After, a few times); other failures of the sample are retried at start-up only.
          if (e instanceof RateLimited && (rateLimitHits < this.retry.maxRateLimitRetries || this.patient())) {
            rateLimitHits++;
            this.log('warn', 'rate limited on the server time; waiting', { endpoint: def.id, waitMs: e.retryAfterMs ?? 1_000 });
            await this.clock.sleep(e.retryAfterMs ?? 1_000);
            continue;
          }
          if (!isTransient(e) || !this.patient()) throw e;
          await this.backoff(def, attempt++, e);
          continue;
        }
      }
      if (this.rateLimiter) await this.rateLimiter.acquire(permits, priority);
      // Built (and timestamped) after the wait, or a queued request would arrive stale.
      const prepared = this.prepare(def, value, opts);
      this.log('debug', 'request', {
        endpoint: def.id,
        method: prepared.method,
        path: prepared.path.replace(SIGNATURE_IN_QUERY, '$1***'),
        attempt,
      });

      let answer;
      try {
        const { method, path, headers, body } = prepared;
        const weight = weightOf(def, paramsForWeight);
        answer = await this.transport.send({ method, path, headers, body, timeoutMs: opts.timeoutMs, endpoint: def.id, weight });
      } catch (e) {
        if (!(e instanceof TransportFailure)) throw e;
        if (e.maybeSent && isWrite) throw this.outcomeUnknown(def, prepared, e.kind === 'timeout' ? 'a timeout' : 'a lost connection', e);
        const err =
          e.kind === 'timeout'
            ? new RequestTimeout(`${def.id}: ${e.message}`, { endpoint: def.id }, { cause: e })
            : new ExchangeUnavailable(`${def.id}: ${e.message}`, { endpoint: def.id }, { cause: e });
        // A write that provably never left (connect failure) is not re-sent automatically either: the caller
        // decides — except at start-up, where the venue may simply not be up yet.
        if ((!isWrite && (attempt < maxRetries || this.patient())) || (isWrite && !e.maybeSent && this.patient())) {
          await this.backoff(def, attempt++, err);
          continue;
        }
        throw err;
      }

      this.log('debug', 'answer', { endpoint: def.id, status: answer.status, ms: answer.receivedAt - answer.sentAt });
      const decoded = decodeResponse<T>(def, answer, this.clock.now());
      if (decoded.ok) return decoded.value;
      const { error, disposition } = decoded;
      switch (disposition) {
        case 'resync':
          if (this.timeSync && !resynced) {
            resynced = true;
            this.log('warn', 'timestamp rejected; resyncing server time', { endpoint: def.id });
            this.timeSync.invalidate();
            continue;
          }
          throw error;
        case 'rate-limited': {
          if (rateLimitHits >= this.retry.maxRateLimitRetries && !this.patient()) throw error;
          const ladder = this.retry.rateLimitWaitsMs;
          const wait =
            (error instanceof RateLimited ? error.retryAfterMs : undefined) ?? ladder[Math.min(rateLimitHits, ladder.length - 1)] ?? 1_000;
          rateLimitHits++;
          this.log('warn', 'rate limited; waiting', { endpoint: def.id, waitMs: wait });
          // With a limiter, pausing the buckets also holds back every other request that would hit the same limit.
          if (this.rateLimiter && permits.length > 0)
            this.rateLimiter.pause([...new Set(permits.map((p) => p.bucket))], this.clock.now() + wait);
          else await this.clock.sleep(wait);
          continue;
        }
        case 'unavailable':
          if (isWrite)
            throw this.outcomeUnknown(def, prepared, answer.status >= 500 ? `HTTP ${answer.status}` : 'a venue internal error', error);
          if (attempt < maxRetries || this.patient()) {
            await this.backoff(def, attempt++, error);
            continue;
          }
          throw error;
        default:
          throw error;
      }
    }
  }

  private prepare(def: EndpointDef, value: unknown, opts: CallOptions): PreparedRequest {
    return buildValidated(def, value, {
      now: this.timeSync ? this.timeSync.now() : this.clock.now(),
      recvWindowMs: this.recvWindowMs,
      spotSigner: this.spotSigner,
      contractSigner: this.contractSigner,
      headers: opts.headers,
    });
  }

  /** Exponential backoff with "equal jitter": half fixed, half drawn from the injected random source. */
  backoffDelay(attempt: number): number {
    return transientDelay(undefined, attempt, this.random, this.retry);
  }

  private async backoff(def: EndpointDef, attempt: number, error: PerpetuaError): Promise<void> {
    // A Retry-After (a 429 on a server-time sample) is honoured; otherwise exponential backoff with jitter.
    let delay = transientDelay(error, attempt, this.random, this.retry);
    if (this.patient()) delay = Math.min(delay, this.startupUntil! - this.clock.now());
    this.log('info', 'retrying', { endpoint: def.id, attempt: attempt + 1, delayMs: delay, error: error.name });
    await this.clock.sleep(delay);
  }

  private outcomeUnknown(def: EndpointDef, prepared: PreparedRequest, after: string, cause: unknown): OutcomeUnknown {
    const ids = prepared.clientOrderIds;
    const hint = ids.length ? `; query client order id(s) ${ids.join(', ')}` : '; query open orders to resolve';
    this.log('error', 'outcome unknown', { endpoint: def.id, after, clientOrderIds: ids });
    return new OutcomeUnknown(`${def.id}: outcome unknown after ${after}${hint}`, def.id, ids, { cause });
  }

  private async serverTimeSample(source: ServerTimeSource): Promise<TimeSample> {
    if (this.rateLimiter) await this.rateLimiter.acquire(source.permits);
    const endpoint = `${this.api}.serverTime`;
    let res;
    try {
      res = await this.transport.send({ method: 'GET', path: source.path, headers: {}, endpoint });
    } catch (e) {
      if (!(e instanceof TransportFailure)) throw e;
      throw new ExchangeUnavailable(`${endpoint}: ${e.message}`, { endpoint }, { cause: e });
    }
    if (res.status === 429)
      throw new RateLimited(`${endpoint}: HTTP 429`, retryAfterMs(res.headers, this.clock.now()), { endpoint, httpStatus: 429 });
    if (res.status !== 200) throw new ExchangeUnavailable(`${endpoint}: HTTP ${res.status}`, { endpoint, httpStatus: res.status });
    let serverTime: number | undefined;
    try {
      serverTime = source.parse(JSON.parse(res.body));
    } catch {
      serverTime = undefined;
    }
    if (serverTime === undefined || !Number.isFinite(serverTime))
      throw new ExchangeUnavailable(`${endpoint}: no server time in the answer`, { endpoint, httpStatus: res.status });
    return { serverTime, sentAt: res.sentAt, receivedAt: res.receivedAt };
  }

  private log(level: keyof ClientLogger, message: string, meta: Record<string, unknown>): void {
    if (!this.logger) return;
    this.logger[level](
      this.redact(`perpetua.client.${this.api}: ${message}`),
      JSON.parse(this.redact(JSON.stringify(meta))) as Record<string, unknown>,
    );
  }

  /** Secrets never leave in an error: the message (and the causes' messages) are redacted. */
  private scrub(e: unknown): unknown {
    for (let cur: unknown = e, depth = 0; cur instanceof Error && depth < 5; depth++) {
      const clean = this.redact(cur.message);
      if (clean !== cur.message) cur.message = clean;
      if (cur.stack) cur.stack = this.redact(cur.stack);
      // string fields too (ValidationError.received echoes what the caller passed)
      for (const key of Object.keys(cur)) {
        const v = (cur as unknown as Record<string, unknown>)[key];
        if (typeof v === 'string') {
          const r = this.redact(v);
          if (r !== v) Object.defineProperty(cur, key, { value: r, enumerable: true, writable: false, configurable: true });
        }
      }
      cur = cur.cause;
    }
    return e;
  }
}
