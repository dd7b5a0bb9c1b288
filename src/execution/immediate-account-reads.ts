/**
 * The gateway's account queries with their answers at hand: a backtest's simulated venue reads its own
 * state, and its gateway only wraps each answer in a promise. The reconciliation (the runtime's
 * VenueReconciler for balances, positions and funding records; the order manager's pass for open orders
 * and fills) takes them directly where a venue gives them (ExecutionVenue.reads), and awaits the
 * gateway's promise everywhere else (paper and live ask the venue on every pass, as before).
 * Why: a 1-minute kline backtest reconciles once a bar, and awaiting answers that were there already
 * cost a promise and a turn each, and the funding read's chain two more: taking the account reads
 * directly, the 50.8-day perp-trend run allocates 24,812 instead of 26,322 bytes a bar (sampled heap
 * profile, notes/s14/alloc.mjs), and the order manager's open orders and fills at hand took it from 24,827 to
 * 24,098 (notes/s18kl2). Same answers, same errors (thrown where the gateway rejects).
 */
import type { InstrumentSymbol } from '../core/ids.js';
import type { AccountSnapshot } from '../domain/balance.js';
import type { Fill } from '../domain/fill.js';
import type { VenueOrder } from '../domain/order.js';
import type { Position } from '../domain/position.js';
import type { FundingPayment } from './exchange-gateway.js';

export interface ImmediateAccountReads {
  balances(): AccountSnapshot;
  positions(): readonly Position[];
  fundingSince?(symbol: InstrumentSymbol, since: number): readonly FundingPayment[];
  /** As ExchangeGateway.openOrders of one symbol. */
  openOrders(symbol: InstrumentSymbol): readonly VenueOrder[];
  /** As ExchangeGateway.fillsSince. */
  fillsSince(symbol: InstrumentSymbol, since: number): readonly Fill[];
}
