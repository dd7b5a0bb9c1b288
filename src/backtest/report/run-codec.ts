/**
 * The whole run as plain JSON and back. Decimals do not survive structured cloning (a worker thread
 * posting a `BacktestRun` would deliver prototype-less objects), so sweep and fill-model workers post
 * `runToJson(run)` and the main thread rebuilds it with `runFromJson`.
 */
import { type Decimal, D } from '../../core/decimal.js';
import type { ClientOrderId, InstrumentSymbol, OrderId, TradeId } from '../../core/ids.js';
import type { Liquidity, OrderSide, OrderStatus, OrderType, PositionSide, TimeInForce } from '../../domain/order.js';
import {
  type BacktestRun,
  type RunFill,
  type RunFillJson,
  type RunFundingJson,
  type RunHeaderJson,
  type RunOrder,
  type RunOrderJson,
  type RunSample,
  type RunSampleJson,
  type RunTapeInfo,
  fillToJson,
  fundingToJson,
  orderToJson,
  runHeaderToJson,
  sampleToJson,
} from './backtest-run.js';

export interface BacktestRunJson {
  header: RunHeaderJson;
  totalFees: string;
  orders: RunOrderJson[];
  fills: RunFillJson[];
  funding: RunFundingJson[];
  samples: RunSampleJson[];
  /** A run that streamed its record to a tape (plain numbers and strings already). */
  tape?: RunTapeInfo;
}

export function runToJson(run: BacktestRun): BacktestRunJson {
  return {
    header: runHeaderToJson(run),
    totalFees: run.totalFees.toFixed(),
    orders: run.orders.map(orderToJson),
    fills: run.fills.map(fillToJson),
    funding: run.funding.map(fundingToJson),
    samples: run.samples.map(sampleToJson),
    ...(run.tape !== undefined ? { tape: run.tape } : {}),
  };
}

const od = (s: string | null): Decimal | undefined => (s === null ? undefined : D(s));
const decRecord = (r: Record<string, string>): Record<string, Decimal> => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, D(v)]));

/** Inverse of `runToJson`: `runToJson(runFromJson(j))` deep-equals `j`. */
export function runFromJson(j: BacktestRunJson): BacktestRun {
  const h = j.header;
  const orders: RunOrder[] = j.orders.map((o) => ({
    clientOrderId: o.clientOrderId as ClientOrderId,
    ...(o.venueOrderId !== null ? { venueOrderId: o.venueOrderId as OrderId } : {}),
    symbol: o.symbol as InstrumentSymbol,
    side: o.side as OrderSide,
    type: o.type as OrderType,
    timeInForce: o.timeInForce as TimeInForce,
    ...(o.price !== null ? { price: od(o.price)! } : {}),
    ...(o.quantity !== null ? { quantity: od(o.quantity)! } : {}),
    ...(o.quoteQuantity !== null ? { quoteQuantity: od(o.quoteQuantity)! } : {}),
    status: o.status as OrderStatus,
    filledQty: D(o.filledQty),
    ...(o.avgFillPrice !== null ? { avgFillPrice: od(o.avgFillPrice)! } : {}),
    ...(o.reduceOnly ? { reduceOnly: true } : {}),
    ...(o.positionSide !== null ? { positionSide: o.positionSide as PositionSide } : {}),
    createdAt: o.createdAt,
    ...(o.submittedAt !== null ? { submittedAt: o.submittedAt } : {}),
    ...(o.acceptedAt !== null ? { acceptedAt: o.acceptedAt } : {}),
    ...(o.closedAt !== null ? { closedAt: o.closedAt } : {}),
    updatedAt: o.updatedAt,
    ...(o.rejectReason !== null ? { rejectReason: o.rejectReason } : {}),
  }));
  const fills: RunFill[] = j.fills.map((f) => ({
    tradeId: f.tradeId as TradeId,
    time: f.time,
    ...(f.clientOrderId !== null ? { clientOrderId: f.clientOrderId as ClientOrderId } : {}),
    ...(f.venueOrderId !== null ? { venueOrderId: f.venueOrderId as OrderId } : {}),
    symbol: f.symbol as InstrumentSymbol,
    side: f.side as OrderSide,
    price: D(f.price),
    quantity: D(f.quantity),
    fee: D(f.fee),
    feeAsset: f.feeAsset,
    liquidity: f.liquidity as Liquidity,
    ...(f.positionSide !== null ? { positionSide: f.positionSide as PositionSide } : {}),
    ...(f.reduceOnly ? { reduceOnly: true } : {}),
  }));
  const samples: RunSample[] = j.samples.map((x) => ({
    time: x.time,
    equity: D(x.equity),
    cash: D(x.cash),
    positions: decRecord(x.positions),
    marks: decRecord(x.marks),
  }));
  return {
    config: h.config,
    configHash: h.configHash,
    strategy: { id: h.strategy.id, name: h.strategy.name, params: (h.strategy.params ?? {}) as Record<string, unknown> },
    seed: h.seed,
    fillModel: h.fillModel,
    dataRange: { ...h.dataRange },
    instruments: h.instruments.map((i) => ({
      symbol: i.symbol,
      kind: i.kind as 'spot' | 'contract',
      multiplier: D(i.multiplier),
      settleAsset: i.settleAsset,
    })),
    initialCapital: D(h.initialCapital),
    valuationAsset: h.valuationAsset,
    orders,
    fills,
    funding: j.funding.map((f) => ({
      time: f.time,
      symbol: f.symbol,
      amount: D(f.amount),
      asset: f.asset,
      ...(f.rate !== null ? { rate: D(f.rate) } : {}),
    })),
    totalFees: D(j.totalFees),
    samplePeriodMs: h.samplePeriodMs,
    samples,
    riskFreeRate: h.riskFreeRate,
    ...(j.tape !== undefined ? { tape: j.tape } : {}),
  };
}
