/**
 * The HTTP front of the emulator on node:http. One request runs through:
 *
 *   route (catalogue path template) → fault injection (before) → body (size limit) → parameters
 *   (spot: query, then form body; contract: query for GET/DELETE, JSON body for POST) → per-IP weight →
 *   authentication (spot or contract rules) → per-account buckets → request schema → handler →
 *   envelope → fault injection (after) → response
 *
 * Nothing a client sends can throw out of this function: every failure becomes the venue's error body,
 * and anything unexpected is a 500 in the API's shape (the engines' state is only touched by handlers,
 * after validation).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { z } from 'zod';
import type { EndpointDef } from '../api/endpoint.js';
import { issueReason } from '../api/spot/params.js';
import type { Clock } from '../core/clock.js';
import { parseJsonKeepingLongInts } from '../core/json-codec.js';
import type { AccountRegistry, EmulatorAccount } from './auth/account-registry.js';
import { authenticateSpot } from './auth/spot-authenticator.js';
import { authenticateContract } from './auth/contract-authenticator.js';
import type { RateLimits } from './limits/rate-limits.js';
import type { FaultInjector } from './faults/fault-injector.js';
import type { FaultRule, TransportLimits } from './emulator-config.js';
import { bodyPending, readBody, type BodyResult } from './http/body-reader.js';
import { fastContractOrderParams } from './http/fast-contract-order-params.js';
import { fastOrderParams } from './http/fast-order-params.js';
import { CONTRACT_FORM_ERRORS, mergeQueryAndBody, parseForm, SPOT_FORM_ERRORS } from './http/form-params.js';
import { ResponseBatch } from './http/response-batch.js';
import { NO_PATH_PARAMS, type RouteMatch, type RouteTable } from './http/route-table.js';
import { ContractError, errorBody, SpotError, WireError, type WireApi } from './http/wire-error.js';
import { NO_DATA, SpotWrapped, type ApiCall, type HandlerTable } from './handlers/handler.js';
import { JsonText } from './handlers/json-text.js';

export interface EmulatorServerDeps {
  /** The venue's clock (system or virtual): server time, auth windows, rate-limit windows. */
  readonly clock: Clock;
  /** Wall-clock timers for injected delays (real latency, whatever the venue's clock). */
  readonly latencyClock: Clock;
  readonly routes: RouteTable;
  readonly handlers: HandlerTable;
  readonly accounts: AccountRegistry;
  readonly limits: RateLimits;
  readonly faults: FaultInjector;
  readonly maxBodyBytes: number;
  /** Request, header and body deadlines and the per-address connection cap. */
  readonly transport: TransportLimits;
  /** Called before each request is handled (virtual clock stepping). */
  readonly beforeRequest?: () => void;
  /** Called after a request changed state (persistence). */
  readonly afterMutation?: () => void;
  /**
   * The journal (persistence on): the commands of the requests handled in one event-loop turn are
   * committed together, before any of their answers is sent (engine/command-journal.ts, group commit).
   */
  readonly journal?: { holdCommits(): void; commitHeld(): void };
  /** Unexpected errors (a bug in a handler); never receives secrets. */
  readonly onInternalError?: (err: unknown, endpointId: string | undefined) => void;
}

/** Parameters of the signature scheme rather than of the request (a compare each: this runs per parameter). */
const isSpotTransport = (k: string): boolean => k === 'signature' || k === 'timestamp' || k === 'recvWindow';
/** No run of 16 digits: no integer beyond 2^53 for parseJsonKeepingLongInts to quote, so JSON.parse reads it the same. */
const LONG_DIGIT_RUN = /\d{16}/;

type FastParams = (p: Record<string, unknown>) => Record<string, unknown> | undefined;
/**
 * Request validation that skips the schema when the input is already in its output form
 * (http/fast-order-params.ts, http/fast-contract-order-params.ts): the placement paths.
 */
const FAST_PARAMS: ReadonlyMap<string, FastParams> = new Map([
  ['spot.newOrder', fastOrderParams],
  ['spot.testNewOrder', fastOrderParams],
  ['contract.createOrder', fastContractOrderParams],
]);
const JSON_CONTENT_TYPE = 'application/json;charset=UTF-8';
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A request routed to its endpoint, with the fault picked for it. */
interface Routed {
  readonly route: Extract<RouteMatch, { kind: 'found' }>;
  readonly fault: FaultRule | undefined;
  readonly method: string;
  readonly rawQuery: string;
}

