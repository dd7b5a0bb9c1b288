/**
 * What the spot venue says when it refuses a command: the real venue's `{code, msg}` as a VALUE (the
 * HTTP layer answers it with status 400; the simulated gateway maps it through the client's error
 * table), never a thrown error.
 *
 * Codes come from wire-protocol.md where it lists them; the rest from the codes the real venue is
 * known to return (ccxt's MEXC exact-code table, hummingbot's captured "amount scale is invalid" body
 * with code 400), noted per row. -2010 is the Binance-family "new order rejected" code the venue's
 * v3 API shares (-1121, -1128, -2011, -2013 come from the same family); the venue's exact code for a
 * taking LIMIT_MAKER or a duplicate client id is not documented.
 */
export interface SpotRejection {
  readonly ok: false;
  readonly code: number;
  readonly msg: string;
}

export const SpotRejectCode = {
  /** Unknown symbol. */
  INVALID_SYMBOL: -1121,
  /** quantity and quoteOrderQty together, or another bad combination. */
  PARAM_COMBINATION: -1128,
  /** LIMIT_MAKER that would take; client order id already used by an open order. (Binance family) */
  ORDER_REJECTED: -2010,
  /** Cancel of an unknown (or no longer open) order. */
  UNKNOWN_ORDER: -2011,
  /** Query of an unknown order. */
  NO_SUCH_ORDER: -2013,
  /** Price / quantity / amount with more decimals than the symbol allows (real body: code 400). */
  BAD_SCALE: 400,
  /** A mandatory parameter missing, empty or not positive; also neither orderId nor origClientOrderId. */
  MANDATORY_PARAM: 700004,
  /** Symbol not in defaultSymbols: not tradable through the API. */
  SYMBOL_NOT_API_TRADABLE: 10007,
  /** Buy without enough free quote (also withdrawals beyond the free balance). */
  INSUFFICIENT_BALANCE: 10101,
  /** tradeSideType forbids this side. (ccxt: "current transaction direction is not allowed") */
  SIDE_NOT_ALLOWED: 30001,
  /** Below minimum quantity or minimum quote amount. */
  BELOW_MINIMUM: 30002,
  /** Above maximum quote amount. (ccxt: "maximum transaction volume cannot be greater than") */
  ABOVE_MAXIMUM: 30003,
  /** Sell without enough free base. */
  OVERSOLD: 30005,
  /** Symbol not online, or tradeSideType closed. */
  TRADING_DISABLED: 30016,
  /** MARKET not among the symbol's order types. */
  MARKET_ORDERS_DISABLED: 30019,
  /** Open-order cap reached. (ccxt: "cannot exceed the maximum order limit") */
  MAX_OPEN_ORDERS: 30029,
  /** Order type not offered for the symbol. (ccxt: "current order type can not place order") */
  ORDER_TYPE_NOT_ALLOWED: 30041,
  /** PERCENT_PRICE_BY_SIDE band. */
  PRICE_OUT_OF_RANGE: 30087,
} as const;
export type SpotRejectCode = (typeof SpotRejectCode)[keyof typeof SpotRejectCode];

export const reject = (code: number, msg: string): SpotRejection => ({ ok: false, code, msg });

export const isRejection = (v: unknown): v is SpotRejection =>
  typeof v === 'object' && v !== null && (v as { ok?: unknown }).ok === false && typeof (v as { code?: unknown }).code === 'number';

export const REJECT = {
  invalidSymbol: () => reject(SpotRejectCode.INVALID_SYMBOL, 'Invalid symbol.'),
  notApiTradable: () => reject(SpotRejectCode.SYMBOL_NOT_API_TRADABLE, 'symbol not support api'),
  tradingDisabled: () => reject(SpotRejectCode.TRADING_DISABLED, 'trading disabled'),
  sideNotAllowed: () => reject(SpotRejectCode.SIDE_NOT_ALLOWED, 'The current transaction direction is not allowed to place an order'),
  marketDisabled: () => reject(SpotRejectCode.MARKET_ORDERS_DISABLED, 'api market order is disabled'),
  typeNotAllowed: () => reject(SpotRejectCode.ORDER_TYPE_NOT_ALLOWED, 'current order type can not place order'),
  mandatory: (param: string) =>
    reject(SpotRejectCode.MANDATORY_PARAM, `Mandatory parameter '${param}' was not sent, was empty/null, or malformed.`),
  combination: () => reject(SpotRejectCode.PARAM_COMBINATION, 'Combination of optional parameters invalid.'),
  priceScale: () => reject(SpotRejectCode.BAD_SCALE, 'price scale is invalid'),
  quantityScale: () => reject(SpotRejectCode.BAD_SCALE, 'quantity scale is invalid'),
  amountScale: () => reject(SpotRejectCode.BAD_SCALE, 'amount scale is invalid'),
  belowMinimum: (what: string) => reject(SpotRejectCode.BELOW_MINIMUM, `The minimum transaction volume cannot be less than:${what}`),
  aboveMaximum: (what: string) => reject(SpotRejectCode.ABOVE_MAXIMUM, `The maximum transaction volume cannot be greater than:${what}`),
  priceOutOfRange: () => reject(SpotRejectCode.PRICE_OUT_OF_RANGE, 'Order price is outside the allowed range'),
  insufficientBalance: () => reject(SpotRejectCode.INSUFFICIENT_BALANCE, 'Insufficient balance'),
  oversold: () => reject(SpotRejectCode.OVERSOLD, 'Oversold'),
  maxOpenOrders: (limit: number) => reject(SpotRejectCode.MAX_OPEN_ORDERS, `Cannot exceed the maximum order limit: ${limit}`),
  wouldTake: () => reject(SpotRejectCode.ORDER_REJECTED, 'Order would immediately match and take.'),
  duplicateClientId: () => reject(SpotRejectCode.ORDER_REJECTED, 'Duplicate order sent.'),
  unknownOrder: () => reject(SpotRejectCode.UNKNOWN_ORDER, 'Unknown order sent.'),
  noSuchOrder: () => reject(SpotRejectCode.NO_SUCH_ORDER, 'Order does not exist.'),
  orderRef: () => reject(SpotRejectCode.MANDATORY_PARAM, "Param 'origClientOrderId' or 'orderId' must be sent, but both were empty/null!"),
} as const;
