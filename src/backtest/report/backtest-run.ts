/**
 * What one backtest run hands the report: everything needed to compute the metrics and draw the page,
 * and nothing that depends on how the run was executed. The runner builds one `BacktestRun` per fill
 * model (neutral first, then the band) and passes them to `writeReport`.
 *
 * In memory money is `Decimal` (domain types fit structurally: a domain `Fill` is a `RunFill`, a
 * domain `Order` is a `RunOrder`). On disk it is `BacktestRunJson`: Decimals as plain strings
 * (`toFixed()`, no exponent), keys in a fixed order, so identical runs give byte-identical files.
 *
 * Conventions the runner must keep:
 * - times are virtual-clock milliseconds (Unix epoch, UTC);
 * - the run starts flat: `initialCapital` of `valuationAsset` and no positions;
 * - `samples` are taken on the virtual clock at a fixed cadence (`samplePeriodMs`), the first at the
 *   first record's time (equity = initial capital) and the last at the last record's time;
 * - `fills` and `samples` are in time order; `orders` in creation order.
 */
import { createHash } from 'node:crypto';
import { type Decimal, D } from '../../core/decimal.js';
import { ValidationError } from '../../core/errors.js';
import type { Fill } from '../../domain/fill.js';
import type { Order } from '../../domain/order.js';

/** The three standard models every report runs, or the name of a custom one. */
export type FillModelName = 'optimistic' | 'neutral' | 'pessimistic' | (string & {});
export const STANDARD_FILL_MODELS = ['optimistic', 'neutral', 'pessimistic'] as const;

export interface RunStrategy {
  readonly id: string;
  readonly name: string;
  /** The strategy's resolved parameters (JSON values only). */
  readonly params: Readonly<Record<string, unknown>>;
}

export interface RunDataRange {
  /** Time of the first and last market record replayed, ms. */
  readonly firstTime: number;
  readonly lastTime: number;
  readonly instruments: readonly string[];
  /** Streams replayed, e.g. 'trades', 'depth', 'kline:1m', 'funding'. */
  readonly streams: readonly string[];
  readonly recordCount: number;
  /** True when some instrument had only klines and fills came from the synthetic intra-bar path. */
  readonly klineOnlyIntraBar: boolean;
}

/** Contract size and settle asset: what PnL and notional need per instrument. */
export interface RunInstrument {
  readonly symbol: string;
  readonly kind: 'spot' | 'contract';
  /** Base units per contract (1 for spot). Notional = price · qty · multiplier. */
  readonly multiplier: Decimal;
  /** Quote asset (spot) or settle coin (contract): the asset PnL is counted in. */
  readonly settleAsset: string;
}

/** The venue-neutral part of a domain `Order` the report keeps (a domain `Order` fits as is). */
export type RunOrder = Pick<
  Order,
  'clientOrderId' | 'symbol' | 'side' | 'type' | 'timeInForce' | 'status' | 'filledQty' | 'createdAt' | 'updatedAt'
> &
  Partial<
    Pick<
      Order,
      | 'venueOrderId'
      | 'price'
      | 'quantity'
      | 'quoteQuantity'
      | 'avgFillPrice'
      | 'reduceOnly'
      | 'positionSide'
      | 'submittedAt'
      | 'acceptedAt'
      | 'closedAt'
      | 'rejectReason'
    >
  >;

/** The part of a domain `Fill` the report keeps (a domain `Fill` fits as is). */
export type RunFill = Pick<Fill, 'tradeId' | 'time' | 'symbol' | 'side' | 'price' | 'quantity' | 'fee' | 'feeAsset' | 'liquidity'> &
  Partial<Pick<Fill, 'clientOrderId' | 'venueOrderId' | 'positionSide' | 'reduceOnly'>>;

export interface RunFunding {
  readonly time: number;
  readonly symbol: string;
  /** Received (+) or paid (−), in `asset`. */
  readonly amount: Decimal;
  readonly asset: string;
  readonly rate?: Decimal;
}

/** One point of the run's state, sampled on the virtual clock. Drawdown is derived from equity. */
export interface RunSample {
  readonly time: number;
  /** Account value in the valuation asset: cash + unrealised PnL / inventory at mark. */
  readonly equity: Decimal;
  /** Balance of the valuation asset (wallet balance for contracts). */
  readonly cash: Decimal;
  /** Net signed position per symbol (long > 0), summed over hedged legs. Omitted symbols are flat. */
  readonly positions: Readonly<Record<string, Decimal>>;
  /** Mark (or last) price per symbol at the sample time. */
  readonly marks: Readonly<Record<string, Decimal>>;
}