interface Answer {
  readonly status: number;
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export class EmulatorServer {
  private readonly server: Server;
  /** Connections held open by the `drop` fault; destroyed on close(). */
  private readonly hanging = new Set<Socket>();
  private closing = false;
  /** Open connections per client address (the cap of deps.transport.maxConnectionsPerClient). */
  private readonly perClient = new Map<string, number>();
  /** Answers are ended together at the end of each event-loop turn (http/response-batch.ts). */
  private readonly answers: ResponseBatch;
  /**
   * Requests that arrived on a connection while an earlier request on it was waiting (for its body, an
   * injected delay or an async handler). node:http hands pipelined requests over as soon as it has parsed
   * them; without this queue a GET right behind a POST whose body was still being read ran first, and
   * answered as if the POST had not happened (issue 12, test/emulator/http-framing.test.ts).
   */
  private readonly behind = new Map<Socket, (() => void)[]>();
  /** Connections still under the first-request deadline set in admit(). */
  private readonly awaitingFirst = new Set<Socket>();

  constructor(private readonly deps: EmulatorServerDeps) {
    const journal = deps.journal;
    this.answers = new ResponseBatch(
      journal ? { beforeEnd: () => journal.commitHeld(), onFailure: (e) => deps.onInternalError?.(e, 'persistence.commit') } : {},
    );
    const t = deps.transport;
    this.server = createServer(
      {
        keepAlive: true,
        // node:http answers 408 and closes when the headers, or the whole request, take longer; it checks
        // every connectionsCheckingInterval, so that is kept well below the shorter deadline.
        requestTimeout: t.requestTimeoutMs,
        headersTimeout: t.headersTimeoutMs,
        connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(Math.min(t.headersTimeoutMs, t.requestTimeoutMs) / 4))),
      },
      (req, res) => this.handle(req, res),
    );
    this.server.keepAliveTimeout = 65_000;
    this.server.on('connection', (socket: Socket) => this.admit(socket));
    // A client may reset mid-request; that is its business, not a crash.
    this.server.on('clientError', (_err, socket) => {
      if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      else socket.destroy();
    });
  }

  /** Counts the connection against its address; over the cap it is closed before a byte is read. */
  private admit(socket: Socket): void {
    const who = socket.remoteAddress ?? 'unknown';
    const n = (this.perClient.get(who) ?? 0) + 1;
    if (n > this.deps.transport.maxConnectionsPerClient) {
      socket.destroy();
      return;
    }
    this.perClient.set(who, n);
    // A connection that never sends a request would otherwise be held for ever (node's header deadline
    // starts with the first byte); the first request lifts this and keep-alive rules take over.
    socket.setTimeout(this.deps.transport.headersTimeoutMs, () => socket.destroy());
    this.awaitingFirst.add(socket);
    socket.once('close', () => {
      this.awaitingFirst.delete(socket);
      const left = (this.perClient.get(who) ?? 1) - 1;
      if (left <= 0) this.perClient.delete(who);
      else this.perClient.set(who, left);
    });
  }

  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const onError = (e: Error) => reject(e);
      this.server.once('error', onError);
      this.server.listen(port, host, () => {
        this.server.removeListener('error', onError);
        const addr = this.server.address();
        resolve(typeof addr === 'object' && addr ? addr.port : port);
      });
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const s of this.hanging) s.destroy();
    this.hanging.clear();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  /**
   * Synchronous on the usual request (a signed placement without a body, or whose body the parser has
   * read by the next tick, and a synchronous handler): it goes on in a Promise only where it has to wait
   * — an injected delay, a body still arriving, a handler that returned a Promise — and every failure, thrown now or later, ends in
   * fail(). Every hop through the microtask queue, and the Promise an async function makes per call,
   * showed in the profile; the answer is the same whether it is written now or a tick later.
   */
  private handle(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket;
    const queue = this.behind.get(socket);
    if (queue) {
      queue.push(() => this.handle(req, res));
      return;
    }
    // The first request lifts admit()'s deadline; later ones find node's keep-alive rules in charge.
    if (this.awaitingFirst.delete(socket)) socket.setTimeout(0);
    const url = req.url ?? '/';
    const qi = url.indexOf('?');
    const path = qi < 0 ? url : url.slice(0, qi);
    const rawQuery = qi < 0 ? '' : url.slice(qi + 1);
    const method = (req.method ?? 'GET').toUpperCase();
    const api: WireApi = path.startsWith('/api/v1/') ? 'contract' : 'spot';
    let def: EndpointDef | undefined;
    try {
      this.deps.beforeRequest?.();
      const route = this.deps.routes.match(method, path);
      if (route.kind !== 'found') {
        req.resume();
        throw route.kind === 'not-found'
          ? api === 'spot'
            ? SpotError.notFound()
            : ContractError.notFound()
          : api === 'spot'
            ? SpotError.methodNotAllowed()
            : ContractError.methodNotAllowed();
      }
      const found = { route, fault: this.deps.faults.pick({ method, path, endpointId: route.def.id }), method, rawQuery };
      def = route.def;
      if (found.fault?.kind === 'delay' && found.fault.delayMs > 0) {
        const d = def;
        this.behind.set(socket, []);
        this.settle(
          this.deps.latencyClock.sleep(found.fault.delayMs).then(() => this.admitted(req, res, found)),
          req,
          res,
          d,
          api,
        );
      } else if (bodyPending(req)) {
        // The parser hands the body over after this event, in the same read: at the next tick it is
        // usually there whole (body-reader.ts bodyPending), which saves the listeners, the stream's
        // flowing mode and the Promise of the waiting path (the contract placement's JSON body).
        this.behind.set(socket, []);
        process.nextTick(() => this.afterParse(req, res, found, api));
      } else {
        const going = this.admitted(req, res, found);
        if (going) {
          this.behind.set(socket, []);
          this.settle(going, req, res, def, api);
        }
      }
    } catch (e) {
      this.fail(res, e, def, api);
    }
  }

  /** A request put off to the tick after its 'request' event; its connection's queue is already held. */
  private afterParse(req: IncomingMessage, res: ServerResponse, found: Routed, api: WireApi): void {
    let going: Promise<void> | undefined;
    try {
      going = this.admitted(req, res, found);
    } catch (e) {
      this.fail(res, e, found.route.def, api);
    }
    if (going) this.settle(going, req, res, found.route.def, api);
    else this.release(req.socket);
  }

  /** Answers a request that went on in a Promise, then lets its connection's next requests run. */
  private settle(going: Promise<void>, req: IncomingMessage, res: ServerResponse, def: EndpointDef, api: WireApi): void {
    const socket = req.socket;
    void going.catch((e: unknown) => this.fail(res, e, def, api)).finally(() => this.release(socket));
  }

  /**
   * Runs the requests that arrived on `socket` while an earlier one was waiting, in their order, until
   * one of them has to wait in turn (it queues the rest again behind itself).
   */
  private release(socket: Socket): void {
    const queue = this.behind.get(socket) ?? [];
    this.behind.delete(socket);
    while (queue.length > 0) {
      queue.shift()!();
      const again = this.behind.get(socket);
      if (again) {
        again.push(...queue);
        return;
      }
    }
  }

  /** After routing and any injected delay: the faults that answer at once, then the body. */
  private admitted(req: IncomingMessage, res: ServerResponse, f: Routed): Promise<void> | undefined {
    const { def } = f.route;
    const fault = f.fault;
    if (fault?.kind === 'rateLimit') {
      req.resume();
      throw def.api === 'spot' ? SpotError.rateLimited(fault.retryAfterSec) : ContractError.rateLimited(fault.retryAfterSec);
    }
    if (fault?.kind === 'error5xx' && fault.phase === 'before') {
      req.resume();
      throw def.api === 'spot' ? SpotError.unavailable(fault.status) : ContractError.unavailable(fault.status);
    }
    const reading = readBody(req, this.deps.maxBodyBytes, { ms: this.deps.transport.bodyTimeoutMs, clock: this.deps.latencyClock });
    return reading instanceof Promise ? reading.then((body) => this.withBody(req, res, f, body)) : this.withBody(req, res, f, reading);
  }

  /** The body has been read (or refused): the API's path, the handler, the answer. */
  private withBody(req: IncomingMessage, res: ServerResponse, f: Routed, body: BodyResult): Promise<void> | undefined {
    const { def, pathParams } = f.route;
    if (!body.ok) {
      if (body.reason === 'aborted') return undefined;
      if (body.reason === 'timeout') {
        // The rest of the body is not coming: answer and close (the socket holds half a request).
        res.shouldKeepAlive = false;
        throw def.api === 'spot' ? SpotError.requestTimeout() : ContractError.requestTimeout();
      }
      res.shouldKeepAlive = false;
      throw def.api === 'spot' ? SpotError.tooLarge(this.deps.maxBodyBytes) : ContractError.tooLarge(this.deps.maxBodyBytes);
    }
    const ip = req.socket.remoteAddress ?? 'unknown';
    const answering =
      def.api === 'spot'
        ? this.spot(def, pathParams, f.method, f.rawQuery, body.body, req, ip)
        : this.contract(def, pathParams, f.method, f.rawQuery, body.body, req, ip);
    if (answering instanceof Promise) return answering.then((answer) => this.deliver(req, res, f, answer));
    this.deliver(req, res, f, answering);
    return undefined;
  }

  private deliver(req: IncomingMessage, res: ServerResponse, f: Routed, answer: Answer): void {
    if (f.fault) this.afterEffect(f.fault, f.route.def, req, res, answer);
    else this.write(res, answer);
  }

  /** A refusal in the API's shape; anything unexpected is a 500 (and told to onInternalError). */
  private fail(res: ServerResponse, e: unknown, def: EndpointDef | undefined, api: WireApi): void {
    if (e instanceof WireError) {
      this.write(res, { status: e.httpStatus, body: JSON.stringify(errorBody(e)), headers: e.headers });
      return;
    }
    this.deps.onInternalError?.(e, def?.id);
    const err = (def?.api ?? api) === 'spot' ? SpotError.internal() : ContractError.internal();
    this.write(res, { status: err.httpStatus, body: JSON.stringify(errorBody(err)) });
  }

  private afterEffect(fault: FaultRule, def: EndpointDef, req: IncomingMessage, res: ServerResponse, answer: Answer): void {
    switch (fault.kind) {
      case 'drop': {
        // The effect happened; the answer never comes. The socket stays open until the client gives up.
        const socket = req.socket;
        this.hanging.add(socket);
        socket.once('close', () => this.hanging.delete(socket));
        if (this.closing) socket.destroy();
        return;
      }
      case 'reset':
        req.socket.destroy();
        return;
      case 'error5xx': {
        if (fault.phase === 'after') {
          const err = def.api === 'spot' ? SpotError.unavailable(fault.status) : ContractError.unavailable(fault.status);
          this.write(res, { status: err.httpStatus, body: JSON.stringify(errorBody(err)) });
          return;
        }
        this.write(res, answer);
        return;
      }
      default:
        this.write(res, answer);
    }
  }

  private write(res: ServerResponse, a: Answer): void {
    if (res.headersSent || res.destroyed) return;
    const headers: (string | number)[] = ['Content-Type', JSON_CONTENT_TYPE, 'Content-Length', Buffer.byteLength(a.body)];
    if (a.headers) for (const k in a.headers) headers.push(k, a.headers[k]!);
    res.writeHead(a.status, headers as unknown as Record<string, string>);
    this.answers.end(res, a.body);
  }

  // ---------- spot ----------

  private spot(
    def: EndpointDef,
    pathParams: Readonly<Record<string, string>>,
    method: string,
    rawQuery: string,
    rawBody: Buffer,
    req: IncomingMessage,
    ip: string,
  ): Answer | Promise<Answer> {
    const now = this.deps.clock.now();
    // Bytes outside printable ASCII in the raw URL are not legal (clients percent-encode them).
    if (/[^\x21-\x7e]/.test(rawQuery)) throw SpotError.illegalCharacters('query');
    const query = parseForm(rawQuery, SPOT_FORM_ERRORS);
    let bodyText = '';
    let params = query;
    if (method !== 'GET' && rawBody.length > 0) {
      try {
        bodyText = utf8.decode(rawBody);
      } catch {
        throw SpotError.illegalCharacters('body');
      }
      params = mergeQueryAndBody(query, parseForm(bodyText, SPOT_FORM_ERRORS));
    }
    const business: Record<string, unknown> = {};
    // forEach rather than for…of: no iterator result and [key, value] pair per parameter.
    params.forEach((v, k) => {
      if (!isSpotTransport(k)) business[k] = v;
    });

    this.deps.limits.checkIp(def, business, ip);
    let account: EmulatorAccount | undefined;
    if (def.auth === 'signed') {
      account = authenticateSpot(
        def,
        { apiKey: header(req, 'x-mexc-apikey'), rawQuery, rawBody: bodyText, params, now },
        this.deps.accounts,
      );
      this.deps.limits.checkAccount(def, account.id);
    } else {
      this.deps.limits.checkAccount(def, ip);
    }
    const parsed = (FAST_PARAMS.get(def.id)?.(business) ??
      validate(def.request, business, (issues) => spotIssueError(issues, params))) as unknown;
    const result = this.invoke(def, { def, params: parsed, raw: params, pathParams, account, now, ip, headers: req.headers });
    return result instanceof Promise ? result.then((r) => this.spotAnswer(def, r)) : this.spotAnswer(def, result);
  }

  private spotAnswer(def: EndpointDef, result: unknown): Answer {
    if (def.envelope === 'spot-wrapped') {
      // Only bare answers come as JsonText (the placement); a wrapped one carries the value itself.
      const w = result instanceof SpotWrapped ? result : new SpotWrapped(result);
      const env: Record<string, unknown> = { code: w.code, msg: w.msg };
      if (!w.omitData) env.data = w.data;
      env.timestamp = this.deps.clock.now();
      return { status: 200, body: JSON.stringify(env) };
    }
    return { status: 200, body: result instanceof JsonText ? result.text : JSON.stringify(result ?? {}) };
  }

  // ---------- contract ----------

  private contract(
    def: EndpointDef,
    pathParams: Readonly<Record<string, string>>,
    method: string,
    rawQuery: string,
    rawBody: Buffer,
    req: IncomingMessage,
    ip: string,
  ): Answer | Promise<Answer> {
    const now = this.deps.clock.now();
    if (/[^\x21-\x7e]/.test(rawQuery)) throw ContractError.paramError('illegal characters in the query string');
    const query = parseForm(rawQuery, CONTRACT_FORM_ERRORS);
    let bodyText = '';
    let body: unknown;
    if (method === 'POST' && rawBody.length > 0) {
      try {
        bodyText = utf8.decode(rawBody);
      } catch {
        throw ContractError.paramError('the body is not UTF-8');
      }
      if (bodyText.trim() !== '') {
        try {
          body = LONG_DIGIT_RUN.test(bodyText) ? parseJsonKeepingLongInts(bodyText) : JSON.parse(bodyText);
        } catch {
          throw ContractError.paramError('the body is not valid JSON');
        }
      }
    }
    let input: unknown;
    if (method === 'POST') {
      if (def.encoding === 'json-array') {
        if (!Array.isArray(body)) throw ContractError.paramError('the body must be a JSON array');
        input = body;
      } else {
        if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body)))
          throw ContractError.paramError('the body must be a JSON object');
        // The usual placement (a JSON object, no query, no path parameters) is the parsed body itself: nothing
        // else holds it, and the copy would have the same keys in the same order.
        input =
          body !== undefined && query.size === 0 && pathParams === NO_PATH_PARAMS
            ? body
            : { ...((body as Record<string, unknown> | undefined) ?? {}), ...Object.fromEntries(query), ...pathParams };
      }
    } else {
      input = { ...Object.fromEntries(query), ...pathParams };
    }
    const forWeight = Array.isArray(input) ? {} : (input as Record<string, unknown>);
    this.deps.limits.checkIp(def, forWeight, ip);
    let account: EmulatorAccount | undefined;
    if (def.auth === 'signed') {
      account = authenticateContract(
        def,
        {
          method,
          apiKey: header(req, 'apikey'),
          requestTime: header(req, 'request-time'),
          signature: header(req, 'signature'),
          recvWindow: header(req, 'recv-window'),
          rawQuery,
          query,
          rawBody: bodyText,
          now,
        },
        this.deps.accounts,
      );
      if (def.marketMakerOnly && !account.marketMaker) throw ContractError.marketMakerOnly();
      this.deps.limits.checkAccount(def, account.id);
    } else {
      this.deps.limits.checkAccount(def, ip);
    }
    const fast = FAST_PARAMS.get(def.id);
    const parsed =
      (fast && !Array.isArray(input) ? fast(input as Record<string, unknown>) : undefined) ??
      validate(def.request, input, (issues) => contractIssueError(issues, input));
    const result = this.invoke(def, { def, params: parsed, raw: input, pathParams, account, now, ip, headers: req.headers });
    return result instanceof Promise ? result.then(contractAnswer) : contractAnswer(result);
  }

  /** The handler's result; a Promise only when the handler returned one. */
  private invoke(def: EndpointDef, call: ApiCall<unknown>): unknown {
    const handler = this.deps.handlers.get(def.id);
    if (!handler) throw def.api === 'spot' ? SpotError.notSupported(def.path) : ContractError.notSupported(def.path);
    if (this.deps.journal) {
      // Whatever the handler journals is committed with the turn's other commands, before the answers.
      this.deps.journal.holdCommits();
      this.answers.schedule();
    }
    const out = handler(call as ApiCall<never>);
    if (isThenable(out)) {
      return Promise.resolve(out).then((v) => {
        if (def.method !== 'GET') this.deps.afterMutation?.();
        return v;
      });
    }
    if (def.method !== 'GET') this.deps.afterMutation?.();
    return out;
  }
}

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function';
}

