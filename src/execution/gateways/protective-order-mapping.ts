/**
 * Trailing (trackorder, contract-api.md §2.8 / §4.6) and plan (planorder) orders that close a position
 * ↔ the domain's PositionProtection. Pure functions shared by the REST gateway and the backtest's
 * simulated venue, which speak the same codes (the wire and the venue engine's commands).
 *
 * A protective order closes: side 4 (close long) or 2 (close short), in hedged and one-way mode alike
 * (one-way adds reduceOnly). Its direction decides the plan trigger's comparison: a stop-loss of a long
 * fires when the price is ≤ its level (triggerType 2), a take-profit when ≥ (1); a short's the reverse.
 * A trailing callback is a fraction of the benchmark (backType 1: 0.01 = 1 %), as the venue takes it.
 * Plan orders are placed for 7 days (executeCycle code 2, the longest the venue offers): past that the
 * venue ends them, the protection check sees the position unprotected and the strategy re-arms it.
 */
import { toPlain } from '../../core/decimal.js';
import { ValidationError } from '../../core/errors.js';
import type { InstrumentSymbol } from '../../core/ids.js';
import type { PlanOrder, TrackOrder } from '../../api/contract/order-schemas.js';
import {
  BackType,
  ContractOrderType,
  ContractSide,
  PlanOrderState,
  PositionMode,
  TrackOrderState,
  TriggerType,
} from '../../domain/contract-enums.js';
import type { ContractInstrument } from '../../domain/instrument.js';
import type { PositionSide } from '../../domain/order.js';
import type { PositionProtection } from '../../domain/position.js';
import type { ProtectiveOrderRequest } from '../exchange-gateway.js';
import { OPEN_TYPE, TRIGGER_TREND } from './contract-order-mapping.js';
import { quantityOnStep, triggerPriceOnTick } from './order-rounding.js';

/** executeCycle request code for 7 days (the venue engine takes hours: 168). */
export const PLAN_CYCLE_CODE = 2 as const;
export const PLAN_CYCLE_HOURS = 168;

const closeSide = (s: PositionSide): ContractSide => (s === 'long' ? ContractSide.CLOSE_LONG : ContractSide.CLOSE_SHORT);

/** The position side a closing trigger order closes, or undefined for an opening one. */
export function closedSide(side: number | undefined): PositionSide | undefined {
  return side === ContractSide.CLOSE_LONG ? 'long' : side === ContractSide.CLOSE_SHORT ? 'short' : undefined;
}

/** What the position supplies when the request names no leverage / margin mode. */
export interface HeldSettings {
  readonly leverage?: number;
  readonly openType?: number;
}

function common(req: ProtectiveOrderRequest, inst: ContractInstrument, mode: PositionMode, held: HeldSettings) {
  const openType = req.marginMode ? OPEN_TYPE[req.marginMode] : held.openType;
  if (openType === undefined) throw new ValidationError('marginMode', 'isolated or cross (no open position to take it from)');
  return {
    symbol: req.symbol,
    side: closeSide(req.positionSide),
    vol: toPlain(quantityOnStep(req.quantity, inst.volUnit, 'quantity')),
    openType: openType as 1 | 2,
    trend: TRIGGER_TREND[req.triggerPriceType ?? 'last'],
    positionMode: mode,
    ...(mode === PositionMode.ONE_WAY ? { reduceOnly: true } : {}),
  };
}

/** trackorder/place body (leverage required by the venue: the request's, else the position's). */
export function trackOrderParams(req: ProtectiveOrderRequest, inst: ContractInstrument, mode: PositionMode, held: HeldSettings) {
  if (req.spec.type !== 'trailing') throw new ValidationError('spec.type', 'trailing', req.spec.type);
  const leverage = req.leverage ?? held.leverage;
  if (leverage === undefined) throw new ValidationError('leverage', 'an integer leverage (no open position to take it from)');
  const a = req.spec.activationPrice;
  return {
    ...common(req, inst, mode, held),
    leverage,
    backType: BackType.PERCENT,
    backValue: toPlain(req.spec.callbackRate),
    ...(a ? { activePrice: toPlain(triggerPriceOnTick(a, inst.priceUnit, 'activationPrice')) } : {}),
  };
}

