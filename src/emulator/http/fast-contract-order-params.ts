/**
 * The contract twin of fast-order-params.ts, for POST /api/v1/private/order/create: when the parsed
 * JSON body is already in the form the catalogue's request schema outputs (JSON numbers for prices and
 * volumes in plain notation with at most 15 significant digits, integer codes as numbers, booleans as
 * booleans, ids as digit strings) and the cross-field rules hold, the schema's output is the body
 * itself, so the zod pass (about 17 µs, the largest cost of the HTTP layer on this path) is skipped.
 * Anything else — strings for numbers, zero prices, an idle reduceOnly, every request the schema would
 * refuse — returns undefined and goes through api/contract/orders.ts (createOrderRequest), which words
 * the error. test/emulator/fast-params.test.ts checks that every accepted body parses to the same value.
 */

/** Canonical contract symbol (api/wire.ts contractSymbolParam). */
const SYMBOL = /^[A-Z0-9]{1,20}_[A-Z0-9]{2,10}$/;
/** A double's shortest text in plain notation (no exponent): what Decimal would give back. */
const PLAIN = /^(?:0|[1-9]\d*)(?:\.\d+)?$/;
const LONG_ID = /^\d{1,19}$/;
/** Significant digits a JSON number may carry (api/contract/params.ts JSON_SAFE_DIGITS). */
const MAX_DIGITS = 15;

/** A Map, not an object: a body key such as `__proto__` must not find anything. */
const CODES: ReadonlyMap<string, readonly number[]> = new Map([
  ['side', [1, 2, 3, 4]],
  ['type', [1, 2, 3, 4, 5, 6]],
  ['openType', [1, 2]],
  ['positionMode', [1, 2]],
  ['lossTrend', [1, 2, 3]],
  ['profitTrend', [1, 2, 3]],
  ['priceProtect', [0, 1]],
  ['bboTypeNum', [0, 1, 2, 3, 4]],
  ['stpMode', [0, 1, 2, 3]],
]);
const PRICES: ReadonlySet<string> = new Set(['price', 'vol', 'stopLossPrice', 'takeProfitPrice']);
const FLAGS: ReadonlySet<string> = new Set(['reduceOnly', 'marketCeiling', 'flashClose']);

/** A JSON number > 0 that jsonDec / jsonDecNonNeg pass through unchanged. */
function plainPositive(v: unknown): boolean {
  if (typeof v !== 'number' || !(v > 0) || !Number.isFinite(v)) return false;
  const s = String(v);
  if (!PLAIN.test(s)) return false;
  // Digits without the point and the leading zeros: at least the significant digits Decimal#sd counts.
  let digits = 0;
  let leading = true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x2e) continue;
    if (leading && c === 0x30) continue;
    leading = false;
    digits++;
  }
  return digits <= MAX_DIGITS;
}

export function fastContractOrderParams(p: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined {
  for (const k in p) {
    const v = p[k];
    if (k === 'symbol') {
      if (typeof v !== 'string' || !SYMBOL.test(v)) return undefined;
    } else if (PRICES.has(k)) {
      if (!plainPositive(v)) return undefined;
    } else if (k === 'leverage') {
      if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) return undefined;
    } else if (FLAGS.has(k)) {
      if (typeof v !== 'boolean') return undefined;
    } else if (k === 'externalOid') {
      if (typeof v !== 'string' || v.length > 64) return undefined;
    } else if (k === 'positionId') {
      if (typeof v !== 'string' || !LONG_ID.test(v) || !/[1-9]/.test(v)) return undefined;
    } else {
      const codes = CODES.get(k);
      if (codes === undefined || typeof v !== 'number' || !codes.includes(v)) return undefined;
    }
  }
  const { symbol, price, vol, side, type, openType, leverage, reduceOnly, positionMode } = p;
  if (symbol === undefined || vol === undefined || side === undefined || type === undefined || openType === undefined) return undefined;
  // The schema's cross-field rules (orderRules): a price > 0 for types 1-4 (market types may leave it
  // out: zero goes the long way), leverage when opening; reduceOnly only one-way, where it may be kept.
  if (price === undefined && type !== 5 && type !== 6) return undefined;
  if ((side === 1 || side === 3) && leverage === undefined) return undefined;
  if (reduceOnly !== undefined && positionMode !== 2) return undefined;
  return { ...p };
}
