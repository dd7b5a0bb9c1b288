/**
 * The backtest's container module (docs/architecture.md rules 2, 9): where live binds the MEXC clients,
 * gateways and REST pollers (app/container/exchange-module.ts), a backtest binds the simulated
 * exchange's gateways and the replay snapshot source. Everything else — strategies, risk, order
 * managers, the journal (in memory), the trading runtime — comes from the app's own modules:
 *
 *   core(virtual clock) · strategies · risk · BACKTEST (venue, market data, in-memory journal) · runtime
 */
import { ContainerModule } from 'inversify';
import type { ServiceIdentifier } from 'inversify';
import { CORE_TOKENS } from '../core/core-tokens.js';
import { DOMAIN_TOKENS } from '../domain/domain-tokens.js';
import { EXECUTION_TOKENS } from '../execution/execution-tokens.js';
import { MARKETDATA_TOKENS } from '../marketdata/marketdata-tokens.js';
import type { InstrumentSymbol } from '../core/ids.js';
import type { InstrumentRegistry } from '../domain/instrument-registry.js';
import type { PositionModeName } from '../domain/intent.js';
import { ClientIdCodec } from '../domain/client-id-codec.js';
import { OrderManager } from '../execution/order-manager.js';
import type { ImmediateAccountReads } from '../execution/immediate-account-reads.js';
import { toOrderManagerConfig } from '../runtime/config/runtime-settings.js';
import { RUNTIME_TOKENS } from '../runtime/runtime-tokens.js';
import { KindJournal } from '../runtime/kind-journal.js';
import type { ExecutionVenue } from '../runtime/runtime-options.js';
import type { VenueAccess } from '../runtime/venue/venue-access.js';
import type { ReplayMarket } from './replay-market.js';
import { MemoryRunJournal } from './memory-run-journal.js';
import type { ReplaySnapshotSource } from './replay-snapshot-source.js';
import type { SimulatedExchange } from './simulated-exchange.js';
import { SimulatedGateway, type SimVenueOps } from './simulated-gateway.js';

export const BACKTEST_TOKENS = {
  Market: Symbol.for('perpetua.backtest.Market') as ServiceIdentifier<ReplayMarket>,
  Exchange: Symbol.for('perpetua.backtest.Exchange') as ServiceIdentifier<SimulatedExchange>,
  SnapshotSource: Symbol.for('perpetua.backtest.SnapshotSource') as ServiceIdentifier<ReplaySnapshotSource>,
} as const;

export interface BacktestModuleParts {
  readonly market: ReplayMarket;
  readonly exchange: SimulatedExchange;
  readonly source: ReplaySnapshotSource;
  readonly instruments: InstrumentRegistry;
  /** Venue operations per account kind traded. */
  readonly spot?: SimVenueOps;
  readonly contract?: SimVenueOps;
  readonly positionMode?: PositionModeName;
}

/** The venue "access" of a backtest: a simulated exchange made for this run (nothing to resume). */
export const BACKTEST_VENUE_ACCESS: VenueAccess = Object.freeze({
  label: 'backtest (simulated exchange over recorded market data)',
  spotUrl: '',
  contractUrl: '',
  credentialSource: 'none (simulated)',
  fresh: true,
  close: async (): Promise<void> => {},
});

export function backtestModule(parts: BacktestModuleParts): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(BACKTEST_TOKENS.Market).toConstantValue(parts.market);
    bind(BACKTEST_TOKENS.Exchange).toConstantValue(parts.exchange);
    bind(BACKTEST_TOKENS.SnapshotSource).toConstantValue(parts.source);
    bind(RUNTIME_TOKENS.VenueAccess).toConstantValue(BACKTEST_VENUE_ACCESS);
    bind(RUNTIME_TOKENS.InstrumentRegistry).toConstantValue(parts.instruments);
    bind(DOMAIN_TOKENS.Instruments).toService(RUNTIME_TOKENS.InstrumentRegistry);
    bind(RUNTIME_TOKENS.PositionMode).toConstantValue(parts.positionMode);
    bind(RUNTIME_TOKENS.SpotClient).toConstantValue(undefined);
    bind(RUNTIME_TOKENS.ContractClient).toConstantValue(undefined);
    bind(MARKETDATA_TOKENS.MarketDataSource).toService(BACKTEST_TOKENS.SnapshotSource);
    // The runtime takes the SQLite journal's interface; a backtest keeps it in memory (memory-run-journal.ts).
    bind(RUNTIME_TOKENS.Journal).toConstantValue(new MemoryRunJournal({ history: false }));
    bind(EXECUTION_TOKENS.OrderJournal).toService(RUNTIME_TOKENS.Journal);

    bind(EXECUTION_TOKENS.ClientIdCodec)
      .toDynamicValue((ctx) => {
        const codec = new ClientIdCodec(ctx.get(CORE_TOKENS.Clock));
        for (const s of ctx.get(RUNTIME_TOKENS.LoadedConfig).strategies) codec.register(s.id, s.tag);
        return codec;
      })
      .inSingletonScope();

    bind(RUNTIME_TOKENS.Venues)
      .toDynamicValue(async (ctx): Promise<readonly ExecutionVenue[]> => {
        const clock = ctx.get(CORE_TOKENS.Clock);
        const { config } = ctx.get(RUNTIME_TOKENS.LoadedConfig);
        const journal = await ctx.getAsync(RUNTIME_TOKENS.Journal);
        const codec = ctx.get(EXECUTION_TOKENS.ClientIdCodec);
        const omConfig = toOrderManagerConfig(config);
        const venues: ExecutionVenue[] = [];
        for (const [kind, ops] of [
          ['spot', parts.spot],
          ['contract', parts.contract],
        ] as const) {
          if (!ops) continue;
          const gateway = new SimulatedGateway(parts.exchange, ops);
          // What the gateway's account queries answer, without their promises (ImmediateAccountReads).
          const reads: ImmediateAccountReads = {
            balances: () => ops.balances(),
            positions: () => ops.positions(),
            openOrders: (symbol: InstrumentSymbol) => ops.openOrders(symbol),
            fillsSince: (symbol: InstrumentSymbol, since: number) => ops.fillsSince(symbol, since),
            ...(ops.fundingSince ? { fundingSince: (symbol: InstrumentSymbol, since: number) => ops.fundingSince!(symbol, since) } : {}),
          };
          const orders = new OrderManager(gateway, new KindJournal(journal, kind), clock, codec, parts.instruments, omConfig);
          orders.readsAtHand(reads);
          venues.push({ kind, gateway, orders, reads });
        }
        return venues;
      })
      .inSingletonScope();
  });
}
