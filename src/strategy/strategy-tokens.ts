/** DI identifiers of the strategy layer. StrategyParams, StrategyId and StrategyInstruments are bound in each strategy's child container. */
import type { ServiceIdentifier } from 'inversify';
import type { InstrumentSymbol, StrategyId } from '../core/ids.js';
import type { StrategyClass } from './strategy.js';
import type { StrategyRegistry } from './strategy-registry.js';

export const STRATEGY_TOKENS = {
  StrategyClass: Symbol.for('perpetua.StrategyClass') as ServiceIdentifier<StrategyClass>,
  StrategyRegistry: Symbol.for('perpetua.StrategyRegistry') as ServiceIdentifier<StrategyRegistry>,
  StrategyParams: Symbol.for('perpetua.StrategyParams') as ServiceIdentifier<unknown>,
  StrategyId: Symbol.for('perpetua.StrategyId') as ServiceIdentifier<StrategyId>,
  StrategyInstruments: Symbol.for('perpetua.StrategyInstruments') as ServiceIdentifier<readonly InstrumentSymbol[]>,
} as const;