export interface BacktestRun {
  /** The resolved backtest config (JSON values only) and `configHash(config)`. */
  readonly config: unknown;
  readonly configHash: string;
  readonly strategy: RunStrategy;
  readonly seed: number;
  readonly fillModel: FillModelName;
  readonly dataRange: RunDataRange;
  readonly instruments: readonly RunInstrument[];
  readonly initialCapital: Decimal;
  readonly valuationAsset: string;
  readonly orders: readonly RunOrder[];
  readonly fills: readonly RunFill[];
  readonly funding: readonly RunFunding[];
  /** Fees paid over the run, converted to the valuation asset as the portfolio counted them. */
  readonly totalFees: Decimal;
  /** Cadence of `samples`, ms. */
  readonly samplePeriodMs: number;
  readonly samples: readonly RunSample[];
  /** Annual risk-free rate for Sharpe / Sortino (0 when absent). */
  readonly riskFreeRate?: number;
  /**
   * Present when the run streamed its record to a tape (run-tape.ts): `samples` is then a thinned
   * series (every `stride`-th), `orders` only the first ones, and the full record is in the tape's
   * files. `equity` is the full-resolution curve the metrics use.
   */
  readonly tape?: RunTapeInfo;
}

export interface RunTapeInfo {
  readonly dir: string;
  readonly stride: number;
  /** Every sample's time and equity (as numbers: what the metrics compute with). */
  readonly equity: { readonly times: readonly number[]; readonly values: readonly number[] };
  readonly orderCount: number;
  readonly ordersHash: string;
  readonly sampleCount: number;
}

// ---------------------------------------------------------------------------------------------
// Stable JSON

/** JSON value with no undefined, no functions, no non-finite numbers. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [k: string]: JsonValue };

/**
 * A number written the same way every time: rounded to 12 significant digits (so float noise like
 * 0.30000000000000004 does not leak into files), −0 as 0, non-finite as null.
 */
export function stableNumber(x: number): number | null {
  if (!Number.isFinite(x)) return null;
  if (Number.isInteger(x)) return x === 0 ? 0 : x;
  const r = Number(x.toPrecision(12));
  return r === 0 ? 0 : r;
}

/**
 * Plain JSON copy of an arbitrary value with object keys sorted (arrays keep their order): the form
 * configs and strategy params are hashed and written in, so YAML key order does not change bytes.
 * Decimals become plain strings; undefined members are dropped; non-finite numbers become null.
 */
export function canonicalJson(value: unknown, path = '$'): JsonValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return stableNumber(value);
  if (typeof value === 'bigint') return value.toString();
  if (isDecimal(value)) return value.toFixed();
  if (Array.isArray(value)) return value.map((v, i) => canonicalJson(v, `${path}[${i}]`));
  if (typeof value === 'object') {
    const out: Record<string, JsonValue> = {};
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v === undefined || typeof v === 'function') continue;
      out[k] = canonicalJson(v, `${path}.${k}`);
    }
    return out;
  }
  throw new ValidationError(path, 'a JSON value', typeof value);
}

const isDecimal = (v: unknown): v is Decimal =>
  typeof v === 'object' && v !== null && typeof (v as Decimal).toFixed === 'function' && typeof (v as Decimal).isZero === 'function';

/** sha256 (hex) of the canonical JSON of `config`: the hash the report and the journal carry. */
export function configHash(config: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(canonicalJson(config)))
    .digest('hex');
}

// ---------------------------------------------------------------------------------------------
// The on-disk form. Keys are listed in the order they are written.

export interface RunOrderJson {
  clientOrderId: string;
  venueOrderId: string | null;
  symbol: string;
  side: string;
  type: string;
  timeInForce: string;
  price: string | null;
  quantity: string | null;
  quoteQuantity: string | null;
  status: string;
  filledQty: string;
  avgFillPrice: string | null;
  reduceOnly: boolean;
  positionSide: string | null;
  createdAt: number;
  submittedAt: number | null;
  acceptedAt: number | null;
  closedAt: number | null;
  updatedAt: number;
  rejectReason: string | null;
}

export interface RunFillJson {
  tradeId: string;
  time: number;
  clientOrderId: string | null;
  venueOrderId: string | null;
  symbol: string;
  side: string;
  price: string;
  quantity: string;
  fee: string;
  feeAsset: string;
  liquidity: string;
  positionSide: string | null;
  reduceOnly: boolean;
}

export interface RunFundingJson {
  time: number;
  symbol: string;
  amount: string;
  asset: string;
  rate: string | null;
}

export interface RunSampleJson {
  time: number;
  equity: string;
  cash: string;
  positions: Record<string, string>;
  marks: Record<string, string>;
}

const s = (d: Decimal | undefined): string | null => (d === undefined ? null : d.toFixed());
const n = (x: number | undefined): number | null => (x === undefined ? null : x);
const sortedRecord = (r: Readonly<Record<string, Decimal>>): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const k of Object.keys(r).sort()) {
    const v = r[k];
    if (v !== undefined) out[k] = v.toFixed();
  }
  return out;
};

export function orderToJson(o: RunOrder): RunOrderJson {
  return {
    clientOrderId: o.clientOrderId,
    venueOrderId: o.venueOrderId ?? null,
    symbol: o.symbol,
    side: o.side,
    type: o.type,
    timeInForce: o.timeInForce,
    price: s(o.price),
    quantity: s(o.quantity),
    quoteQuantity: s(o.quoteQuantity),
    status: o.status,
    filledQty: o.filledQty.toFixed(),
    avgFillPrice: s(o.avgFillPrice),
    reduceOnly: o.reduceOnly === true,
    positionSide: o.positionSide ?? null,
    createdAt: o.createdAt,
    submittedAt: n(o.submittedAt),
    acceptedAt: n(o.acceptedAt),
    closedAt: n(o.closedAt),
    updatedAt: o.updatedAt,
    rejectReason: o.rejectReason ?? null,
  };
}

