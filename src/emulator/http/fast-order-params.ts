/**
 * A fast path for the one request that matters for throughput, spot order placement: when every
 * parameter is already in canonical wire form (plain decimals without leading or trailing zeros, known
 * enums, a well-formed client id) and the type rules hold, the output of the catalogue's request
 * schema is the input itself, so the zod pass is skipped. Anything else — including every request the
 * schema would refuse — returns undefined and goes through the catalogue schema, which words the error.
 * The checks here are a strict subset of api/spot/orders.ts (newOrderRequest); the conformance tests
 * run both paths.
 */
import { SPOT_ORDER_TYPES, SPOT_STP_MODES } from '../../domain/spot-enums.js';

const SYMBOL = /^[A-Z0-9]{2,30}$/;
/** Canonical positive decimal: what Decimal#toFixed would give back unchanged (≤ 30 digits). */
const DECIMAL = /^(?:0|[1-9]\d{0,19})(?:\.\d{0,9}[1-9])?$/;
const CLIENT_ID = /^[A-Za-z0-9.:/_-]{1,64}$/;
const RECV_WINDOW = /^[1-9]\d{0,4}$/;
const TYPES: ReadonlySet<string> = new Set(SPOT_ORDER_TYPES);
const PRICED: ReadonlySet<string> = new Set(['LIMIT', 'LIMIT_MAKER', 'IMMEDIATE_OR_CANCEL', 'FILL_OR_KILL']);
const STP: ReadonlySet<string> = new Set(SPOT_STP_MODES);
const ALLOWED: ReadonlySet<string> = new Set([
  'symbol',
  'side',
  'type',
  'quantity',
  'quoteOrderQty',
  'price',
  'newClientOrderId',
  'stpMode',
  'recvWindow',
]);

const positive = (v: unknown): v is string => typeof v === 'string' && DECIMAL.test(v) && v !== '0' && !/^0(\.0*)?$/.test(v);

export function fastOrderParams(p: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined {
  for (const k in p) if (!ALLOWED.has(k)) return undefined;
  const { symbol, side, type, quantity, quoteOrderQty, price, newClientOrderId, stpMode, recvWindow } = p;
  if (typeof symbol !== 'string' || !SYMBOL.test(symbol)) return undefined;
  if (side !== 'BUY' && side !== 'SELL') return undefined;
  if (typeof type !== 'string' || !TYPES.has(type)) return undefined;
  if (quantity !== undefined && !positive(quantity)) return undefined;
  if (quoteOrderQty !== undefined && !positive(quoteOrderQty)) return undefined;
  if (price !== undefined && !positive(price)) return undefined;
  if (newClientOrderId !== undefined && (typeof newClientOrderId !== 'string' || !CLIENT_ID.test(newClientOrderId))) return undefined;
  if (stpMode !== undefined && (typeof stpMode !== 'string' || !STP.has(stpMode))) return undefined;
  if (recvWindow !== undefined && (typeof recvWindow !== 'string' || !RECV_WINDOW.test(recvWindow) || Number(recvWindow) > 60_000))
    return undefined;
  if (PRICED.has(type)) {
    if (price === undefined || quantity === undefined || quoteOrderQty !== undefined) return undefined;
  } else if ((quantity === undefined) === (quoteOrderQty === undefined)) {
    return undefined;
  }
  return { ...p };
}
