/**
 * The venue-side order checks, each a small pure function returning a rejection or undefined. The
 * venue runs them in the order the real venue appears to (symbol → side/type → shape → size → price
 * band → funds), so the first failing rule names the error.
 */
import { D } from '../../core/decimal.js';
import {
  SPOT_ORDER_TYPES,
  SPOT_STP_MODES,
  SpotSymbolStatus,
  TradeSideType,
  type SpotOrderType,
  type SpotSide,
} from '../../domain/spot-enums.js';
import { unitsToDecimal } from '../ledger/ledger-units.js';
import { REJECT, type SpotRejection } from './spot-rejections.js';
import { UNLIMITED, type AdmissionTable, type PriceBand, type SpotMarket } from './spot-market.js';

export function checkSymbolTradable(m: SpotMarket): SpotRejection | undefined {
  if (!m.instrument.apiTradable) return REJECT.notApiTradable();
  // isSpotTradingAllowed is not consulted: the real BTCUSDT reports false and trades through the API.
  if (m.instrument.status !== SpotSymbolStatus.ONLINE || m.instrument.tradeSideType === TradeSideType.CLOSED)
    return REJECT.tradingDisabled();
  return undefined;
}

export function checkSideAllowed(m: SpotMarket, side: SpotSide): SpotRejection | undefined {
  const t = m.instrument.tradeSideType;
  if ((t === TradeSideType.BUY_ONLY && side !== 'BUY') || (t === TradeSideType.SELL_ONLY && side !== 'SELL'))
    return REJECT.sideNotAllowed();
  return undefined;
}

/**
 * exchangeInfo lists LIMIT, MARKET, LIMIT_MAKER; IMMEDIATE_OR_CANCEL and FILL_OR_KILL are LIMIT with a
 * time in force, so they follow LIMIT.
 */
export function checkOrderType(m: SpotMarket, type: SpotOrderType): SpotRejection | undefined {
  const allowed = m.instrument.orderTypes;
  if (allowed.length === 0) return undefined;
  const base = type === 'IMMEDIATE_OR_CANCEL' || type === 'FILL_OR_KILL' ? 'LIMIT' : type;
  if (allowed.includes(base) || allowed.includes(type)) return undefined;
  return type === 'MARKET' ? REJECT.marketDisabled() : REJECT.typeNotAllowed();
}

/** One bit per order type, for admission masks. */
export function typeBit(type: string): number {
  switch (type) {
    case 'LIMIT':
      return 1;
    case 'MARKET':
      return 2;
    case 'LIMIT_MAKER':
      return 4;
    case 'IMMEDIATE_OR_CANCEL':
      return 8;
    case 'FILL_OR_KILL':
      return 16;
    default:
      return 0;
  }
}

/** Which sides and types pass checkSymbolTradable, checkSideAllowed and checkOrderType (computed once per rules). */
export function admissionTable(m: SpotMarket): AdmissionTable {
  const mask = (side: SpotSide): number => {
    let bits = 0;
    for (const type of SPOT_ORDER_TYPES)
      if ((checkSymbolTradable(m) ?? checkSideAllowed(m, side) ?? checkOrderType(m, type)) === undefined) bits |= typeBit(type);
    return bits;
  };
  return { buy: mask('BUY'), sell: mask('SELL') };
}

export function checkStpMode(mode: string): SpotRejection | undefined {
  return (SPOT_STP_MODES as readonly string[]).includes(mode) ? undefined : REJECT.combination();
}

export function checkMinLots(m: SpotMarket, lots: number): SpotRejection | undefined {
  return lots < m.minLots ? REJECT.belowMinimum(D(m.instrument.minQuantity).toFixed()) : undefined;
}

/** Quote amount (ledger units) within [min, max]. */
export function checkAmount(amountUnits: bigint, minUnits: bigint, maxUnits: bigint, scale: number): SpotRejection | undefined {
  if (amountUnits < minUnits) return REJECT.belowMinimum(unitsToDecimal(minUnits, scale).toFixed());
  if (maxUnits !== UNLIMITED && amountUnits > maxUnits) return REJECT.aboveMaximum(unitsToDecimal(maxUnits, scale).toFixed());
  return undefined;
}

/**
 * PERCENT_PRICE_BY_SIDE for LIMIT, IMMEDIATE_OR_CANCEL and FILL_OR_KILL (spot-api.md §2.2). Without a
 * last price there is nothing to compare against and the order passes.
 */
export function checkPercentPrice(m: SpotMarket, side: SpotSide, type: SpotOrderType, priceTicks: number): SpotRejection | undefined {
  if (type !== 'LIMIT' && type !== 'IMMEDIATE_OR_CANCEL' && type !== 'FILL_OR_KILL') return undefined;
  const last = m.lastPriceTicks;
  if (last === undefined) return undefined;
  return withinBand(side, priceTicks, last, side === 'BUY' ? m.bidBand : m.askBand) ? undefined : REJECT.priceOutOfRange();
}

/** buy: p ≤ last·(1+m) (fractional) or p ≤ last·m; sell: p ≥ last·(1−m) or p ≥ last·m. */
export function withinBand(side: SpotSide, priceTicks: number, lastTicks: number, band: PriceBand | undefined): boolean {
  if (band === undefined) return true;
  const isBuy = side === 'BUY';
  // Plain numbers while both products stay below 2^53 (exact); NaN factors fail the test and take bigint.
  const p = priceTicks * band.denNum;
  const l = lastTicks * (isBuy ? band.upNum : band.downNum);
  if (p <= Number.MAX_SAFE_INTEGER && l <= Number.MAX_SAFE_INTEGER) return isBuy ? p <= l : p >= l;
  const pb = BigInt(priceTicks) * band.den;
  if (isBuy) return pb <= BigInt(lastTicks) * (band.fractional ? band.den + band.num : band.num);
  return pb >= BigInt(lastTicks) * (band.fractional ? band.den - band.num : band.num);
}

export function checkOpenOrderCap(openCount: number, cap: number): SpotRejection | undefined {
  return openCount >= cap ? REJECT.maxOpenOrders(cap) : undefined;
}
