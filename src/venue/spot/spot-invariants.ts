/**
 * Every rule that must hold between commands, across the books, the ledger and the orders. Tests run
 * it after every event; it is O(everything), never call it on a hot path.
 *
 *   - each book is consistent and not crossed
 *   - funds are conserved per asset and no balance is negative (Ledger.checkInvariants)
 *   - per account and asset, locked == Σ what the open orders hold, and each open order holds exactly
 *     price·remaining (buy, in quote) or remaining (sell, in base)
 *   - order status agrees with executed quantity, book presence and reservation
 *   - fills never happen at a price worse than the order's limit
 *   - open-order indexes (by id, by client id) agree with the books; the open-order cap holds
 *
 * The locked-funds rule assumes the spot venue is the only user of `locked` in its ledger.
 */
import type { Ledger } from '../ledger/ledger.js';
import type { SpotMarket } from './spot-market.js';
import { isOpenStatus, type SpotOrder } from './spot-order.js';
import type { SpotAccountState } from './spot-venue.js';

export interface SpotVenueState {
  readonly markets: ReadonlyMap<string, SpotMarket>;
  readonly accounts: ReadonlyMap<string, SpotAccountState>;
  readonly orders: { get(seq: number): SpotOrder | undefined; values(): IterableIterator<SpotOrder> };
  readonly ledger: Ledger;
  readonly maxOpenOrdersPerAccount: number;
}

export function checkSpotVenueInvariants(s: SpotVenueState): string[] {
  const problems: string[] = [];
  for (const [symbol, m] of s.markets) for (const p of m.book.checkInvariants()) problems.push(`${symbol}: ${p}`);
  problems.push(...s.ledger.checkInvariants());

  const expectedLocked = new Map<string, bigint>();
  const addLocked = (account: string, asset: string, units: bigint) => {
    const k = `${account}\u0000${asset}`;
    expectedLocked.set(k, (expectedLocked.get(k) ?? 0n) + units);
  };

  for (const o of s.orders.values()) {
    const m = s.markets.get(o.symbol);
    if (!m) {
      problems.push(`order ${o.orderId} on unknown symbol ${o.symbol}`);
      continue;
    }
    problems.push(...checkOrder(o, m, s.accounts.get(o.accountId)));
    if (isOpenStatus(o.status)) addLocked(o.accountId, o.side === 'BUY' ? m.quoteAsset : m.baseAsset, o.lockedUnits);
  }

  for (const [accountId, acct] of s.accounts) {
    if (acct.open.size > s.maxOpenOrdersPerAccount)
      problems.push(`${accountId} has ${acct.open.size} open orders (cap ${s.maxOpenOrdersPerAccount})`);
    let withClientId = 0;
    for (const o of acct.open.values()) {
      if (!isOpenStatus(o.status)) problems.push(`${accountId}: order ${o.orderId} listed open but ${o.status}`);
      if (s.orders.get(o.seq) !== o) problems.push(`${accountId}: open order ${o.orderId} missing from the order index`);
      if (o.clientOrderId !== undefined) {
        withClientId++;
        if (acct.openByClientId.get(o.clientOrderId) !== o)
          problems.push(`${accountId}: client id ${o.clientOrderId} does not point at open order ${o.orderId}`);
      }
    }
    if (acct.openByClientId.size !== withClientId)
      problems.push(`${accountId}: ${acct.openByClientId.size} open client ids for ${withClientId} open orders with one`);
    for (const [asset, b] of s.ledger.balancesOf(accountId)) {
      const want = expectedLocked.get(`${accountId}\u0000${asset}`) ?? 0n;
      if (b.locked !== want) problems.push(`${accountId} ${asset}: locked ${b.locked} but open orders hold ${want}`);
      expectedLocked.delete(`${accountId}\u0000${asset}`);
    }
  }
  for (const [k, v] of expectedLocked)
    if (v !== 0n) problems.push(`${k.replace('\u0000', ' ')}: open orders hold ${v} the ledger does not show`);

  for (const [symbol, m] of s.markets) {
    for (const bo of m.book.orders()) {
      const o = bo.data;
      if (!o || o.seq !== bo.id) {
        problems.push(`${symbol}: book order ${bo.id} carries no matching venue order`);
        continue;
      }
      if (!isOpenStatus(o.status) || !o.isWorking) problems.push(`${symbol}: book order ${bo.id} is ${o.status}`);
      if (s.accounts.get(o.accountId)?.open.get(o.seq) !== o)
        problems.push(`${symbol}: book order ${bo.id} is not among its account's open orders`);
    }
  }
  return problems;
}