export function fillToJson(f: RunFill): RunFillJson {
  return {
    tradeId: f.tradeId,
    time: f.time,
    clientOrderId: f.clientOrderId ?? null,
    venueOrderId: f.venueOrderId ?? null,
    symbol: f.symbol,
    side: f.side,
    price: f.price.toFixed(),
    quantity: f.quantity.toFixed(),
    fee: f.fee.toFixed(),
    feeAsset: f.feeAsset,
    liquidity: f.liquidity,
    positionSide: f.positionSide ?? null,
    reduceOnly: f.reduceOnly === true,
  };
}

export function fundingToJson(f: RunFunding): RunFundingJson {
  return { time: f.time, symbol: f.symbol, amount: f.amount.toFixed(), asset: f.asset, rate: s(f.rate) };
}

export function sampleToJson(x: RunSample): RunSampleJson {
  return {
    time: x.time,
    equity: x.equity.toFixed(),
    cash: x.cash.toFixed(),
    positions: sortedRecord(x.positions),
    marks: sortedRecord(x.marks),
  };
}

/** The run's identity and inputs, as written at the top of report.json. */
export interface RunHeaderJson {
  strategy: { id: string; name: string; params: JsonValue };
  seed: number;
  fillModel: string;
  configHash: string;
  config: JsonValue;
  dataRange: {
    firstTime: number;
    lastTime: number;
    instruments: string[];
    streams: string[];
    recordCount: number;
    klineOnlyIntraBar: boolean;
  };
  instruments: { symbol: string; kind: string; multiplier: string; settleAsset: string }[];
  initialCapital: string;
  valuationAsset: string;
  samplePeriodMs: number;
  riskFreeRate: number;
}

export function runHeaderToJson(run: BacktestRun): RunHeaderJson {
  return {
    strategy: { id: run.strategy.id, name: run.strategy.name, params: canonicalJson(run.strategy.params) },
    seed: run.seed,
    fillModel: run.fillModel,
    configHash: run.configHash,
    config: canonicalJson(run.config),
    dataRange: {
      firstTime: run.dataRange.firstTime,
      lastTime: run.dataRange.lastTime,
      instruments: [...run.dataRange.instruments],
      streams: [...run.dataRange.streams],
      recordCount: run.dataRange.recordCount,
      klineOnlyIntraBar: run.dataRange.klineOnlyIntraBar,
    },
    instruments: run.instruments.map((i) => ({
      symbol: i.symbol,
      kind: i.kind,
      multiplier: i.multiplier.toFixed(),
      settleAsset: i.settleAsset,
    })),
    initialCapital: run.initialCapital.toFixed(),
    valuationAsset: run.valuationAsset,
    samplePeriodMs: run.samplePeriodMs,
    riskFreeRate: run.riskFreeRate ?? 0,
  };
}

/** Checks what the metrics rely on; throws ValidationError naming the field. */
export function validateRun(run: BacktestRun): void {
  if (!/^[0-9a-f]{64}$/.test(run.configHash)) throw new ValidationError('run.configHash', 'a sha256 hex digest', run.configHash);
  if (run.initialCapital.lte(0)) throw new ValidationError('run.initialCapital', 'an amount > 0', run.initialCapital.toFixed());
  if (!(run.samplePeriodMs > 0)) throw new ValidationError('run.samplePeriodMs', 'a period > 0 ms', String(run.samplePeriodMs));
  if (run.dataRange.lastTime < run.dataRange.firstTime)
    throw new ValidationError('run.dataRange.lastTime', '≥ firstTime', String(run.dataRange.lastTime));
  for (let i = 1; i < run.samples.length; i++) {
    if (run.samples[i]!.time < run.samples[i - 1]!.time)
      throw new ValidationError(`run.samples[${i}].time`, 'samples in time order', String(run.samples[i]!.time));
  }
  for (let i = 1; i < run.fills.length; i++) {
    if (run.fills[i]!.time < run.fills[i - 1]!.time)
      throw new ValidationError(`run.fills[${i}].time`, 'fills in time order', String(run.fills[i]!.time));
  }
  const known = new Set(run.instruments.map((i) => i.symbol));
  for (const f of run.fills) {
    if (!known.has(f.symbol)) throw new ValidationError('run.instruments', `an entry for ${f.symbol}`);
  }
}

/** Multiplier per symbol (1 when the instrument is not listed). */
export function multiplierOf(run: Pick<BacktestRun, 'instruments'>): (symbol: string) => Decimal {
  const m = new Map(run.instruments.map((i) => [i.symbol, i.multiplier]));
  return (symbol) => m.get(symbol) ?? D(1);
}
