/**
 * Read-only snapshots the engine hands out (queries and events). Money, prices and volumes are
 * Decimal; the HTTP layer formats them. A view never aliases engine state.
 */
import type { Decimal } from '../../core/decimal.js';
import type { AccountId, ContractSymbol, OrderId, PositionId, TradeId } from '../../core/ids.js';
import type {
  ContractOrderErrorCode,
  ContractOrderState,
  ContractOrderType,
  ContractSide,
  ContractStpMode,
  DealOpenFlag,
  DealSide,
  OpenType,
  OrderCategory,
  PositionMode,
  PositionState,
  PositionType,
  TransferState,
  TransferType,
} from '../../domain/contract-enums.js';

export interface Page<T> {
  readonly pageSize: number;
  readonly totalCount: number;
  readonly totalPage: number;
  readonly currentPage: number;
  readonly resultList: readonly T[];
}

/** Why an order left the book without filling completely. */
export type CancelReason =
  | 'user'
  | 'cancel_all'
  | 'ioc_remainder'
  | 'fok_unfilled'
  | 'market_remainder'
  | 'stp_taker'
  | 'stp_maker'
  | 'liquidation'
  | 'close_all'
  | 'reduce_only_trimmed';

export interface ContractOrderView {
  readonly accountId: AccountId;
  readonly orderId: OrderId;
  readonly symbol: ContractSymbol;
  /** The position the order last touched (or, for a close order, the position it closes). */
  readonly positionId: PositionId | undefined;
  /** The price as placed (0 when a market order gave none); type 6 shows the converted limit. */
  readonly price: Decimal;
  readonly vol: Decimal;
  readonly leverage: number;
  readonly side: ContractSide;
  readonly category: OrderCategory;
  readonly orderType: ContractOrderType;
  readonly dealAvgPrice: Decimal;
  readonly dealVol: Decimal;
  /** Margin currently frozen for the unfilled part. */
  readonly orderMargin: Decimal;
  /** Initial margin booked into positions by this order's fills. */
  readonly usedMargin: Decimal;
  readonly takerFee: Decimal;
  readonly makerFee: Decimal;
  /** Close PnL (without fees) realised by this order's fills. */
  readonly profit: Decimal;
  readonly feeCurrency: string;
  readonly openType: OpenType;
  readonly state: ContractOrderState;
  readonly externalOid: string | undefined;
  readonly errorCode: ContractOrderErrorCode;
  readonly createTime: number;
  readonly updateTime: number;
  readonly positionMode: PositionMode;
  readonly reduceOnly: boolean;
  readonly stpMode: ContractStpMode;
  readonly cancelReason: CancelReason | undefined;
}

export interface ContractPositionView {
  readonly accountId: AccountId;
  readonly positionId: PositionId;
  readonly symbol: ContractSymbol;
  readonly positionType: PositionType;
  readonly openType: OpenType;
  readonly state: PositionState;
  readonly holdVol: Decimal;
  readonly frozenVol: Decimal;
  readonly closeVol: Decimal;
  /** Display precision (price scale); the FullyScale fields carry the exact value. */
  readonly holdAvgPrice: Decimal;
  readonly holdAvgPriceFullyScale: Decimal;
  readonly openAvgPrice: Decimal;
  readonly openAvgPriceFullyScale: Decimal;
  readonly closeAvgPrice: Decimal;
  /** Isolated only (undefined for cross or when it would be ≤ 0); rounded to the tick towards the position's safe side. */
  readonly liquidatePrice: Decimal | undefined;
  readonly oim: Decimal;
  readonly im: Decimal;
  readonly holdFee: Decimal;
  readonly realised: Decimal;
  readonly closeProfitLoss: Decimal;
  readonly fee: Decimal;
  readonly totalFee: Decimal;
  readonly profitRatio: Decimal;
  readonly leverage: number;
  readonly marginRatio: Decimal;
  readonly autoAddIm: boolean;
  /** Unrealised PnL at the fair price (0 when no price is known). */
  readonly unrealised: Decimal;
  /** Risk tier (1-based) of the held size. */
  readonly riskLevel: number;
  readonly createTime: number;
  readonly updateTime: number;
}

/** What a position view holds before the derived figures (ContractVenue.heldPositions). */
export type HeldPositionView = Pick<
  ContractPositionView,
  | 'symbol'
  | 'positionType'
  | 'openType'
  | 'holdVol'
  | 'holdAvgPriceFullyScale'
  | 'liquidatePrice'
  | 'im'
  | 'holdFee'
  | 'realised'
  | 'totalFee'
  | 'leverage'
  | 'updateTime'
>;

export interface ContractAssetView {
  readonly currency: string;
  /** Σ im of all positions. */
  readonly positionMargin: Decimal;
  /** Order margin of open orders. */
  readonly frozenBalance: Decimal;
  /** Free balance, less any cross unrealised loss; never negative. */
  readonly availableBalance: Decimal;
  /** Wallet balance without unrealised PnL: free + frozen + positionMargin. */
  readonly cashBalance: Decimal;
  readonly equity: Decimal;
  readonly unrealized: Decimal;
  readonly bonus: Decimal;
  /** Withdrawable / transferable (= availableBalance). */
  readonly availableCash: Decimal;
  /** What new orders can use (= availableBalance). */
  readonly availableOpen: Decimal;
}

