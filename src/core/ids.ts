/**
 * Branded identifiers: a spot symbol cannot be passed where a contract symbol is expected, and an
 * exchange order id cannot be confused with a client id, at compile time.
 */
declare const brand: unique symbol;
export type Brand<T, B extends string> = T & { readonly [brand]: B };

/** Spot pair, `<BASE><QUOTE>`, e.g. BTCUSDT. */
export type SpotSymbol = Brand<string, 'SpotSymbol'>;
/** Contract symbol, `<BASE>_<QUOTE>`, e.g. BTC_USDT. */
export type ContractSymbol = Brand<string, 'ContractSymbol'>;
export type InstrumentSymbol = SpotSymbol | ContractSymbol;
/** The venue's order id (a string: contract ids exceed 2^53). */
export type OrderId = Brand<string, 'OrderId'>;
/** Our client order id (spot newClientOrderId, contract externalOid). */
export type ClientOrderId = Brand<string, 'ClientOrderId'>;
export type TradeId = Brand<string, 'TradeId'>;
export type PositionId = Brand<string, 'PositionId'>;
export type AccountId = Brand<string, 'AccountId'>;
export type StrategyId = Brand<string, 'StrategyId'>;

const SPOT_SYMBOL = /^[A-Z0-9]{2,30}$/;
const CONTRACT_SYMBOL = /^[A-Z0-9]{1,20}_[A-Z0-9]{2,10}$/;

export const isSpotSymbol = (s: string): s is SpotSymbol => SPOT_SYMBOL.test(s);
export const isContractSymbol = (s: string): s is ContractSymbol => CONTRACT_SYMBOL.test(s);

export const spotSymbol = (s: string): SpotSymbol => {
  if (!isSpotSymbol(s)) throw new RangeError(`not a spot symbol (BASEQUOTE, upper case): ${JSON.stringify(s)}`);
  return s;
};
export const contractSymbol = (s: string): ContractSymbol => {
  if (!isContractSymbol(s)) throw new RangeError(`not a contract symbol (BASE_QUOTE): ${JSON.stringify(s)}`);
  return s;
};
export const orderId = (s: string | number | bigint): OrderId => String(s) as OrderId;
export const clientOrderId = (s: string): ClientOrderId => s as ClientOrderId;
export const tradeId = (s: string | number): TradeId => String(s) as TradeId;
export const positionId = (s: string | number): PositionId => String(s) as PositionId;
export const accountId = (s: string): AccountId => s as AccountId;
export const strategyId = (s: string): StrategyId => s as StrategyId;
