/**
 * The one place that performs an HTTP request and returns status, headers and the raw body text.
 *
 * Why undici: it is the engine under Node's own fetch but exposes what a trading client needs and fetch
 * hides — an explicit per-origin keep-alive `Pool` (no TLS/TCP handshake per order), separate
 * connect / headers / body timeouts, and a `request()` that hands back status, headers and a body
 * stream without WHATWG Response overhead (measurably faster than fetch and node:http). Its error codes
 * also tell a connect failure (the request never left: safe to retry) from a timeout or reset after the
 * request was written (the venue may have acted on it: OutcomeUnknown for placements).
 *
 * The overall deadline runs on the injected Clock, so a VirtualClock test can fire it deterministically;
 * undici's own headers/body timeouts stay as a wall-clock safety net.
 */
import { Pool } from 'undici';
import type { Clock } from '../core/clock.js';
import type { HttpMethod } from '../api/endpoint.js';

export interface TransportRequest {
  readonly method: HttpMethod;
  /** Path and query, e.g. `/api/v3/order?symbol=BTCUSDT&…`. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Overall deadline on the injected clock; the transport default when omitted. */
  readonly timeoutMs?: number;
  /** The catalogue endpoint id (`spot.placeOrder`), for observers; method and path when omitted. */
  readonly endpoint?: string;
  /** The request's rate-limit weight, for observers (1 when omitted). */
  readonly weight?: number;
}

export interface TransportResponse {
  readonly status: number;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** Clock time when the request was handed to the connection. */
  readonly sentAt: number;
  /** Clock time when the whole body had arrived. */
  readonly receivedAt: number;
}

export interface Transport {
  send(request: TransportRequest): Promise<TransportResponse>;
  close(): Promise<void>;
}

/**
 * connect: the request never left the process (refused, DNS, connect timeout) — safe to retry;
 * timeout / reset: it was (or may have been) written — the venue may have acted on it.
 */
export type TransportFailureKind = 'connect' | 'timeout' | 'reset';

/** Raised by a Transport; the client maps it onto the error taxonomy (never reaches callers as-is). */
export class TransportFailure extends Error {
  constructor(
    readonly kind: TransportFailureKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'TransportFailure';
  }

  get maybeSent(): boolean {
    return this.kind !== 'connect';
  }
}

export interface TransportTimeouts {
  /** TCP/TLS connect. */
  readonly connectMs: number;
  /** From request written to response headers received (undici, wall clock). */
  readonly headersMs: number;
  /** Max gap between body chunks (undici, wall clock). */
  readonly bodyMs: number;
  /** Whole request, on the injected Clock. */
  readonly requestMs: number;
}

export const DEFAULT_TIMEOUTS: TransportTimeouts = { connectMs: 5_000, headersMs: 10_000, bodyMs: 10_000, requestMs: 15_000 };

export interface HttpTransportOptions {
  readonly baseUrl: string;
  readonly clock: Clock;
  readonly timeouts?: Partial<TransportTimeouts>;
  /** Max sockets to the origin. */
  readonly connections?: number;
  /** How long an idle socket is kept; below the usual 5 s server default so we close first. */
  readonly keepAliveMs?: number;
}

/** One finished exchange request as observers see it (no header, body or query: nothing secret). */
export interface ExchangeCall {
  readonly endpoint: string;
  readonly method: HttpMethod;
  /** The HTTP status, or how the request failed. */
  readonly outcome: number | TransportFailureKind;
  /** Clock time from hand-over to the last byte (or the failure). */
  readonly ms: number;
  readonly weight: number;
}

export type TransportObserver = (call: ExchangeCall) => void;

/**
 * Observers of every HttpTransport in the process (the console's latency and weight metrics). A
 * process-wide list rather than a constructor option: transports are built deep inside the clients, and
 * the console must not reach into them. With no observer the cost per request is one size check.
 */
const observers = new Set<TransportObserver>();

/** Adds an observer of every exchange request; returns its removal. */
export function observeTransport(fn: TransportObserver): () => void {
  observers.add(fn);
  return () => observers.delete(fn);
}

function tellObservers(request: TransportRequest, outcome: ExchangeCall['outcome'], ms: number): void {
  const endpoint = request.endpoint ?? `${request.method} ${request.path.split('?', 1)[0]}`;
  const call: ExchangeCall = { endpoint, method: request.method, outcome, ms, weight: request.weight ?? 1 };
  for (const fn of observers) {
    try {
      fn(call);
    } catch {
      // An observer's failure must never fail the request it watched.
    }
  }
}

