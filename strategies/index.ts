/**
 * The built-in strategies, by name. The app binds each class to TOKENS.StrategyClass. Your own
 * strategies do not go here: a config's `strategyModules` loads them (docs/writing-a-strategy.md).
 */
import type { StrategyClass } from '../src/strategy/strategy.js';
import { FundingCarry } from './funding-carry.js';
import { PerpAsMaker } from './perp-as-maker.js';
import { PerpTrend } from './perp-trend.js';
import { SpotGrid } from './spot-grid.js';
import { SpotMarketMaker } from './spot-market-maker.js';
import { TargetPosition } from './target-position.js';

export { FundingCarry, fundingCarryParams, type FundingCarryParams } from './funding-carry.js';
export { PerpAsMaker, perpAsMakerParams, type PerpAsMakerParams } from './perp-as-maker.js';
export { PerpTrend, perpTrendParams, type PerpTrendParams } from './perp-trend.js';
export { SpotGrid, spotGridParams, type SpotGridParams } from './spot-grid.js';
export { SpotMarketMaker, spotMarketMakerParams, type SpotMarketMakerParams } from './spot-market-maker.js';
export { TargetPosition, targetPositionParams, type TargetPositionParams } from './target-position.js';

export const REFERENCE_STRATEGIES: readonly StrategyClass[] = [
  SpotMarketMaker as StrategyClass,
  PerpTrend as StrategyClass,
  SpotGrid as StrategyClass,
  PerpAsMaker as StrategyClass,
  FundingCarry as StrategyClass,
  TargetPosition as StrategyClass,
];
