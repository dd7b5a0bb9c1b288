/**
 * Admission of a spot order: the instrument's rules (symbol, side, type, STP mode, shape, size, amount,
 * price band, a LIMIT_MAKER that would take) and what the order will reserve. Pure questions of the
 * market and the book; the account's rules (duplicate client id, open-order cap) and the ledger lock
 * stay with the venue, which runs them in between, so the first failing rule still names the error in
 * the order the real venue appears to check (spot-filters.ts).
 *
 * One SpotAdmission per venue is filled in place for each order: a placement allocates nothing here.
 * A command runs to completion before the next starts (events are delivered after it), so the reuse is safe.
 */
import type { SelfTradeCheck } from '../book/order-book.js';
import {
  checkAmount,
  checkMinLots,
  checkOrderType,
  checkPercentPrice,
  checkSideAllowed,
  checkStpMode,
  checkSymbolTradable,
  typeBit,
} from './spot-filters.js';
import { exactBuyCost, exactBuyTickLots } from './spot-liquidity.js';
import { quoteUnitsOf, type SpotMarket } from './spot-market.js';
import type { SpotOrder } from './spot-order.js';
import { REJECT, type SpotRejection } from './spot-rejections.js';
import { isPositiveInt, type SpotUnitsOrderRequest } from './spot-requests.js';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** What admission worked out of a request, in ticks, lots and ledger units. */
export class SpotAdmission {
  isMarket = false;
  /** A MARKET order sized by quoteOrderQty. */
  byQuote = false;
  priceTicks = 0;
  lots = 0;
  quoteUnits = 0n;
  /** price · lots of a priced order (checked, reserved by a buy, reported as origQuoteOrderQty); NaN past 2^53. */
  tickLots = 0;
  /** price · lots in ledger units, only where tickLots is NaN. */
  notional: bigint | undefined = undefined;
  /** The reservation in counts of the locked asset (tick-lots of quote for a buy, lots of base for a sell) … */
  lockCount = 0;
  /** … or in ledger units where no count expresses it (quoteOrderQty, past 2^53). */
  lockUnits: bigint | undefined = undefined;
  /** A MARKET sell by amount: the lots it will sell (what it reserves and matches). */
  sellQuoteLots = 0;
}

/**
 * The instrument's rules, in the venue's order: symbol → side / type → STP mode → shape → size and
 * amount → price band → LIMIT_MAKER not taking. Fills `a` and returns undefined when the order passes.
 */