function contractAnswer(result: unknown): Answer {
  if (result instanceof JsonText) return { status: 200, body: `{"success":true,"code":0,"data":${result.text}}` };
  const env: Record<string, unknown> = { success: true, code: 0 };
  if (result !== NO_DATA && result !== undefined) env.data = result;
  return { status: 200, body: stringifyContract(env) };
}

/**
 * The contract envelope with bigint ids as strings. Without a replacer first: a replacer function is
 * called for every key of every answer, and only a few answers carry a bigint (they throw TypeError and
 * take the second pass, which writes the same bytes the replacer always wrote).
 */
function stringifyContract(env: Record<string, unknown>): string {
  try {
    return JSON.stringify(env);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    return JSON.stringify(env, bigintSafe);
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function bigintSafe(_k: string, v: unknown): unknown {
  return typeof v === 'bigint' ? v.toString() : v;
}

type Issue = z.core.$ZodIssue;

/**
 * Runs the request schema. Parameters the schema does not know are dropped and the rest checked again:
 * the venue ignores unknown parameters, and clients of the real venue send some (ccxt adds its own).
 */
function validate(schema: z.ZodType, input: unknown, toError: (issues: readonly Issue[]) => WireError): unknown {
  let r = schema.safeParse(input);
  if (r.success) return r.data;
  const unknownKeys = unknownKeysOf(r.error.issues);
  if (unknownKeys.length > 0 && input && typeof input === 'object' && !Array.isArray(input)) {
    const trimmed: Record<string, unknown> = { ...(input as Record<string, unknown>) };
    for (const k of unknownKeys) delete trimmed[k];
    r = schema.safeParse(trimmed);
    if (r.success) return r.data;
  }
  const real = r.error.issues.filter((i) => !isUnknownKeyIssue(i));
  throw toError(real.length ? real : r.error.issues);
}

const isUnknownKeyIssue = (i: Issue): boolean =>
  i.code === 'unrecognized_keys' || (i.path.length === 1 && /^no such parameter/.test(i.message));

/** Top-level parameters the schema does not know (spot: "no such parameter" issues; contract: strict objects). */
function unknownKeysOf(issues: readonly Issue[]): string[] {
  const out: string[] = [];
  for (const i of issues) {
    if (i.code === 'unrecognized_keys' && i.path.length === 0) out.push(...i.keys);
    else if (i.path.length === 1 && /^no such parameter/.test(i.message)) out.push(String(i.path[0]));
  }
  return out;
}

function spotIssueError(issues: readonly Issue[], raw: ReadonlyMap<string, string>): WireError {
  const iss = issues[0];
  if (!iss) return SpotError.paramError('invalid request');
  const param = iss.path.length ? String(iss.path[0]) : 'parameters';
  if (/-1128/.test(iss.message)) return SpotError.combination();
  if (param === 'orderId' && !raw.has('orderId') && !raw.has('origClientOrderId')) return SpotError.orderIdOrClientId();
  if (param === 'symbol' && iss.path.length === 1 && raw.get('symbol')) return SpotError.invalidSymbol();
  // A value outside a numeric range (limit=-5, limit=abc): say which parameter and what range, rather
  // than 700004's "was not sent", which misled callers whose limit was merely too large (issue 14).
  if (issueReason(iss) === 'range') return SpotError.paramError(`${param} must be ${iss.message}`);
  return SpotError.mandatory(param);
}

const PRICE_TYPE_FIELDS: ReadonlySet<string> = new Set(['lossTrend', 'profitTrend']);

function contractIssueError(issues: readonly Issue[], input: unknown): WireError {
  const iss = issues[0];
  if (!iss) return ContractError.paramError();
  const param = iss.path.map(String).join('.');
  const rec = input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  if (iss.path.length === 1 && iss.path[0] === 'symbol' && rec.symbol !== undefined && rec.symbol !== '')
    return ContractError.contractNotExist();
  // A bad trigger price type is its own code on the venue (contract-api.md §4.5 change_stop_order rule 1).
  if (iss.path.length === 1 && PRICE_TYPE_FIELDS.has(String(iss.path[0]))) return ContractError.priceTypeError();
  return ContractError.paramError(param ? `${param}: expected ${iss.message}` : `expected ${iss.message}`);
}
