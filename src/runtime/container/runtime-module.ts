/**
 * The trading runtime: strategies created by name (each in its own child container with its
 * parameters, id and instruments bound), wired to the venues, risk engine, journal and market data.
 */
import { Container, ContainerModule, type ResolutionContext } from 'inversify';
import { CORE_TOKENS } from '../../core/core-tokens.js';
import type { Decimal } from '../../core/decimal.js';
import { ValidationError } from '../../core/errors.js';
import { isContractSymbol, type InstrumentSymbol } from '../../core/ids.js';
import { EXECUTION_TOKENS } from '../../execution/execution-tokens.js';
import { MARKETDATA_TOKENS } from '../../marketdata/marketdata-tokens.js';
import { RISK_TOKENS } from '../../risk/risk-tokens.js';
import { STRATEGY_TOKENS } from '../../strategy/strategy-tokens.js';
import { toExecutionPolicy, configHash } from '../config/runtime-settings.js';
import type { RuntimeStrategy } from '../runtime-options.js';
import { TradingRuntime } from '../trading-runtime.js';
import { RUNTIME_TOKENS } from '../runtime-tokens.js';

export function runtimeModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(RUNTIME_TOKENS.Runtime)
      .toDynamicValue(async (ctx) => {
        const loaded = ctx.get(RUNTIME_TOKENS.LoadedConfig);
        const options = ctx.get(RUNTIME_TOKENS.RunOptions);
        const { config } = loaded;
        const app = ctx.get(RUNTIME_TOKENS.Container);
        const registry = ctx.get(STRATEGY_TOKENS.StrategyRegistry);
        const venues = await ctx.getAsync(RUNTIME_TOKENS.Venues);
        const access = await ctx.getAsync(RUNTIME_TOKENS.VenueAccess);
        const strategies: RuntimeStrategy[] = loaded.strategies.map((s, i) => {
          const scope = new Container({ parent: app });
          scope.bind(STRATEGY_TOKENS.StrategyInstruments).toConstantValue(s.instruments);
          const created = registry.create(scope, { id: s.id, name: s.name, params: config.strategies[i]!.params }, `strategies[${i}]`);
          return { id: created.id, name: created.name, instruments: s.instruments, strategy: created.strategy };
        });
        const positionMode = await ctx.getAsync(RUNTIME_TOKENS.PositionMode);
        const valuationPrice = await valuationPriceReader(ctx);
        return new TradingRuntime({
          clock: ctx.get(CORE_TOKENS.Clock),
          logger: options.logger,
          mode: config.mode,
          configHash: configHash(config),
          instruments: await ctx.getAsync(RUNTIME_TOKENS.InstrumentRegistry),
          market: await ctx.getAsync(MARKETDATA_TOKENS.MarketDataSource),
          venues,
          journal: await ctx.getAsync(RUNTIME_TOKENS.Journal),
          risk: ctx.get(RISK_TOKENS.RiskEngine),
          limits: ctx.get(RISK_TOKENS.RiskLimits),
          codec: ctx.get(EXECUTION_TOKENS.ClientIdCodec),
          strategies,
          policy: toExecutionPolicy(config, options.cancelOnExit === undefined ? {} : { cancelOnExit: options.cancelOnExit }),
          valuationAsset: config.risk.valuationAsset,
          ...(valuationPrice ? { valuationPrice } : {}),
          resume: !access.fresh,
          ...(positionMode ? { positionMode } : {}),
        });
      })
      .inSingletonScope();
  });
}

/**
 * Valuation prices from the run's clients: a spot symbol's last price, a perpetual's fair price.
 * None without clients (a backtest: its simulated venue prices only the instruments it replays).
 */
async function valuationPriceReader(ctx: ResolutionContext): Promise<((symbol: InstrumentSymbol) => Promise<Decimal>) | undefined> {
  const spot = await ctx.getAsync(RUNTIME_TOKENS.SpotClient);
  const contract = await ctx.getAsync(RUNTIME_TOKENS.ContractClient);
  if (!spot && !contract) return undefined;
  return async (symbol) => {
    if (isContractSymbol(symbol)) {
      if (!contract) throw new ValidationError('symbol', 'a spot symbol (this run has no contract client)', symbol);
      return (await contract.fairPrice({ symbol })).fairPrice;
    }
    if (!spot) throw new ValidationError('symbol', 'a contract symbol (this run has no spot client)', symbol);
    const [t] = await spot.tickerPrice({ symbol });
    if (!t) throw new ValidationError('symbol', 'a symbol the venue lists', symbol);
    return t.price;
  };
}