const CONNECT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

interface SharedPool {
  readonly pool: Pool;
  refs: number;
}

/** Keep-alive pools shared per origin (and connect timeout), reference counted, closed with the last user. */
const sharedPools = new Map<string, SharedPool>();

function acquirePool(origin: string, connectMs: number, connections: number, keepAliveMs: number): { key: string; pool: Pool } {
  const key = `${origin}|${connectMs}|${connections}|${keepAliveMs}`;
  let entry = sharedPools.get(key);
  if (!entry || entry.pool.closed || entry.pool.destroyed) {
    entry = {
      pool: new Pool(origin, {
        connections,
        pipelining: 1,
        connect: { timeout: connectMs },
        keepAliveTimeout: keepAliveMs,
        keepAliveTimeoutThreshold: 1_000,
      }),
      refs: 0,
    };
    sharedPools.set(key, entry);
  }
  entry.refs++;
  return { key, pool: entry.pool };
}

async function releasePool(key: string): Promise<void> {
  const entry = sharedPools.get(key);
  if (!entry) return;
  entry.refs--;
  if (entry.refs <= 0) {
    sharedPools.delete(key);
    await entry.pool.close();
  }
}

/** Number of live shared pools (tests check that close() releases them). */
export function sharedPoolCount(): number {
  return sharedPools.size;
}

function errorCode(e: unknown): string | undefined {
  for (let cur: unknown = e, depth = 0; cur && depth < 4; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

/** What a failed request means for the caller: never sent, timed out, or lost after it may have been written. */
function failureOf(e: unknown, deadlineHit: boolean, timeoutMs: number): TransportFailure {
  if (e instanceof TransportFailure) return e;
  if (deadlineHit) return new TransportFailure('timeout', `no complete answer within ${timeoutMs} ms`, { cause: e });
  const code = errorCode(e);
  if (code && CONNECT_CODES.has(code)) return new TransportFailure('connect', `connection failed (${code})`, { cause: e });
  if (code && TIMEOUT_CODES.has(code)) return new TransportFailure('timeout', `timed out (${code})`, { cause: e });
  return new TransportFailure('reset', `connection lost (${code ?? (e instanceof Error ? e.message : 'unknown')})`, { cause: e });
}

export class HttpTransport implements Transport {
  private readonly clock: Clock;
  private readonly timeouts: TransportTimeouts;
  private readonly poolKey: string;
  private readonly pool: Pool;
  private readonly prefix: string;
  private closed = false;

  constructor(options: HttpTransportOptions) {
    const url = new URL(options.baseUrl);
    this.clock = options.clock;
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.prefix = url.pathname.replace(/\/+$/, '');
    const { key, pool } = acquirePool(url.origin, this.timeouts.connectMs, options.connections ?? 16, options.keepAliveMs ?? 4_000);
    this.poolKey = key;
    this.pool = pool;
  }

  async send(request: TransportRequest): Promise<TransportResponse> {
    if (this.closed) throw new TransportFailure('connect', 'transport is closed');
    const controller = new AbortController();
    let deadlineHit = false;
    const timeoutMs = request.timeoutMs ?? this.timeouts.requestMs;
    const timer = this.clock.setTimer(this.clock.now() + timeoutMs, () => {
      deadlineHit = true;
      controller.abort(new TransportFailure('timeout', `no complete answer within ${timeoutMs} ms`));
    });
    const sentAt = this.clock.now();
    try {
      const res = await this.pool.request({
        method: request.method,
        path: this.prefix + request.path,
        headers: request.headers,
        body: request.body,
        signal: controller.signal,
        headersTimeout: this.timeouts.headersMs,
        bodyTimeout: this.timeouts.bodyMs,
      });
      const body = await res.body.text();
      const receivedAt = this.clock.now();
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
      if (observers.size > 0) tellObservers(request, res.statusCode, receivedAt - sentAt);
      return { status: res.statusCode, headers, body, sentAt, receivedAt };
    } catch (e) {
      const failure = failureOf(e, deadlineHit, timeoutMs);
      if (observers.size > 0) tellObservers(request, failure.kind, this.clock.now() - sentAt);
      throw failure;
    } finally {
      this.clock.clearTimer(timer);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await releasePool(this.poolKey);
  }
}
