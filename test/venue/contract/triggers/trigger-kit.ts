/**
 * Arrangement for the trigger-order tests: the contract venue kit (BTC_USDT, contractSize 0.0001,
 * tick 0.1, taker 0.0006, maker 0.0002, 10 % price band, invariants checked after every event) with
 * fair and index at 50 000, no funding timers, and three funded accounts.
 */
import { ContractSide, OpenType } from '../../../../src/domain/contract-enums.js';
import type { ContractPositionView } from '../../../../src/venue/contract/contract-views.js';
import { makeKit, placed, SYMBOL, type Kit } from '../contract-test-kit.js';

export { SYMBOL };
export const START = '50000';

export function triggerKit(): Kit {
  const k = makeKit({ autoFunding: false });
  k.venue.setFairPrice(SYMBOL, START);
  k.venue.setIndexPrice(SYMBOL, START);
  for (const a of ['alice', 'bob', 'carol']) k.venue.deposit(a, 'USDT', '10000');
  return k;
}

/**
 * bob rests a short of `vol` at `price`, alice takes it as a long (10×, isolated).
 * alice pays the taker fee vol·0.0001·price·0.0006 and books im vol·0.0001·price / 10.
 */
export function openLong(k: Kit, vol = 10, price = START): ContractPositionView {
  placed(k.venue, 'bob', { side: ContractSide.OPEN_SHORT, vol, price });
  placed(k.venue, 'alice', { side: ContractSide.OPEN_LONG, vol, price });
  return alicePosition(k)!;
}

export function alicePosition(k: Kit, side: 'long' | 'short' = 'long'): ContractPositionView | undefined {
  return k.venue.openPositions('alice').find((p) => p.positionType === (side === 'long' ? 1 : 2));
}

/** bob rests a buy that closes his short (liquidity for alice's closing sells). */
export function bobBids(k: Kit, vol: number, price: string): void {
  placed(k.venue, 'bob', { side: ContractSide.CLOSE_SHORT, vol, price, openType: OpenType.ISOLATED });
}

export const usdt = (k: Kit, account: string): string => k.venue.asset(account, 'USDT')!.availableBalance.toFixed();
