/**
 * The strategies this build offers by name. The app binds each class to TOKENS.StrategyClass; a new
 * strategy is added here (see docs/writing-a-strategy.md).
 */
import type { StrategyClass } from '../src/strategy/strategy.js';
import { PerpTrend } from './perp-trend.js';
import { SpotMarketMaker } from './spot-market-maker.js';

export { PerpTrend, perpTrendParams, type PerpTrendParams } from './perp-trend.js';
export { SpotMarketMaker, spotMarketMakerParams, type SpotMarketMakerParams } from './spot-market-maker.js';

export const REFERENCE_STRATEGIES: readonly StrategyClass[] = [SpotMarketMaker as StrategyClass, PerpTrend as StrategyClass];
