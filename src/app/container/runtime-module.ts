/**
 * The trading runtime: strategies created by name (each in its own child container with its
 * parameters, id and instruments bound), wired to the venues, risk engine, journal and market data.
 */
import { Container, ContainerModule } from 'inversify';
import { TOKENS } from '../../core/tokens.js';
import { toExecutionPolicy, configHash } from '../config/runtime-settings.js';
import { TradingRuntime, type RuntimeStrategy } from '../runtime/trading-runtime.js';
import { APP_TOKENS } from './app-tokens.js';

export function runtimeModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(APP_TOKENS.Runtime)
      .toDynamicValue(async (ctx) => {
        const loaded = ctx.get(APP_TOKENS.LoadedConfig);
        const options = ctx.get(APP_TOKENS.RunOptions);
        const { config } = loaded;
        const app = ctx.get(APP_TOKENS.Container);
        const registry = ctx.get(TOKENS.StrategyRegistry);
        const venues = await ctx.getAsync(APP_TOKENS.Venues);
        const access = await ctx.getAsync(APP_TOKENS.VenueAccess);
        const strategies: RuntimeStrategy[] = loaded.strategies.map((s, i) => {
          const scope = new Container({ parent: app });
          scope.bind(TOKENS.StrategyInstruments).toConstantValue(s.instruments);
          const created = registry.create(scope, { id: s.id, name: s.name, params: config.strategies[i]!.params }, `strategies[${i}]`);
          return { id: created.id, name: created.name, instruments: s.instruments, strategy: created.strategy };
        });
        const positionMode = await ctx.getAsync(APP_TOKENS.PositionMode);
        return new TradingRuntime({
          clock: ctx.get(TOKENS.Clock),
          logger: options.logger,
          mode: config.mode,
          configHash: configHash(config),
          instruments: await ctx.getAsync(APP_TOKENS.InstrumentRegistry),
          market: await ctx.getAsync(TOKENS.MarketDataSource),
          venues,
          journal: await ctx.getAsync(APP_TOKENS.Journal),
          risk: ctx.get(TOKENS.RiskEngine),
          limits: ctx.get(TOKENS.RiskLimits),
          codec: ctx.get(TOKENS.ClientIdCodec),
          strategies,
          policy: toExecutionPolicy(config, options.cancelOnExit === undefined ? {} : { cancelOnExit: options.cancelOnExit }),
          valuationAsset: config.risk.valuationAsset,
          resume: !access.fresh,
          ...(positionMode ? { positionMode } : {}),
        });
      })
      .inSingletonScope();
  });
}
