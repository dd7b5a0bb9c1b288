/**
 * The one error taxonomy (docs/architecture.md rule 5). Retryability lives in the type: callers decide by
 * `instanceof` (or `.retryable`), never by parsing messages.
 *
 *   PerpetuaError
 *   ├─ ValidationError        bad input caught before anything left the process (names the field)
 *   ├─ ExchangeError          the venue answered and said no; not retryable
 *   │   ├─ AuthenticationError, PermissionDenied
 *   │   ├─ InsufficientFunds, InvalidOrder, OrderNotFound, OrderNotCancellable, PositionNotFound
 *   │   ├─ SymbolNotTradable, FeatureDisabled
 *   │   └─ MalformedResponse  the answer does not match the catalogue schema (names endpoint + field)
 *   ├─ NetworkError           transient; retryable for idempotent requests
 *   │   ├─ RateLimited        carries retryAfterMs
 *   │   ├─ ExchangeUnavailable
 *   │   └─ RequestTimeout
 *   └─ OutcomeUnknown         a state-changing request whose effect is unknown (timeout / 5xx after
 *                             sending); resolve by querying the client id, never by re-sending
 */
export abstract class PerpetuaError extends Error {
  abstract readonly retryable: boolean;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class ValidationError extends PerpetuaError {
  readonly retryable = false;
  constructor(
    readonly field: string,
    readonly expected: string,
    readonly received?: unknown,
    message?: string,
  ) {
    super(message ?? `${field}: expected ${expected}${received === undefined ? '' : `, received ${describe(received)}`}`);
  }
}

export interface VenueErrorInfo {
  /** The venue's own error code (spot `code`, contract `code` or per-order `errorCode`). */
  venueCode?: number;
  /** HTTP status, when the error came from an HTTP answer. */
  httpStatus?: number;
  /** Catalogue endpoint id, e.g. `spot.newOrder`. */
  endpoint?: string;
}

export class ExchangeError extends PerpetuaError {
  readonly retryable: boolean = false;
  readonly venueCode: number | undefined;
  readonly httpStatus: number | undefined;
  readonly endpoint: string | undefined;
  constructor(message: string, info: VenueErrorInfo = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.venueCode = info.venueCode;
    this.httpStatus = info.httpStatus;
    this.endpoint = info.endpoint;
  }
}

export class AuthenticationError extends ExchangeError {}
export class PermissionDenied extends ExchangeError {}
export class InsufficientFunds extends ExchangeError {}
export class InvalidOrder extends ExchangeError {}
export class OrderNotFound extends ExchangeError {}
export class OrderNotCancellable extends ExchangeError {}
export class PositionNotFound extends ExchangeError {}
export class SymbolNotTradable extends ExchangeError {}
export class FeatureDisabled extends ExchangeError {}
/** The venue rejected the request's parameters (bad combination, bad value). */
export class BadRequest extends ExchangeError {}

export class MalformedResponse extends ExchangeError {
  constructor(
    readonly endpointId: string,
    readonly field: string,
    detail: string,
  ) {
    super(`${endpointId}: malformed response at ${field || '(root)'}: ${detail}`, { endpoint: endpointId });
  }
}

export class NetworkError extends PerpetuaError {
  readonly retryable: boolean = true;
  readonly endpoint: string | undefined;
  readonly httpStatus: number | undefined;
  constructor(message: string, info: { endpoint?: string; httpStatus?: number } = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.endpoint = info.endpoint;
    this.httpStatus = info.httpStatus;
  }
}

export class RateLimited extends NetworkError {
  constructor(
    message: string,
    readonly retryAfterMs: number | undefined,
    info: { endpoint?: string; httpStatus?: number; venueCode?: number } = {},
  ) {
    super(message, info);
  }
}

export class ExchangeUnavailable extends NetworkError {}
export class RequestTimeout extends NetworkError {}

export class OutcomeUnknown extends PerpetuaError {
  readonly retryable = false;
  constructor(
    message: string,
    readonly endpoint: string,
    /** The client order id(s) to query to resolve the outcome. */
    readonly clientOrderIds: readonly string[] = [],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Configuration or wiring errors found at start-up (bad YAML, missing secrets). */
export class ConfigError extends PerpetuaError {
  readonly retryable = false;
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(path ? `${path}: ${message}` : message);
  }
}

function describe(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v);
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return String(v);
  if (Array.isArray(v)) return `array(${v.length})`;
  return typeof v;
}

/**
 * A state machine was asked for a move its transition table does not allow (an order going from
 * FILLED back to NEW). A programming or bookkeeping error, never retryable.
 */
export class IllegalTransition extends PerpetuaError {
  readonly retryable = false;
  constructor(
    readonly entity: string,
    readonly from: string,
    readonly to: string,
    detail?: string,
  ) {
    super(`${entity}: illegal transition ${from} → ${to}${detail ? ` (${detail})` : ''}`);
  }
}
