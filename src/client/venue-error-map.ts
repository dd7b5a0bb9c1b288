/**
 * Venue error codes → the error taxonomy, by TABLES (ccxt's exact map), never by if-chains over
 * messages. One row per documented code (wire-protocol.md); a code not in the table falls back to the
 * plain ExchangeError (or, for contract 5xx-like codes, to ExchangeUnavailable) with the code attached.
 */
import {
  AuthenticationError,
  BadRequest,
  ExchangeError,
  ExchangeUnavailable,
  FeatureDisabled,
  InsufficientFunds,
  InvalidOrder,
  OrderNotCancellable,
  OrderNotFound,
  PermissionDenied,
  PositionNotFound,
  RateLimited,
  SymbolNotTradable,
  type PerpetuaError,
  type VenueErrorInfo,
} from '../core/errors.js';
import type { ApiKind } from '../api/endpoint.js';

export type VenueErrorClass =
  | 'AuthenticationError'
  | 'PermissionDenied'
  | 'InsufficientFunds'
  | 'InvalidOrder'
  | 'OrderNotFound'
  | 'OrderNotCancellable'
  | 'PositionNotFound'
  | 'SymbolNotTradable'
  | 'FeatureDisabled'
  | 'BadRequest'
  | 'RateLimited'
  | 'ExchangeUnavailable';

/**
 * What the client does with an answer beyond throwing it:
 * resync: the venue rejected our timestamp — resync the clock offset and send again (it was rejected,
 *         so a re-send cannot duplicate anything);
 * rate-limited: wait (Retry-After or the 1, 2, 5, 10 s ladder) and send again;
 * unavailable: the venue failed while handling it — a GET may retry, a write is OutcomeUnknown;
 * firewall: blocked (HTTP 403) — never hammer, surface at once;
 * final: a definite answer.
 */
export type Disposition = 'final' | 'resync' | 'rate-limited' | 'unavailable' | 'firewall';

export interface VenueErrorRow {
  readonly cls: VenueErrorClass;
  readonly disposition?: Disposition;
}

const row = (cls: VenueErrorClass, disposition?: Disposition): VenueErrorRow => (disposition ? { cls, disposition } : { cls });

/** Spot `{code, msg}` codes (wire-protocol.md "Codes seen", plus -1121 invalid symbol). */
export const SPOT_ERROR_TABLE: Readonly<Record<number, VenueErrorRow>> = Object.freeze({
  700001: row('AuthenticationError'), // API-key format invalid
  700002: row('AuthenticationError'), // signature not valid
  700003: row('AuthenticationError', 'resync'), // timestamp outside recvWindow
  [-700003]: row('AuthenticationError', 'resync'), // same, as some gateways print it
  700004: row('BadRequest'), // mandatory parameter missing
  700005: row('BadRequest'), // recvWindow must be < 60000
  700006: row('PermissionDenied'), // IP not on the whitelist
  700007: row('PermissionDenied'), // no permission for the endpoint
  700008: row('BadRequest'), // illegal characters in a parameter
  10072: row('AuthenticationError'), // invalid access key
  10101: row('InsufficientFunds'), // insufficient balance
  10007: row('SymbolNotTradable'), // symbol not supported for API trading (not in defaultSymbols)
  30002: row('InvalidOrder'), // below the minimum amount
  30004: row('InsufficientFunds'), // insufficient position
  30005: row('InsufficientFunds'), // oversold
  30016: row('SymbolNotTradable'), // trading disabled
  30019: row('FeatureDisabled'), // API market orders disabled
  30020: row('SymbolNotTradable'), // no permission for the symbol
  30087: row('InvalidOrder'), // price outside the allowed range
  [-2011]: row('OrderNotFound'), // unknown order (cancel)
  [-2013]: row('OrderNotFound'), // order does not exist (query)
  [-1128]: row('BadRequest'), // invalid combination of optional parameters
  [-1121]: row('BadRequest'), // invalid symbol
  429: row('RateLimited', 'rate-limited'), // some gateways put the HTTP status in the body
});

