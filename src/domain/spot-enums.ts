/** Spot enumerations under their exact wire codes (spot-api.md §2, wire-protocol.md). */
export const SPOT_ORDER_STATUSES = ['NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'PARTIALLY_CANCELED'] as const;
export type SpotOrderStatus = (typeof SPOT_ORDER_STATUSES)[number];

/** Time in force is carried by the type on this venue. */
export const SPOT_ORDER_TYPES = ['LIMIT', 'MARKET', 'LIMIT_MAKER', 'IMMEDIATE_OR_CANCEL', 'FILL_OR_KILL'] as const;
export type SpotOrderType = (typeof SPOT_ORDER_TYPES)[number];

export const SPOT_SIDES = ['BUY', 'SELL'] as const;
export type SpotSide = (typeof SPOT_SIDES)[number];

/** There is no `1h`: the hour is `60m`. */
export const SPOT_KLINE_INTERVALS = ['1m', '5m', '15m', '30m', '60m', '4h', '1d', '1W', '1M'] as const;
export type SpotKlineInterval = (typeof SPOT_KLINE_INTERVALS)[number];

export const SPOT_STP_MODES = ['', 'cancel_maker', 'cancel_taker', 'cancel_both'] as const;
export type SpotStpMode = (typeof SPOT_STP_MODES)[number];

/** exchangeInfo symbol status: "1" online, "2" pause, "3" offline. */
export const SpotSymbolStatus = { ONLINE: '1', PAUSE: '2', OFFLINE: '3' } as const;
export type SpotSymbolStatus = (typeof SpotSymbolStatus)[keyof typeof SpotSymbolStatus];

/** tradeSideType: 1 all, 2 buy only, 3 sell only, 4 closed. */
export const TradeSideType = { ALL: 1, BUY_ONLY: 2, SELL_ONLY: 3, CLOSED: 4 } as const;
export type TradeSideType = (typeof TradeSideType)[keyof typeof TradeSideType];

/** Offline-symbol state: 2 suspended, 3 delisted. */
export const OfflineSymbolState = { SUSPENDED: 2, DELISTED: 3 } as const;
export type OfflineSymbolState = (typeof OfflineSymbolState)[keyof typeof OfflineSymbolState];

export const KycStatus = { UNVERIFIED: '1', PRIMARY: '2', ADVANCED: '3', INSTITUTIONAL: '4' } as const;
export type KycStatus = (typeof KycStatus)[keyof typeof KycStatus];

export const SPOT_PERMISSIONS = ['SPOT_ACCOUNT_READ', 'SPOT_ACCOUNT_WRITE', 'SPOT_DEAL_READ', 'SPOT_DEAL_WRITE'] as const;
export type SpotPermission = (typeof SPOT_PERMISSIONS)[number];

/** Abbreviated permission spellings the venue also uses. */
export const SPOT_PERMISSION_ALIASES: Record<string, SpotPermission> = {
  SPOT_ACCOUNT_R: 'SPOT_ACCOUNT_READ',
  SPOT_ACCOUNT_W: 'SPOT_ACCOUNT_WRITE',
  SPOT_DEAL_R: 'SPOT_DEAL_READ',
  SPOT_DEAL_W: 'SPOT_DEAL_WRITE',
};

export const SPOT_CANCEL_REASON_STP = 'stp_cancel';

/** Interval length in ms (1M is calendar-based and handled separately by callers). */
export const SPOT_INTERVAL_MS: Record<Exclude<SpotKlineInterval, '1M'>, number> = {
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '60m': 3_600_000,
  '4h': 14_400_000,
  '1d': 86_400_000,
  '1W': 604_800_000,
};
