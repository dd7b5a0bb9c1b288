/**
 * Venue answer codes the contract engine returns in rejections. Documented codes (wire-protocol.md)
 * first; the rest are the real exchange's published contract codes for the same conditions, so the
 * emulator answers as the exchange would.
 */
import { ContractOrderErrorCode } from '../../domain/contract-enums.js';

export const ContractVenueCode = {
  OK: 0,
  PARAMETER: 600,
  CONTRACT_NOT_EXIST: 1001,
  CONTRACT_NOT_ACTIVATED: 1002,
  RISK_LIMIT_LEVEL: 1003,
  WRONG_OPEN_TYPE: 2002,
  BALANCE_INSUFFICIENT: 2005,
  LEVERAGE_ERROR: 2006,
  ORDER_PRICE_ERROR: 2007,
  QUANTITY_INSUFFICIENT: 2008,
  POSITION_NOT_EXIST: 2009,
  PRICE_OR_QUANTITY_ACCURACY: 2015,
  ACTIVE_OPEN_POSITION: 2019,
  LEVERAGE_INCONSISTENT: 2021,
  ORDER_NOT_EXIST: 2040,
  ORDER_NOT_CANCELLABLE: 2041,
  /** Trigger price type (trend) other than 1 latest, 2 fair, 3 index (contract-api.md §4.5). */
  PRICE_TYPE_ERROR: 3001,
  RISK_LEVEL_CHANGE_DISABLED: 8817,
} as const;
export type ContractVenueCode = (typeof ContractVenueCode)[keyof typeof ContractVenueCode];

/** The answer code that goes with an order errorCode (§2.5) when a placement is refused. */
export const CODE_OF_ORDER_ERROR: Readonly<Record<ContractOrderErrorCode, ContractVenueCode>> = {
  [ContractOrderErrorCode.NORMAL]: ContractVenueCode.OK,
  [ContractOrderErrorCode.PARAMETER]: ContractVenueCode.PARAMETER,
  [ContractOrderErrorCode.INSUFFICIENT_BALANCE]: ContractVenueCode.BALANCE_INSUFFICIENT,
  [ContractOrderErrorCode.POSITION_NOT_EXIST]: ContractVenueCode.POSITION_NOT_EXIST,
  [ContractOrderErrorCode.POSITION_TOO_SMALL]: ContractVenueCode.QUANTITY_INSUFFICIENT,
  [ContractOrderErrorCode.PRICE_BEYOND_LIQUIDATION]: ContractVenueCode.ORDER_PRICE_ERROR,
  [ContractOrderErrorCode.LIQUIDATION_BEYOND_FAIR]: ContractVenueCode.ORDER_PRICE_ERROR,
  [ContractOrderErrorCode.RISK_LIMIT_EXCEEDED]: ContractVenueCode.RISK_LIMIT_LEVEL,
};

/** Per-element cancel answers (contract-api.md §7.2). */
export const CancelErrorCode = { OK: 0, NOT_EXIST: 2040, NOT_CANCELLABLE: 2041 } as const;
export type CancelErrorCode = (typeof CancelErrorCode)[keyof typeof CancelErrorCode];

export const CANCEL_ERROR_MSG: Readonly<Record<CancelErrorCode, string>> = {
  0: 'success',
  2040: 'order not exist',
  2041: 'order state cannot be cancelled',
};