/** Contract `{success:false, code, message}` codes (wire-protocol.md). */
export const CONTRACT_ERROR_TABLE: Readonly<Record<number, VenueErrorRow>> = Object.freeze({
  401: row('AuthenticationError'), // unauthorized
  402: row('AuthenticationError'), // API key expired
  406: row('PermissionDenied'), // IP not whitelisted
  500: row('ExchangeUnavailable', 'unavailable'), // internal error: outcome of a write unknown
  501: row('ExchangeUnavailable', 'unavailable'), // system busy
  510: row('RateLimited', 'rate-limited'), // request frequency too high
  513: row('AuthenticationError', 'resync'), // invalid Request-Time
  600: row('BadRequest'), // parameter error
  602: row('AuthenticationError'), // signature verification failed
  603: row('BadRequest'), // repeated request
  701: row('PermissionDenied'), // 701–704: permission required
  702: row('PermissionDenied'),
  703: row('PermissionDenied'),
  704: row('PermissionDenied'),
  1001: row('SymbolNotTradable'), // contract does not exist
  1002: row('FeatureDisabled'), // contract not allowed to place orders (refused for most API accounts)
  2005: row('InsufficientFunds'), // insufficient balance
  2009: row('PositionNotFound'), // position does not exist or is closed
  2040: row('OrderNotFound'), // order does not exist
  2041: row('OrderNotCancellable'), // order state cannot be cancelled
  3001: row('InvalidOrder'), // price type error
  8817: row('FeatureDisabled'), // risk level change disabled
});

export const ERROR_TABLES: Readonly<Record<ApiKind, Readonly<Record<number, VenueErrorRow>>>> = {
  spot: SPOT_ERROR_TABLE,
  contract: CONTRACT_ERROR_TABLE,
};

const EXCHANGE_CLASSES = {
  AuthenticationError,
  PermissionDenied,
  InsufficientFunds,
  InvalidOrder,
  OrderNotFound,
  OrderNotCancellable,
  PositionNotFound,
  SymbolNotTradable,
  FeatureDisabled,
  BadRequest,
} as const;

export interface MappedError {
  readonly error: PerpetuaError;
  readonly disposition: Disposition;
}

/** The error for a venue code (`message` is the venue's own text, already free of secrets). */
export function venueError(api: ApiKind, code: number, message: string, info: VenueErrorInfo, retryAfterMs?: number): MappedError {
  const found = ERROR_TABLES[api][code];
  const text = `${info.endpoint ?? api}: venue code ${code}: ${message || '(no message)'}`;
  if (!found) return { error: new ExchangeError(text, info), disposition: 'final' };
  const disposition = found.disposition ?? 'final';
  switch (found.cls) {
    case 'RateLimited':
      return { error: new RateLimited(text, retryAfterMs, info), disposition };
    case 'ExchangeUnavailable':
      return { error: new ExchangeUnavailable(text, info), disposition };
    default:
      return { error: new EXCHANGE_CLASSES[found.cls](text, info), disposition };
  }
}

/** The error for an HTTP status whose body carried no venue code. */
export function httpStatusError(status: number, endpoint: string, retryAfterMs?: number): MappedError {
  const info = { endpoint, httpStatus: status };
  if (status === 429 || status === 418)
    return { error: new RateLimited(`${endpoint}: rate limited (HTTP ${status})`, retryAfterMs, info), disposition: 'rate-limited' };
  if (status === 403)
    return { error: new RateLimited(`${endpoint}: blocked by the venue firewall (HTTP 403)`, retryAfterMs, info), disposition: 'firewall' };
  if (status >= 500)
    return { error: new ExchangeUnavailable(`${endpoint}: venue failed (HTTP ${status})`, info), disposition: 'unavailable' };
  if (status === 401) return { error: new AuthenticationError(`${endpoint}: unauthorized (HTTP 401)`, info), disposition: 'final' };
  return { error: new BadRequest(`${endpoint}: request refused (HTTP ${status})`, info), disposition: 'final' };
}