export function admitSpotOrder(m: SpotMarket, req: SpotUnitsOrderRequest, scale: number, a: SpotAdmission): SpotRejection | undefined {
  const side = req.side;
  const type = req.type;
  let r: SpotRejection | undefined;
  // The symbol / side / type rules depend on the instrument only: answered once per rules (admits).
  const admitted = side === 'BUY' ? m.admits?.buy : side === 'SELL' ? m.admits?.sell : undefined;
  if (admitted === undefined || (admitted & typeBit(type)) === 0)
    r = checkSymbolTradable(m) ?? checkSideAllowed(m, side) ?? checkOrderType(m, type);
  if (!r && req.stpMode !== undefined && req.stpMode !== '') r = checkStpMode(req.stpMode);
  if (r) return r;

  // ---- shape
  const isMarket = type === 'MARKET';
  a.isMarket = isMarket;
  a.byQuote = false;
  a.priceTicks = 0;
  a.lots = 0;
  a.quoteUnits = 0n;
  a.notional = undefined;
  if (!isMarket) {
    if (req.priceTicks === undefined || !isPositiveInt(req.priceTicks)) return REJECT.mandatory('price');
    if (req.lots === undefined || !isPositiveInt(req.lots)) return REJECT.mandatory('quantity');
    if (req.quoteUnits !== undefined) return REJECT.combination();
    a.priceTicks = req.priceTicks;
    a.lots = req.lots;
  } else {
    const hasQty = req.lots !== undefined;
    const hasQuote = req.quoteUnits !== undefined;
    if (hasQty && hasQuote) return REJECT.combination();
    if (hasQty) {
      if (!isPositiveInt(req.lots!)) return REJECT.mandatory('quantity');
      a.lots = req.lots!;
    } else if (hasQuote) {
      if (req.quoteUnits! <= 0n) return REJECT.mandatory('quoteOrderQty');
      a.quoteUnits = req.quoteUnits!;
      a.byQuote = true;
    } else {
      return REJECT.mandatory('quantity');
    }
  }

  // ---- size, amount, price band
  const { priceTicks, lots } = a;
  let tickLots = isMarket ? 0 : priceTicks * lots;
  if (tickLots > MAX_SAFE) {
    tickLots = NaN;
    a.notional = quoteUnitsOf(m, priceTicks, lots);
  }
  a.tickLots = tickLots;
  if (!a.byQuote) r = checkMinLots(m, lots);
  if (!r) {
    // In tick-lots the limits are exact integer bounds (spot-market.ts); the bigint check only words a rejection.
    if (!isMarket) {
      if (!(tickLots >= m.minTickLots && tickLots <= m.maxTickLots))
        r = checkAmount(a.notional ?? quoteUnitsOf(m, priceTicks, lots), m.minQuoteUnits, m.maxQuoteUnits, scale);
    } else if (a.byQuote) r = checkAmount(a.quoteUnits, m.minQuoteUnitsMarket, m.maxQuoteUnitsMarket, scale);
    else {
      const ref = (side === 'BUY' ? m.book.bestAsk() : m.book.bestBid()) ?? m.lastPriceTicks;
      if (ref !== undefined) {
        const refTickLots = ref * lots;
        if (!(refTickLots <= MAX_SAFE && refTickLots >= m.minTickLotsMarket && refTickLots <= m.maxTickLotsMarket)) {
          r = checkAmount(quoteUnitsOf(m, ref, lots), m.minQuoteUnitsMarket, m.maxQuoteUnitsMarket, scale);
        }
      }
    }
  }
  if (!r && !isMarket) r = checkPercentPrice(m, side, type, priceTicks);
  if (r) return r;
  if (type === 'LIMIT_MAKER' && m.book.wouldCross(side, priceTicks)) return REJECT.wouldTake();
  return undefined;
}

/**
 * What an admitted order reserves: a buy price · qty of quote (a MARKET buy: its quoteOrderQty, or the
 * exact cost of the liquidity it will take), a sell its quantity of base (a MARKET sell by amount: the
 * lots it will sell). Sets a.lockCount, or a.lockUnits where no count expresses it, and a.sellQuoteLots.
 */
export function sizeReservation(
  m: SpotMarket,
  isBuy: boolean,
  a: SpotAdmission,
  stpCheck: SelfTradeCheck<SpotOrder, number> | undefined,
): void {
  a.lockCount = 0;
  a.lockUnits = undefined;
  a.sellQuoteLots = 0;
  if (isBuy) {
    if (!a.isMarket) {
      if (a.notional === undefined) a.lockCount = a.tickLots;
      else a.lockUnits = a.notional;
    } else if (a.byQuote) a.lockUnits = a.quoteUnits;
    else {
      a.lockCount = exactBuyTickLots(m, a.lots, stpCheck);
      if (!(a.lockCount <= MAX_SAFE)) {
        a.lockCount = 0;
        a.lockUnits = exactBuyCost(m, a.lots, stpCheck);
      }
    }
  } else if (a.byQuote) {
    a.sellQuoteLots = m.book.previewMatch('SELL', { lots: Infinity, quoteBudget: a.quoteUnits / m.quoteUnitsPerTickLot }, stpCheck).lots;
    a.lockCount = a.sellQuoteLots;
  } else {
    a.lockCount = a.lots;
  }
}
