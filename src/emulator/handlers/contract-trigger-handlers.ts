/**
 * Signed contract endpoints of the trigger orders, on the venue's trigger book
 * (venue/contract/triggers): TP/SL (stoporder/*, planorder/change_stop_order), trigger (plan) orders
 * (planorder/*) and trailing orders (trackorder/*). TP/SL attached at order/create goes through the
 * plain placement (contract-trade-handlers.ts), which hands the venue its prices and price types.
 *
 * Choices where the document is silent:
 * - planorder/place and place/v2 take executeCycle as the request code 1 (24 hours) or 2 (7 days);
 *   the venue and the list answer hours.
 * - stoporder/cancel and planorder/cancel cancel every element they can; when all succeed the answer
 *   is the common response, otherwise the code of the first element that failed (2040 not found,
 *   2041 no longer untriggered) with every failure in the message.
 * - trackorder/cancel without trackOrderId cancels the live trailing orders of `symbol`, or of every
 *   contract without one; with an id it answers 2040 / 2041 like order cancels.
 * - Placements answer the new id as a string (place/v2 and trackorder/place carry strings).
 * - Accounts whose contract trading is switched off are refused placements with 1002, as order/create.
 */
import type { ContractOrderType, ContractSide, OpenType, PositionMode } from '../../domain/contract-enums.js';
import type { CancelResultEntry, Rejected } from '../../venue/contract/contract-requests.js';
import type { ContractEngine } from '../engine/contract-engine.js';
import { contractInstrumentOf, type EmulatorContext } from '../emulator-context.js';
import { ContractError, contractRefusal, WireError } from '../http/wire-error.js';
import { planOrderWire, stopOrderWire, trackOrderWire } from './contract-trigger-wire.js';
import { NO_DATA, type ApiCall, type EndpointHandler } from './handler.js';

const refused = (r: Rejected): WireError => contractRefusal(r.code, r.message);

/** executeCycle request codes → hours. */
const CYCLE_HOURS: Readonly<Record<number, number>> = { 1: 24, 2: 168 };

interface Paging {
  page_num?: number;
  page_size?: number;
}

type Price = number | null | undefined;

interface PlanParams {
  symbol: string;
  price?: number;
  vol: number;
  leverage?: number;
  side: ContractSide;
  openType: OpenType;
  triggerPrice: number;
  triggerType: number;
  executeCycle: number;
  orderType: ContractOrderType;
  trend: number;
  positionMode?: PositionMode;
  reduceOnly?: boolean;
  priceProtect?: number;
  lossTrend?: number;
  profitTrend?: number;
  stopLossPrice?: number;
  takeProfitPrice?: number;
}

interface TpSlChange {
  stopLossPrice?: Price;
  takeProfitPrice?: Price;
  lossTrend?: number;
  profitTrend?: number;
  takeProfitReverse?: number;
  stopLossReverse?: number;
}

