/** Commands the engine accepts and the value-shaped answers it gives (risk outcomes are values). */
import type { DecimalLike } from '../../core/decimal.js';
import type {
  ContractOrderErrorCode,
  ContractOrderState,
  ContractOrderType,
  ContractSide,
  ContractStpMode,
  MarginChangeType,
  OpenType,
  PositionMode,
  PositionType,
} from '../../domain/contract-enums.js';
import type { CancelErrorCode } from './contract-codes.js';
import type { ContractOrderView } from './contract-views.js';

/** POST order/create, as the HTTP layer parsed it (numbers may still be strings). */
export interface PlaceOrderRequest {
  readonly symbol: string;
  /** Required for types 1–4; ignored by 5 and 6. */
  readonly price?: DecimalLike | undefined;
  readonly vol: DecimalLike;
  readonly leverage?: number | undefined;
  readonly side: ContractSide;
  readonly type: ContractOrderType;
  readonly openType: OpenType;
  readonly externalOid?: string | undefined;
  readonly positionId?: string | number | undefined;
  /** Must equal the account's mode when given. */
  readonly positionMode?: PositionMode | undefined;
  /** One-way mode only. */
  readonly reduceOnly?: boolean | undefined;
  readonly stpMode?: ContractStpMode | undefined;
  /**
   * Take-profit / stop-loss of an opening order: a stop order that follows the order's fills
   * (triggers/stop-orders.ts). null, '' or 0 means none.
   */
  readonly stopLossPrice?: DecimalLike | null | undefined;
  readonly takeProfitPrice?: DecimalLike | null | undefined;
  /** Price each leg watches: 1 latest (default), 2 fair, 3 index. */
  readonly lossTrend?: number | undefined;
  readonly profitTrend?: number | undefined;
  /** 1 or 0 (default): reported on the stop order. */
  readonly priceProtect?: number | undefined;
}

/**
 * A placement already in the contract's units (the backtest's crowd, a caller holding ticks and lots):
 * the checks and answers of PlaceOrderRequest without parsing decimals. A priceTicks or lots that is not
 * a whole number > 0 is refused as a price or vol off the grid is. No take-profit / stop-loss.
 */
export interface PlaceOrderTicksRequest extends Omit<
  PlaceOrderRequest,
  'price' | 'vol' | 'stopLossPrice' | 'takeProfitPrice' | 'lossTrend' | 'profitTrend' | 'priceProtect'
> {
  /** The limit in ticks for types 1–4; types 5 and 6 ignore it (a positive one is shown as the order's price). */
  readonly priceTicks: number;
  readonly lots: number;
}

/** What an accepted placement in ticks answers: the order's id and, as it stands after the placement, its state and lots. */
export interface PlacedOrderTicks {
  readonly orderId: string;
  readonly state: ContractOrderState;
  readonly lots: number;
  readonly dealLots: number;
  readonly createTime: number;
}

export interface ChangeLimitOrderRequest {
  readonly orderId: string;
  readonly price: DecimalLike;
  readonly vol: DecimalLike;
}

export interface ChangeMarginRequest {
  readonly positionId: string | number;
  readonly amount: DecimalLike;
  readonly type: MarginChangeType;
}

export interface ChangeLeverageRequest {
  readonly leverage: number;
  /** When a position exists. */
  readonly positionId?: string | number | undefined;
  /** Required when no position is given. */
  readonly symbol?: string | undefined;
  readonly openType?: OpenType | undefined;
  readonly positionType?: PositionType | undefined;
}

export interface ReverseRequest {
  readonly symbol: string;
  readonly positionId: string | number;
  readonly vol: DecimalLike;
}

export interface ExternalRef {
  readonly symbol: string;
  readonly externalOid: string;
}

export interface Accepted<T> {
  readonly ok: true;
  readonly value: T;
}

export interface Rejected {
  readonly ok: false;
  /** The venue answer code (600, 1001, 2005, 2009, …). */
  readonly code: number;
  /** Order errorCode (§2.5); PARAMETER for non-order refusals. */
  readonly errorCode: ContractOrderErrorCode;
  readonly message: string;
  /** The invalid (state 5) order record when a placement got far enough to be recorded. */
  readonly order?: ContractOrderView | undefined;
}

export type VenueResult<T> = Accepted<T> | Rejected;

export interface CancelResultEntry {
  readonly orderId: string;
  readonly errorCode: CancelErrorCode;
  readonly errorMsg: string;
}

export interface ClosePositionResult {
  readonly positionId: string;
  readonly result: VenueResult<ContractOrderView>;
}

export interface PageQuery {
  readonly pageNum?: number | undefined;
  readonly pageSize?: number | undefined;
}

export interface HistoryOrdersQuery extends PageQuery {
  readonly symbol?: string | undefined;
  readonly states?: readonly number[] | undefined;
  readonly category?: number | undefined;
  readonly side?: number | undefined;
  readonly startTime?: number | undefined;
  readonly endTime?: number | undefined;
}

export interface HistoryPositionsQuery extends PageQuery {
  readonly symbol?: string | undefined;
  readonly positionType?: PositionType | undefined;
  readonly startTime?: number | undefined;
  readonly endTime?: number | undefined;
}

export interface FundingRecordsQuery extends PageQuery {
  readonly symbol?: string | undefined;
  readonly positionId?: string | number | undefined;
  readonly positionType?: PositionType | undefined;
  readonly startTime?: number | undefined;
  readonly endTime?: number | undefined;
}

export interface FillsQuery extends PageQuery {
  readonly symbol?: string | undefined;
  readonly orderId?: string | undefined;
  readonly startTime?: number | undefined;
  readonly endTime?: number | undefined;
}

export interface TransferRecordsQuery extends PageQuery {
  readonly currency?: string | undefined;
  readonly type?: 'IN' | 'OUT' | undefined;
}
