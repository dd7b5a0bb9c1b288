/**
 * MirrorFeedPorts over the typed clients (src/client): the spot feed uses depth + trades, the contract
 * feed depth + deals + index / fair / funding. Only the public API of the clients is used, through
 * the catalogue-derived method types, so any object with those methods (a client, a stub) fits.
 */
import type { CatalogueMethods } from '../../client/catalogue-methods.js';
import type { contractCatalogue } from '../../api/contract/catalogue.js';
import type { spotCatalogue } from '../../api/spot/catalogue.js';
import type { MirrorFeedPort, MirrorLevel, MirrorPrices, MirrorTrade } from './mirror-market-source.js';

type SpotMethods = CatalogueMethods<typeof spotCatalogue>;
type ContractMethods = CatalogueMethods<typeof contractCatalogue>;

export type SpotMarketReader = Pick<SpotMethods, 'depth' | 'trades'>;
export type ContractMarketReader = Pick<ContractMethods, 'depth' | 'deals' | 'indexPrice' | 'fairPrice' | 'fundingRate'>;

export function spotMirrorFeed(client: SpotMarketReader): MirrorFeedPort {
  return {
    async depth(symbol, limit) {
      const d = await client.depth({ symbol, limit });
      return {
        version: d.lastUpdateId,
        time: d.timestamp,
        bids: d.bids.map((l): MirrorLevel => [l.price.toFixed(), l.qty.toFixed()]),
        asks: d.asks.map((l): MirrorLevel => [l.price.toFixed(), l.qty.toFixed()]),
      };
    },
    async trades(symbol, limit) {
      const ts = await client.trades({ symbol, limit });
      return ts.map((t): MirrorTrade => ({
        ...(t.id === undefined ? {} : { id: t.id }),
        price: t.price.toFixed(),
        qty: t.qty.toFixed(),
        time: t.time,
        takerSide: t.isBuyerMaker ? 'sell' : 'buy',
      }));
    },
  };
}

export function contractMirrorFeed(client: ContractMarketReader): MirrorFeedPort {
  return {
    async depth(symbol, limit) {
      const d = await client.depth({ symbol, limit });
      return {
        version: d.version,
        time: d.timestamp,
        bids: d.bids.map((l): MirrorLevel => [l.price.toFixed(), l.vol.toFixed()]),
        asks: d.asks.map((l): MirrorLevel => [l.price.toFixed(), l.vol.toFixed()]),
      };
    },
    async trades(symbol, limit) {
      const deals = await client.deals({ symbol, limit: Math.min(limit, 100) });
      return deals.map((t): MirrorTrade => ({
        ...(t.i === undefined ? {} : { id: String(t.i) }),
        price: t.p.toFixed(),
        qty: t.v.toFixed(),
        time: t.t,
        // Deal T is the taker's side: 1 buy, 2 sell.
        takerSide: t.T === 2 ? 'sell' : 'buy',
      }));
    },
    async prices(symbol): Promise<MirrorPrices> {
      const [index, fair, funding] = await Promise.all([
        client.indexPrice({ symbol }),
        client.fairPrice({ symbol }),
        client.fundingRate({ symbol }),
      ]);
      return {
        index: { price: index.indexPrice.toFixed(), time: index.timestamp },
        fair: { price: fair.fairPrice.toFixed(), time: fair.timestamp },
        funding: {
          rate: funding.fundingRate.toFixed(),
          ...(funding.minFundingRate === undefined ? {} : { min: funding.minFundingRate.toFixed() }),
          ...(funding.maxFundingRate === undefined ? {} : { max: funding.maxFundingRate.toFixed() }),
          ...(funding.nextSettleTime === undefined ? {} : { nextSettleTime: funding.nextSettleTime }),
          ...(funding.collectCycle === undefined ? {} : { collectCycleHours: funding.collectCycle }),
          ...(funding.timestamp === undefined ? {} : { time: funding.timestamp }),
        },
      };
    },
  };
}