export function contractTriggerHandlers(ctx: EmulatorContext, engine: ContractEngine): Record<string, EndpointHandler> {
  const venue = engine.venue;
  const reader = engine.reader;
  const mayTrade = (c: { readonly account: ApiCall['account'] }) => {
    if (!c.account!.contractTradingAllowed) throw ContractError.contractNotAllowed();
  };
  const knownSymbol = (symbol: string | undefined) => {
    if (symbol !== undefined && symbol !== '') contractInstrumentOf(ctx, symbol);
  };
  const allCancelled = (list: readonly CancelResultEntry[]) => {
    const failed = list.filter((e) => e.errorCode !== 0);
    if (failed.length === 0) return NO_DATA;
    throw new WireError('contract', failed[0]!.errorCode, failed.map((e) => `${e.orderId}: ${e.errorMsg}`).join('; '), 200);
  };
  const planRequest = (p: PlanParams) => ({
    symbol: p.symbol,
    price: p.price,
    vol: p.vol,
    leverage: p.leverage,
    side: p.side,
    openType: p.openType,
    triggerPrice: p.triggerPrice,
    triggerType: p.triggerType,
    executeCycle: CYCLE_HOURS[p.executeCycle] ?? p.executeCycle,
    orderType: p.orderType,
    trend: p.trend,
    positionMode: p.positionMode,
    reduceOnly: p.reduceOnly,
    priceProtect: p.priceProtect,
    lossTrend: p.lossTrend,
    profitTrend: p.profitTrend,
    stopLossPrice: p.stopLossPrice,
    takeProfitPrice: p.takeProfitPrice,
  });
  const placePlan = (c: ApiCall<PlanParams>) => {
    mayTrade(c);
    contractInstrumentOf(ctx, c.params.symbol);
    const r = venue.placePlanOrder(c.account!.id, planRequest(c.params));
    if (!r.ok) throw refused(r);
    return r.value.id;
  };

  return {
    // ---------- TP/SL (stop) orders
    'contract.changeStopPrice': (c: ApiCall<TpSlChange & { orderId: string }>) => {
      mayTrade(c);
      const r = venue.changeStopPrice(c.account!.id, { ...c.params });
      if (!r.ok) throw refused(r);
      return NO_DATA;
    },
    'contract.changePlanPrice': (c: ApiCall<TpSlChange & { stopPlanOrderId: string }>) => {
      mayTrade(c);
      const r = venue.changeStopPlanPrice(c.account!.id, { ...c.params });
      if (!r.ok) throw refused(r);
      return NO_DATA;
    },
    'contract.placeStopOrder': (
      c: ApiCall<
        TpSlChange & {
          symbol?: string;
          positionId: string;
          vol: number;
          priceProtect?: number;
          profitLossVolType?: 'SAME' | 'SEPARATE';
          takeProfitVol?: number;
          stopLossVol?: number;
          volType?: number;
          takeProfitType?: number;
          takeProfitOrderPrice?: number;
          stopLossType?: number;
          stopLossOrderPrice?: number;
        }
      >,
    ) => {
      mayTrade(c);
      knownSymbol(c.params.symbol);
      const r = venue.placeStopOrder(c.account!.id, { ...c.params });
      if (!r.ok) throw refused(r);
      return r.value.id;
    },
    'contract.cancelStopOrders': (c: ApiCall<{ stopPlanOrderId: string }[]>) =>
      allCancelled(
        venue.cancelStopOrders(
          c.account!.id,
          c.params.map((x) => x.stopPlanOrderId),
        ),
      ),
    'contract.cancelAllStopOrders': (c: ApiCall<{ positionId?: string; symbol?: string }>) => {
      knownSymbol(c.params.symbol);
      venue.cancelAllStopOrders(c.account!.id, { positionId: c.params.positionId, symbol: c.params.symbol });
      return NO_DATA;
    },
    'contract.stopOrders': (
      c: ApiCall<Paging & { symbol?: string; is_finished?: number; state?: number; type?: number; start_time?: number; end_time?: number }>,
    ) =>
      reader
        .stopOrders(c.account!.id, {
          symbol: c.params.symbol,
          isFinished: c.params.is_finished,
          state: c.params.state,
          positionType: c.params.type,
          startTime: c.params.start_time,
          endTime: c.params.end_time,
          pageNum: c.params.page_num ?? 1,
          pageSize: c.params.page_size ?? 20,
        })
        .resultList.map(stopOrderWire),
    'contract.openStopOrders': (c: ApiCall<{ symbol?: string }>) =>
      reader.openStopOrders(c.account!.id, c.params.symbol).map(stopOrderWire),

    // ---------- trigger (plan) orders
    'contract.placePlanOrder': placePlan,
    'contract.placePlanOrderV2': placePlan,
    'contract.changeStopOrder': (
      c: ApiCall<{
        symbol: string;
        orderId: string;
        lossTrend?: number;
        profitTrend?: number;
        stopLossPrice?: Price;
        takeProfitPrice?: Price;
      }>,
    ) => {
      mayTrade(c);
      contractInstrumentOf(ctx, c.params.symbol);
      const r = venue.changePlanStopOrder(c.account!.id, { ...c.params });
      if (!r.ok) throw refused(r);
      return NO_DATA;
    },
    'contract.cancelPlanOrders': (c: ApiCall<{ symbol: string; orderId: string }[]>) =>
      allCancelled(venue.cancelPlanOrders(c.account!.id, c.params)),
    'contract.cancelAllPlanOrders': (c: ApiCall<{ symbol?: string }>) => {
      knownSymbol(c.params.symbol);
      venue.cancelAllPlanOrders(c.account!.id, c.params.symbol);
      return NO_DATA;
    },
    'contract.planOrders': (c: ApiCall<Paging & { symbol?: string; states?: string; start_time?: number; end_time?: number }>) =>
      reader
        .planOrders(c.account!.id, {
          symbol: c.params.symbol,
          states: c.params.states?.split(',').map(Number),
          startTime: c.params.start_time,
          endTime: c.params.end_time,
          pageNum: c.params.page_num ?? 1,
          pageSize: c.params.page_size ?? 20,
        })
        .resultList.map(planOrderWire),

    // ---------- trailing orders
    'contract.placeTrackOrder': (
      c: ApiCall<{
        symbol: string;
        leverage: number;
        side: ContractSide;
        vol: number;
        openType: OpenType;
        trend: number;
        backType: number;
        backValue: number;
        positionMode: PositionMode;
        activePrice?: number;
        reduceOnly?: boolean;
      }>,
    ) => {
      mayTrade(c);
      contractInstrumentOf(ctx, c.params.symbol);
      const p = c.params;
      const r = venue.placeTrackOrder(c.account!.id, {
        symbol: p.symbol,
        leverage: p.leverage,
        side: p.side,
        vol: p.vol,
        openType: p.openType,
        trend: p.trend,
        backType: p.backType,
        backValue: p.backValue,
        positionMode: p.positionMode,
        activePrice: p.activePrice,
        reduceOnly: p.reduceOnly,
      });
      if (!r.ok) throw refused(r);
      return r.value.id;
    },
    'contract.cancelTrackOrder': (c: ApiCall<{ symbol?: string; trackOrderId?: string }>) => {
      knownSymbol(c.params.symbol);
      const r = venue.cancelTrackOrders(c.account!.id, { symbol: c.params.symbol, trackOrderId: c.params.trackOrderId });
      if (!r.ok) throw refused(r);
      return NO_DATA;
    },
    'contract.changeTrackOrder': (
      c: ApiCall<{
        symbol: string;
        trackOrderId: string;
        trend: number;
        backType: number;
        backValue: number;
        vol: number;
        activePrice?: number;
      }>,
    ) => {
      mayTrade(c);
      contractInstrumentOf(ctx, c.params.symbol);
      const r = venue.changeTrackOrder(c.account!.id, { ...c.params });
      if (!r.ok) throw refused(r);
      return NO_DATA;
    },
    'contract.trackOrders': (
      c: ApiCall<{
        states?: string;
        symbol?: string;
        side?: number;
        start_time?: number;
        end_time?: number;
        pageIndex?: number;
        pageSize?: number;
      }>,
    ) =>
      reader
        .trackOrders(c.account!.id, {
          states: c.params.states?.split(',').map(Number),
          symbol: c.params.symbol,
          side: c.params.side,
          startTime: c.params.start_time,
          endTime: c.params.end_time,
          pageIndex: c.params.pageIndex,
          pageSize: c.params.pageSize,
        })
        .resultList.map(trackOrderWire),
  };
}
