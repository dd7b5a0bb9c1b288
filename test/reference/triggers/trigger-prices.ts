/**
 * Which price a trigger watches (trend 1 latest, 2 fair, 3 index) and the comparisons every trigger
 * kind shares. A trigger compares against the exact price carried by the update it is evaluated on.
 */
import type { Decimal } from '../../../src/core/decimal.js';
import { PriceTrend, TriggerType } from '../../../src/domain/contract-enums.js';
import type { PriceUpdate } from '../../../src/venue/contract/contract-events.js';

export type PriceKind = PriceUpdate['kind'];

const KIND_OF_TREND: Readonly<Record<PriceTrend, PriceKind>> = {
  [PriceTrend.LATEST]: 'last',
  [PriceTrend.FAIR]: 'fair',
  [PriceTrend.INDEX]: 'index',
};

export const priceKindOf = (trend: PriceTrend): PriceKind => KIND_OF_TREND[trend];

export const isTrend = (v: unknown): v is PriceTrend => v === PriceTrend.LATEST || v === PriceTrend.FAIR || v === PriceTrend.INDEX;

/** Whether `price` satisfies `triggerType` against `trigger` (1: ≥, 2: ≤). */
export function reached(price: Decimal, trigger: Decimal, type: TriggerType): boolean {
  return type === TriggerType.GTE ? price.gte(trigger) : price.lte(trigger);
}

/** The current price of a trend, as the venue knows it. */
export interface TrendPrices {
  fairPrice(symbol: string): Decimal | undefined;
  indexPrice(symbol: string): Decimal | undefined;
  lastPrice(symbol: string): Decimal | undefined;
}

export function currentPrice(prices: TrendPrices, symbol: string, trend: PriceTrend): Decimal | undefined {
  switch (trend) {
    case PriceTrend.LATEST:
      return prices.lastPrice(symbol);
    case PriceTrend.FAIR:
      return prices.fairPrice(symbol);
    case PriceTrend.INDEX:
      return prices.indexPrice(symbol);
  }
}