function checkOrder(o: SpotOrder, m: SpotMarket, acct: SpotAccountState | undefined): string[] {
  const p: string[] = [];
  const id = `order ${o.orderId} (${o.status})`;
  const remaining = o.origLots - o.executedLots;
  const onBook = m.book.get(o.seq);
  if (o.executedLots < 0 || (!o.byQuote && o.executedLots > o.origLots)) p.push(`${id}: executed ${o.executedLots} of ${o.origLots}`);
  if (o.cumQuoteUnits % m.quoteUnitsPerTickLot !== 0n) p.push(`${id}: cumulative quote ${o.cumQuoteUnits} is not whole tick-lots`);
  if (o.executedLots === 0 && o.cumQuoteUnits !== 0n) p.push(`${id}: quote ${o.cumQuoteUnits} without fills`);
  if (o.priceTicks > 0 && o.executedLots > 0) {
    const atLimit = BigInt(o.priceTicks) * BigInt(o.executedLots) * m.quoteUnitsPerTickLot;
    if (o.side === 'BUY' ? o.cumQuoteUnits > atLimit : o.cumQuoteUnits < atLimit) p.push(`${id}: filled worse than its limit`);
  }
  switch (o.status) {
    case 'NEW':
    case 'PARTIALLY_FILLED': {
      if ((o.status === 'NEW') !== (o.executedLots === 0)) p.push(`${id}: executed ${o.executedLots}`);
      if (remaining <= 0) p.push(`${id}: open with nothing remaining`);
      if (!o.isWorking || !onBook || onBook.data !== o) p.push(`${id}: open but not on the book`);
      else if (o.bookOrder !== onBook) p.push(`${id}: keeps a stale book handle`);
      else if (onBook.lots !== remaining) p.push(`${id}: book holds ${onBook.lots} lots, ${remaining} remain`);
      const want =
        o.side === 'BUY' ? BigInt(o.priceTicks) * BigInt(remaining) * m.quoteUnitsPerTickLot : BigInt(remaining) * m.baseUnitsPerLot;
      if (o.lockedUnits !== want) p.push(`${id}: holds ${o.lockedUnits}, needs ${want}`);
      if (acct?.open.get(o.seq) !== o) p.push(`${id}: not among its account's open orders`);
      break;
    }
    case 'FILLED':
      if (o.byQuote ? o.executedLots === 0 : remaining !== 0) p.push(`${id}: executed ${o.executedLots} of ${o.origLots}`);
      break;
    case 'CANCELED':
      if (o.executedLots !== 0) p.push(`${id}: executed ${o.executedLots}`);
      break;
    case 'PARTIALLY_CANCELED':
      if (o.executedLots === 0 || (!o.byQuote && remaining <= 0)) p.push(`${id}: executed ${o.executedLots} of ${o.origLots}`);
      break;
  }
  if (!isOpenStatus(o.status)) {
    if (o.lockedUnits !== 0n) p.push(`${id}: closed but holds ${o.lockedUnits}`);
    if (o.isWorking || onBook || o.bookOrder !== null) p.push(`${id}: closed but on the book`);
    if (acct?.open.has(o.seq)) p.push(`${id}: closed but listed open`);
  }
  if (o.status !== 'CANCELED' && o.status !== 'PARTIALLY_CANCELED' && o.cancelReason !== '')
    p.push(`${id}: cancel reason ${o.cancelReason}`);
  return p;
}

/**
 * Each account's `closed` lists every closed order of its history once, in updateTime order unless
 * flagged unsorted (SpotVenue only: the frozen reference venue in test/ keeps no such list).
 */
export function checkClosedOrders(accounts: ReadonlyMap<string, SpotAccountState>): string[] {
  const p: string[] = [];
  for (const [accountId, acct] of accounts) p.push(...checkClosed(accountId, acct));
  return p;
}

function checkClosed(accountId: string, acct: SpotAccountState): string[] {
  const p: string[] = [];
  const inHistory = new Set<SpotOrder>();
  for (const list of acct.history.values()) for (const o of list) if (!isOpenStatus(o.status)) inHistory.add(o);
  const listed = new Set(acct.closed);
  if (listed.size !== acct.closed.length) p.push(`${accountId}: an order is listed closed twice`);
  for (const o of acct.closed)
    if (!inHistory.has(o)) p.push(`${accountId}: order ${o.orderId} listed closed but not a closed order of the history`);
  for (const o of inHistory) if (!listed.has(o)) p.push(`${accountId}: closed order ${o.orderId} missing from the closed list`);
  if (!acct.closedUnsorted)
    for (let i = 1; i < acct.closed.length; i++)
      if (acct.closed[i]!.updateTime < acct.closed[i - 1]!.updateTime) p.push(`${accountId}: closed list out of updateTime order at ${i}`);
  return p;
}