export interface FundingRecordView {
  readonly id: number;
  readonly accountId: AccountId;
  readonly symbol: ContractSymbol;
  readonly positionId: PositionId;
  readonly positionType: PositionType;
  /** holdVol · contractSize · fair price at settlement. */
  readonly positionValue: Decimal;
  /** Signed: positive received, negative paid. */
  readonly funding: Decimal;
  readonly rate: Decimal;
  readonly settleTime: number;
}

export interface ContractTradeView {
  readonly tradeId: TradeId;
  readonly symbol: ContractSymbol;
  readonly price: Decimal;
  readonly priceTicks: number;
  readonly vol: Decimal;
  readonly lots: number;
  readonly time: number;
  /** T: the taker's direction (1 buy, 2 sell). */
  readonly takerSide: DealSide;
  /** O: 1 both sides open, 2 neither opens, 3 other. */
  readonly openFlag: DealOpenFlag;
  /** M: maker and taker in the same STP group. */
  readonly selfTrade: boolean;
  readonly takerAccountId: AccountId;
  readonly makerAccountId: AccountId;
  readonly takerOrderId: OrderId;
  readonly makerOrderId: OrderId;
}

/** One side of a trade as its account sees it (fee_details, fills). */
export interface ContractFillView {
  readonly tradeId: TradeId;
  readonly accountId: AccountId;
  readonly orderId: OrderId;
  readonly symbol: ContractSymbol;
  readonly side: ContractSide;
  readonly price: Decimal;
  readonly vol: Decimal;
  readonly taker: boolean;
  readonly fee: Decimal;
  readonly feeCurrency: string;
  /** Close PnL of this fill (without the fee). */
  readonly profit: Decimal;
  /** Lots that closed an existing position and lots that opened one (one-way fills can do both). */
  readonly closeVol: Decimal;
  readonly openVol: Decimal;
  readonly positionIds: readonly PositionId[];
  readonly time: number;
}

export interface TransferRecordView {
  readonly id: number;
  readonly accountId: AccountId;
  readonly currency: string;
  readonly amount: Decimal;
  readonly type: TransferType;
  readonly state: TransferState;
  readonly createTime: number;
  readonly updateTime: number;
}

/** One row of position/leverage: the current tier and settings of one position side. */
export interface LeverageView {
  readonly level: number;
  readonly maxVol: Decimal;
  readonly mmr: Decimal;
  readonly imr: Decimal;
  readonly positionType: PositionType;
  readonly openType: OpenType;
  readonly leverage: number;
  readonly limitBySys: boolean;
  readonly currentMmr: Decimal;
  readonly maxLeverageView: number;
}

export interface RiskLimitView extends LeverageView {
  readonly symbol: ContractSymbol;
}

export interface OpenOrderCountView {
  readonly sumCount: number;
  readonly limitOrderCount: number;
  readonly stopOrderCount: number;
  readonly planOrderCount: number;
  readonly trackOrderCount: number;
}

export interface LiquidationView {
  readonly accountId: AccountId;
  readonly symbol: ContractSymbol;
  readonly positionId: PositionId;
  readonly positionType: PositionType;
  readonly openType: OpenType;
  readonly vol: Decimal;
  /** Fair price that triggered the liquidation. */
  readonly fairPrice: Decimal;
  /** Isolated: the liquidation price of the position at the trigger. Cross: undefined. */
  readonly liquidationPrice: Decimal | undefined;
  /** Isolated: exact bankruptcy price. Cross: undefined. */
  readonly bankruptcyPrice: Decimal | undefined;
  /** The tick price the insurance fund took the position over at. */
  readonly closePrice: Decimal;
  /** Close PnL the account realised on the take-over. */
  readonly realised: Decimal;
  /** Margin the account lost beyond the close PnL (paid to the insurance fund as liquidation fee). */
  readonly liquidationFee: Decimal;
  /** Loss beyond the account's margin that the insurance fund absorbed. */
  readonly insuranceCover: Decimal;
  /** The category-2 order recorded in the account's history for the take-over. */
  readonly orderId: OrderId;
  readonly time: number;
}

export interface FundingRateView {
  readonly symbol: ContractSymbol;
  readonly fundingRate: Decimal;
  readonly maxFundingRate: Decimal;
  readonly minFundingRate: Decimal;
  readonly collectCycle: number;
  readonly nextSettleTime: number;
  readonly timestamp: number;
}

export interface FundingHistoryView {
  readonly symbol: ContractSymbol;
  readonly fundingRate: Decimal;
  readonly settleTime: number;
  readonly collectCycle: number;
}

export interface InsuranceFundView {
  readonly currency: string;
  /** Cash of the fund (may go negative when it covers more than it holds). */
  readonly available: Decimal;
  readonly timestamp: number;
}

/** Aggregated depth: [price, contracts, orders], best first. */
export type ContractDepthEntry = readonly [price: Decimal, vol: Decimal, orders: number];

export interface ContractDepthView {
  readonly asks: readonly ContractDepthEntry[];
  readonly bids: readonly ContractDepthEntry[];
  readonly version: number;
  readonly timestamp: number;
}
