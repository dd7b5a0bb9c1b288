/** The default rule set, in evaluation order: shape and fail-closed checks first, then venue rules, then account and limits. */
import type { RiskRule } from '../risk-rule.js';
import { accountKnownRule } from './account-known-rule.js';
import { apiPermissionRule } from './api-permission-rule.js';
import { contractPriceLimitRule } from './contract-price-limit-rule.js';
import { freeBalanceRule } from './free-balance-rule.js';
import { instrumentKnownRule } from './instrument-known-rule.js';
import { instrumentStatusRule } from './instrument-status-rule.js';
import { intentShapeRule } from './intent-shape-rule.js';
import { killSwitchRule } from './kill-switch-rule.js';
import { leverageRule } from './leverage-rule.js';
import { marketDataRule } from './market-data-rule.js';
import { maxOpenOrdersRule } from './max-open-orders-rule.js';
import { notionalBoundsRule } from './notional-bounds-rule.js';
import { orderKnownRule } from './order-known-rule.js';
import { orderTypeRule } from './order-type-rule.js';
import { percentPriceRule } from './percent-price-rule.js';
import { positionModeRule } from './position-mode-rule.js';
import { positionSideRule } from './position-side-rule.js';
import { priceTickRule } from './price-tick-rule.js';
import { quantityBoundsRule } from './quantity-bounds-rule.js';
import { quantityStepRule } from './quantity-step-rule.js';
import { reduceOnlyRule } from './reduce-only-rule.js';
import { strategyLimitsRule } from './strategy-limits-rule.js';
import { tpslRule } from './tpsl-rule.js';
import { tradeSideTypeRule } from './trade-side-type-rule.js';

export const DEFAULT_RISK_RULES: readonly RiskRule[] = [
  intentShapeRule,
  instrumentKnownRule,
  killSwitchRule,
  orderKnownRule,
  accountKnownRule,
  marketDataRule,
  instrumentStatusRule,
  apiPermissionRule,
  orderTypeRule,
  tradeSideTypeRule,
  positionSideRule,
  priceTickRule,
  quantityStepRule,
  quantityBoundsRule,
  notionalBoundsRule,
  percentPriceRule,
  contractPriceLimitRule,
  tpslRule,
  reduceOnlyRule,
  leverageRule,
  positionModeRule,
  maxOpenOrdersRule,
  strategyLimitsRule,
  freeBalanceRule,
];

export {
  accountKnownRule,
  apiPermissionRule,
  contractPriceLimitRule,
  freeBalanceRule,
  instrumentKnownRule,
  instrumentStatusRule,
  intentShapeRule,
  killSwitchRule,
  leverageRule,
  marketDataRule,
  maxOpenOrdersRule,
  notionalBoundsRule,
  orderKnownRule,
  orderTypeRule,
  percentPriceRule,
  positionModeRule,
  positionSideRule,
  priceTickRule,
  quantityBoundsRule,
  quantityStepRule,
  reduceOnlyRule,
  strategyLimitsRule,
  tpslRule,
  tradeSideTypeRule,
};
