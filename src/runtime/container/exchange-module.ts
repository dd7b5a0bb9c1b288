/**
 * Everything that talks to the venue, the same for live and paper (only VenueAccess differs): the
 * spot and contract clients (only for the kinds the config trades), the instrument rules read from
 * the venue, the client-id codec, one gateway and one order manager per account kind, and the REST
 * pollers behind the MarketDataSource.
 */
import { ContainerModule, type ResolutionContext } from 'inversify';
import { ContractClient } from '../../client/contract-client.js';
import { SpotClient } from '../../client/spot-client.js';
import type { ClientOptions } from '../../client/catalogue-client.js';
import { type InstrumentSymbol, isContractSymbol } from '../../core/ids.js';
import { SeededRandom } from '../../core/random.js';
import { CORE_TOKENS } from '../../core/core-tokens.js';
import { DOMAIN_TOKENS } from '../../domain/domain-tokens.js';
import { EXECUTION_TOKENS } from '../../execution/execution-tokens.js';
import { MARKETDATA_TOKENS } from '../../marketdata/marketdata-tokens.js';
import type { PositionModeName } from '../../domain/intent.js';
import { ClientIdCodec } from '../../domain/client-id-codec.js';
import { MexcContractGateway } from '../../execution/gateways/mexc-contract-gateway.js';
import { MexcSpotGateway } from '../../execution/gateways/mexc-spot-gateway.js';
import { OrderManager } from '../../execution/order-manager.js';
import { MexcContractMarketFetcher, MexcSpotMarketFetcher } from '../../marketdata/poll/mexc-market-fetcher.js';
import { PollingMarketDataSource } from '../../marketdata/poll/polling-market-data-source.js';
import { toOrderManagerConfig, toPollConfig } from '../config/runtime-settings.js';
import { KindJournal } from '../kind-journal.js';
import type { ExecutionVenue } from '../runtime-options.js';
import { loadInstruments } from '../venue/load-instruments.js';
import { RUNTIME_TOKENS } from '../runtime-tokens.js';

export function exchangeModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(RUNTIME_TOKENS.SpotClient)
      .toDynamicValue(async (ctx) => {
        const { config } = ctx.get(RUNTIME_TOKENS.LoadedConfig);
        if (!config.instruments.some((s) => !isContractSymbol(s))) return undefined;
        const access = await ctx.getAsync(RUNTIME_TOKENS.VenueAccess);
        return new SpotClient(await clientOptions(ctx, access.spotUrl, 'spot'));
      })
      .inSingletonScope();

    bind(RUNTIME_TOKENS.ContractClient)
      .toDynamicValue(async (ctx) => {
        const { config } = ctx.get(RUNTIME_TOKENS.LoadedConfig);
        if (!config.instruments.some((s) => isContractSymbol(s))) return undefined;
        const access = await ctx.getAsync(RUNTIME_TOKENS.VenueAccess);
        return new ContractClient(await clientOptions(ctx, access.contractUrl, 'contract'));
      })
      .inSingletonScope();

    bind(RUNTIME_TOKENS.InstrumentRegistry)
      .toDynamicValue(async (ctx) => {
        const { config } = ctx.get(RUNTIME_TOKENS.LoadedConfig);
        const spot = await ctx.getAsync(RUNTIME_TOKENS.SpotClient);
        const contract = await ctx.getAsync(RUNTIME_TOKENS.ContractClient);
        return loadInstruments(config.instruments as InstrumentSymbol[], { ...(spot ? { spot } : {}), ...(contract ? { contract } : {}) });
      })
      .inSingletonScope();
    bind(DOMAIN_TOKENS.Instruments).toService(RUNTIME_TOKENS.InstrumentRegistry);

    bind(RUNTIME_TOKENS.PositionMode)
      .toDynamicValue(async (ctx): Promise<PositionModeName | undefined> => {
        const contract = await ctx.getAsync(RUNTIME_TOKENS.ContractClient);
        if (!contract) return undefined;
        // 1 hedged, 2 one-way (contract-api.md 4.4).
        return (await contract.positionMode()) === 1 ? 'hedged' : 'one-way';
      })
      .inSingletonScope();

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
        const instruments = await ctx.getAsync(RUNTIME_TOKENS.InstrumentRegistry);
        const codec = ctx.get(EXECUTION_TOKENS.ClientIdCodec);
        const omConfig = toOrderManagerConfig(config);
        const venues: ExecutionVenue[] = [];
        const spot = await ctx.getAsync(RUNTIME_TOKENS.SpotClient);
        if (spot) {
          const gateway = new MexcSpotGateway({ client: spot, instruments, clock });
          venues.push({
            kind: 'spot',
            gateway,
            orders: new OrderManager(gateway, new KindJournal(journal, 'spot'), clock, codec, instruments, omConfig),
          });
        }
        const contract = await ctx.getAsync(RUNTIME_TOKENS.ContractClient);
        if (contract) {
          const positionMode = await ctx.getAsync(RUNTIME_TOKENS.PositionMode);
          const gateway = new MexcContractGateway({
            client: contract,
            instruments,
            clock,
            ...(positionMode ? { positionMode } : {}),
            settingRetry: { clock, random: new SeededRandom('perpetua:settings'), deadlineMs: config.venue.startupDeadlineMs },
          });
          venues.push({
            kind: 'contract',
            gateway,
            orders: new OrderManager(gateway, new KindJournal(journal, 'contract'), clock, codec, instruments, omConfig),
          });
        }
        return venues;
      })
      .inSingletonScope();

    bind(MARKETDATA_TOKENS.MarketDataSource)
      .toDynamicValue(async (ctx) => {
        const clock = ctx.get(CORE_TOKENS.Clock);
        const { config } = ctx.get(RUNTIME_TOKENS.LoadedConfig);
        const spot = await ctx.getAsync(RUNTIME_TOKENS.SpotClient);
        const contract = await ctx.getAsync(RUNTIME_TOKENS.ContractClient);
        const timeoutMs = config.venue.requestTimeoutMs;
        return new PollingMarketDataSource({
          clock,
          config: toPollConfig(config),
          ...(spot ? { spot: new MexcSpotMarketFetcher(spot, { timeoutMs }) } : {}),
          ...(contract ? { contract: new MexcContractMarketFetcher(contract, clock, { timeoutMs }) } : {}),
        });
      })
      .inSingletonScope();
  });
}

async function clientOptions(ctx: ResolutionContext, baseUrl: string, api: 'spot' | 'contract'): Promise<ClientOptions> {
  const { config } = ctx.get(RUNTIME_TOKENS.LoadedConfig);
  const access = await ctx.getAsync(RUNTIME_TOKENS.VenueAccess);
  return {
    baseUrl,
    clock: ctx.get(CORE_TOKENS.Clock),
    ...(access.credentials ? { credentials: access.credentials } : {}),
    recvWindow: config.venue.recvWindowMs,
    timeouts: { requestMs: config.venue.requestTimeoutMs },
    // Retry jitter only; seeded per API so two runs back off alike.
    random: new SeededRandom(`perpetua:${api}`),
    logger: ctx.get(RUNTIME_TOKENS.Logger),
    // Until the runtime has started (run-command ends it), transient errors are waited out, not fatal.
    startupRetry: { deadlineMs: config.venue.startupDeadlineMs },
  };
}
