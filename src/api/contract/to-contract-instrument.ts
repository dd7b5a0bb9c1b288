/**
 * Contract detail (as parsed by `contractDetailSchema`) → the domain `ContractInstrument`. Pure.
 *
 * Risk tiers:
 * - When `riskLimitCustom` has entries, they are the tiers, sorted by level, taken as given.
 * - Otherwise they are derived from the incremental parameters, N = max(riskLevelLimit, 1) tiers;
 *   for tier i = 1..N:
 *       maxVol_i      = riskBaseVol + (i − 1) · riskIncrVol
 *       mmr_i         = maintenanceMarginRate + (i − 1) · riskIncrMmr
 *       imr_i         = initialMarginRate + (i − 1) · riskIncrImr
 *       maxLeverage_i = min(maxLeverage, floor(1 / imr_i))      (maxLeverage when imr_i is 0)
 *   Tier 1 is the contract's base margin; each further tier allows riskIncrVol more contracts at
 *   higher margin rates. The leverage cap follows from the initial margin (leverage ≤ 1/imr); on
 *   every fixture contract maxLeverage = 1/initialMarginRate (BTC 1/0.002 = 500, LIGHT 1/0.02 = 50,
 *   SILVER 1/0.05 = 20), which is what anchors the formula.
 * - With riskLimitType BY_VALUE the venue states the limits in quote value, not contracts; maxVol is
 *   then a value, as given (the risk_limit endpoint converts to contracts; detail does not).
 *
 * Enumerated strings outside the known sets (riskLimitType, feeRateMode) make this throw a
 * RangeError naming the symbol and field: an instrument we do not understand must not trade.
 */
import { Decimal } from '../../core/decimal.js';
import { contractSymbol } from '../../core/ids.js';
import {
  ContractState as ContractStates,
  FEE_RATE_MODES,
  RISK_LIMIT_TYPES,
  type ContractState,
  type FeeRateMode,
  type PositionOpenType,
  type RiskLimitType,
} from '../../domain/contract-enums.js';
import type { ContractInstrument, FeeTier, RiskTier } from '../../domain/instrument.js';
import type { ContractDetail } from './market-schemas.js';

/** [hedged, one-way] open-order limits every fixture contract carries; used when the field is absent. */
const DEFAULT_MAX_NUM_ORDERS: readonly [number, number] = [200, 50];

function known<T extends string>(symbol: string, field: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new RangeError(`${symbol}: unknown ${field} ${JSON.stringify(value)} (expected ${allowed.join(', ')})`);
}

/** Tiers derived from riskBaseVol / riskIncrVol / riskIncrMmr / riskIncrImr / riskLevelLimit (see above). */
export function deriveRiskTiers(
  d: Pick<
    ContractDetail,
    | 'riskBaseVol'
    | 'riskIncrVol'
    | 'maintenanceMarginRate'
    | 'riskIncrMmr'
    | 'initialMarginRate'
    | 'riskIncrImr'
    | 'riskLevelLimit'
    | 'maxLeverage'
  >,
): RiskTier[] {
  const n = Math.max(d.riskLevelLimit, 1);
  const tiers: RiskTier[] = [];
  for (let i = 1; i <= n; i++) {
    const k = i - 1;
    const imr = d.initialMarginRate.plus(d.riskIncrImr.mul(k));
    const byMargin = imr.gt(0) ? new Decimal(1).div(imr).floor().toNumber() : d.maxLeverage;
    tiers.push({
      level: i,
      maxVol: d.riskBaseVol.plus(d.riskIncrVol.mul(k)),
      mmr: d.maintenanceMarginRate.plus(d.riskIncrMmr.mul(k)),
      imr,
      maxLeverage: Math.min(d.maxLeverage, byMargin),
    });
  }
  return tiers;
}

function feeTiers(list: ContractDetail['leverageFeeRates']): FeeTier[] {
  return (list ?? []).map((t) => ({
    takerFeeRate: t.takerFeeRate,
    makerFeeRate: t.makerFeeRate,
    ...(t.minTieredDealAmount !== undefined ? { minTieredDealAmount: t.minTieredDealAmount } : {}),
    ...(t.maxTieredDealAmount !== undefined ? { maxTieredDealAmount: t.maxTieredDealAmount } : {}),
  }));
}

function contractState(symbol: string, state: number): ContractState {
  if ((Object.values(ContractStates) as number[]).includes(state)) return state as ContractState;
  throw new RangeError(`${symbol}: unknown contract state ${state} (expected 0 to 4)`);
}

export function toContractInstrument(detail: ContractDetail): ContractInstrument {
  const symbol = contractSymbol(detail.symbol);
  const custom = detail.riskLimitCustom ?? [];
  const riskTiers: RiskTier[] =
    custom.length > 0
      ? [...custom]
          .sort((a, b) => a.level - b.level)
          .map((t) => ({ level: t.level, maxVol: t.maxVol, mmr: t.mmr, imr: t.imr, maxLeverage: t.maxLeverage }))
      : deriveRiskTiers(detail);
  const mno = detail.maxNumOrders;
  const maxNumOrders: readonly [number, number] = mno !== undefined && mno.length >= 2 ? [mno[0]!, mno[1]!] : DEFAULT_MAX_NUM_ORDERS;
  const displayName = detail.displayNameEn ?? detail.displayName;
  return {
    kind: 'contract',
    symbol,
    ...(displayName !== undefined ? { displayName } : {}),
    baseCoin: detail.baseCoin,
    quoteCoin: detail.quoteCoin,
    settleCoin: detail.settleCoin,
    positionOpenType: detail.positionOpenType as PositionOpenType,
    contractSize: detail.contractSize,
    minLeverage: detail.minLeverage,
    maxLeverage: detail.maxLeverage,
    priceScale: detail.priceScale,
    volScale: detail.volScale,
    amountScale: detail.amountScale,
    priceUnit: detail.priceUnit,
    volUnit: detail.volUnit,
    minVol: detail.minVol,
    maxVol: detail.maxVol,
    bidLimitPriceRate: detail.bidLimitPriceRate,
    askLimitPriceRate: detail.askLimitPriceRate,
    takerFeeRate: detail.takerFeeRate,
    makerFeeRate: detail.makerFeeRate,
    maintenanceMarginRate: detail.maintenanceMarginRate,
    initialMarginRate: detail.initialMarginRate,
    riskBaseVol: detail.riskBaseVol,
    riskIncrVol: detail.riskIncrVol,
    riskIncrMmr: detail.riskIncrMmr,
    riskIncrImr: detail.riskIncrImr,
    riskLevelLimit: detail.riskLevelLimit,
    riskLimitType: known<RiskLimitType>(detail.symbol, 'riskLimitType', detail.riskLimitType, RISK_LIMIT_TYPES, 'BY_VOLUME'),
    riskTiers,
    priceCoefficientVariation: detail.priceCoefficientVariation,
    state: contractState(detail.symbol, detail.state),
    apiAllowed: detail.apiAllowed,
    maxNumOrders,
    feeRateMode: known<FeeRateMode>(detail.symbol, 'feeRateMode', detail.feeRateMode, FEE_RATE_MODES, 'NORMAL'),
    leverageFeeRates: feeTiers(detail.leverageFeeRates),
    tieredFeeRates: feeTiers(detail.tieredFeeRates),
    ...(detail.isZeroFeeRate !== undefined ? { isZeroFee: detail.isZeroFeeRate } : {}),
  };
}