/** planorder/place/v2 body: a market close when the trigger is reached; executeCycle as the wire code. */
export function planOrderParams(req: ProtectiveOrderRequest, inst: ContractInstrument, mode: PositionMode, held: HeldSettings) {
  if (req.spec.type !== 'plan') throw new ValidationError('spec.type', 'plan', req.spec.type);
  const long = req.positionSide === 'long';
  const stop = req.spec.role === 'stop-loss';
  return {
    ...common(req, inst, mode, held),
    ...(req.leverage !== undefined ? { leverage: req.leverage } : held.leverage !== undefined ? { leverage: held.leverage } : {}),
    triggerPrice: toPlain(triggerPriceOnTick(req.spec.triggerPrice, inst.priceUnit, 'triggerPrice')),
    // Long stop-loss and short take-profit fire on a fall; the other two on a rise.
    triggerType: long === stop ? TriggerType.LTE : TriggerType.GTE,
    executeCycle: PLAN_CYCLE_CODE,
    orderType: ContractOrderType.MARKET,
  };
}

/** The protection a placed request stands for (the venue answers with its id only). */
export function placedProtection(req: ProtectiveOrderRequest, id: string): PositionProtection {
  const base = { symbol: req.symbol, positionSide: req.positionSide, quantity: req.quantity, id };
  const s = req.spec;
  if (s.type === 'trailing')
    return {
      ...base,
      kind: 'trailing',
      callbackRate: s.callbackRate,
      ...(s.activationPrice ? { activationPrice: s.activationPrice } : {}),
    };
  return { ...base, kind: 'plan', ...(s.role === 'stop-loss' ? { stopLossPrice: s.triggerPrice } : { takeProfitPrice: s.triggerPrice }) };
}

/** A trailing order as the venue lists it (wire §2.8 or the engine's view): the fields read here. */
export type TrackOrderLike = Pick<
  TrackOrder,
  'id' | 'side' | 'vol' | 'state' | 'backType' | 'backValue' | 'activePrice' | 'markPrice' | 'triggerPrice' | 'createTime'
>;

/** A live (inactive or active) trailing order closing a position, as protection; undefined otherwise. */
export function trackProtection(symbol: InstrumentSymbol, t: TrackOrderLike): PositionProtection | undefined {
  const side = closedSide(t.side);
  if (!side || (t.state !== TrackOrderState.INACTIVE && t.state !== TrackOrderState.ACTIVE)) return undefined;
  return {
    symbol,
    positionSide: side,
    kind: 'trailing',
    id: String(t.id),
    ...(t.vol ? { quantity: t.vol } : {}),
    ...(t.backType === BackType.PERCENT && t.backValue ? { callbackRate: t.backValue } : {}),
    ...(t.activePrice ? { activationPrice: t.activePrice } : {}),
    ...(t.markPrice ? { benchmark: t.markPrice } : {}),
    ...(t.triggerPrice && t.triggerPrice.gt(0) ? { triggerPrice: t.triggerPrice } : {}),
    ...(t.createTime !== undefined ? { createdAt: t.createTime } : {}),
  };
}

/** A plan order as the venue lists it: the fields read here. */
export type PlanOrderLike = Pick<PlanOrder, 'id' | 'side' | 'vol' | 'state' | 'triggerPrice' | 'triggerType' | 'createTime'>;

/** An untriggered plan order closing a position, as a stop-loss or take-profit level; undefined otherwise. */
export function planProtection(symbol: InstrumentSymbol, p: PlanOrderLike): PositionProtection | undefined {
  const side = closedSide(p.side);
  if (!side || p.state !== PlanOrderState.UNTRIGGERED) return undefined;
  const onFall = p.triggerType === TriggerType.LTE;
  const stop = side === 'long' ? onFall : !onFall;
  return {
    symbol,
    positionSide: side,
    kind: 'plan',
    id: String(p.id),
    quantity: p.vol,
    ...(stop ? { stopLossPrice: p.triggerPrice } : { takeProfitPrice: p.triggerPrice }),
    triggerPrice: p.triggerPrice,
    ...(p.createTime !== undefined ? { createdAt: p.createTime } : {}),
  };
}
