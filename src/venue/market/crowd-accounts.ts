/**
 * The crowd: the accounts through which a market model (the emulator's synthetic or mirrored market,
 * the backtest's recorded one) lays and takes liquidity on a venue. One module names them, funds them
 * and words their orders, for the emulator's engines and the backtest's simulated venues alike.
 *
 * Spot: one maker account per symbol (keeps the crowd under the per-account open-order cap) and one
 * taker. Contracts: a few maker accounts per symbol in one-way mode (buys and sells net out, so each
 * position stays bounded) and one taker. The crowd trades free of fees and holds far more than it can
 * spend, so it never drains; every crowd fill is an ordinary ledger transfer, so funds stay conserved.
 */
import { ZERO, type Decimal, type DecimalLike } from '../../core/decimal.js';
import { ContractOrderType, ContractSide, OpenType, PositionMode } from '../../domain/contract-enums.js';
import type { PlaceOrderTicksRequest } from '../contract/contract-requests.js';
import type { ContractVenue } from '../contract/contract-venue.js';
import type { BookSide } from './liquidity-port.js';

/** Every crowd account id starts so; user accounts may not (the emulator config refuses the prefix). */
export const isCrowdAccount = (id: string): boolean => id.startsWith('crowd-');

/** What each crowd account is given: enough never to run dry, far below the ledger's range. */
export const CROWD_DEPOSIT = '1000000000000';
/** The crowd's contract leverage (its positions are small next to its deposit). */
export const CROWD_LEVERAGE = 20;
export const CROWD_ZERO_FEES: { readonly maker: Decimal; readonly taker: Decimal } = { maker: ZERO, taker: ZERO };

export const spotCrowdMaker = (symbol: string): string => `crowd-maker:${symbol}`;
export const SPOT_CROWD_TAKER = 'crowd-taker';
export const contractCrowdMaker = (symbol: string, k: number): string => `crowd-cmaker:${symbol}:${k}`;
export const CONTRACT_CROWD_TAKER = 'crowd-ctaker';

/** Opens crowd accounts on a contract venue in one-way mode, in the order given, each funded in every coin. */
export function openContractCrowd(
  venue: ContractVenue,
  ids: readonly string[],
  coins: readonly string[],
  amount: DecimalLike = CROWD_DEPOSIT,
): void {
  for (const id of ids) {
    venue.openAccount(id, PositionMode.ONE_WAY);
    for (const c of coins) venue.deposit(id, c, amount);
  }
}

/**
 * A crowd contract order: one-way accounts "open long" to buy and "open short" to sell, netting what they
 * hold. In the contract's ticks (priceUnit) and lots (volUnit), as the emulator's market driver and the
 * backtest's replay hold the crowd's liquidity (placed with ContractVenue.placeOrderTicks: no decimal text
 * to build and parse back).
 */
export function crowdContractOrder(
  symbol: string,
  side: BookSide,
  priceTicks: number,
  lots: number,
  type: ContractOrderType,
): PlaceOrderTicksRequest {
  return {
    symbol,
    priceTicks,
    lots,
    leverage: CROWD_LEVERAGE,
    side: side === 'buy' ? ContractSide.OPEN_LONG : ContractSide.OPEN_SHORT,
    type,
    openType: OpenType.CROSS,
  };
}
