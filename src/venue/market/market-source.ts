/**
 * The emulator's market comes from one of three sources behind this interface: the seeded synthetic
 * model (SyntheticMarket), a recording (ReplayMarketSource) or a live exchange polled and reproduced
 * here (MirrorMarketSource). Each acts on the order books only through a LiquidityPort; prints reach
 * the TapeAggregator through the venue's trade events.
 */
import type { ContractPriceBoard } from './contract-price-board.js';

export type MarketSourceKind = 'synthetic' | 'replay' | 'mirror';

export interface MarketSource {
  readonly kind: MarketSourceKind;
  /** Begins driving the books on the injected clock. */
  start(): void;
  stop(): void;
  /** Index / fair / funding of a perpetual; undefined for spot or unknown symbols. */
  contractPrices(symbol: string): ContractPriceBoard | undefined;
}
