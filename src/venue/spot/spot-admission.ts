/**
 * The admission pipeline of a spot placement, in the order the venue applies it: what the instrument's
 * rules allow (symbol, side, type, STP mode), the order's shape (price and quantity, or a quote amount),
 * its size, amount and price band, then — once the account is known to take it — the funds it reserves.
 * Each stage answers the venue's own rejection as a value; nothing here touches a book or a balance
 * except `reserveSpotFunds`, which locks the funds in one step or not at all.
 *
 * Everything is counted as the engine counts it: ticks, lots, tick-lots (price · quantity) and ledger
 * units, with bigint only past 2^53.
 */
import type { SpotSide, SpotStpMode } from '../../domain/spot-enums.js';
import type { SelfTradeCheck } from '../book/order-book.js';
import { MAX_GRAINS, type Ledger, type LedgerAccount } from '../ledger/ledger.js';
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

/** An order the instrument's rules admit, in engine counts. */
export interface SpotOrderShape {
  readonly ok: true;
  readonly isMarket: boolean;
  /** 0 for a market order. */
  readonly priceTicks: number;
  /** 0 for a market order by quote amount. */
  readonly lots: number;
  /** The quote amount of a market order by amount (quoteOrderQty), in ledger units; else 0n. */
  readonly quoteUnits: bigint;
  readonly byQuote: boolean;
  /** price · qty of a priced order in tick-lots; NaN past 2^53, where `notional` holds it in units. */
  readonly tickLots: number;
  readonly notional: bigint | undefined;
}

/** The instrument's rules, the order's shape, its size, amount and price band: the checks that need no account. */
export function admitSpotOrder(m: SpotMarket, req: SpotUnitsOrderRequest, ledgerScale: number): SpotOrderShape | SpotRejection {
  const side = req.side;
  const type = req.type;
  const stpMode: SpotStpMode = req.stpMode ?? '';
  let r: SpotRejection | undefined;
  // The symbol / side / type rules depend on the instrument only: answered once per rules (admits).
  const admitted = side === 'BUY' ? m.admits?.buy : side === 'SELL' ? m.admits?.sell : undefined;
  if (admitted === undefined || (admitted & typeBit(type)) === 0)
    r = checkSymbolTradable(m) ?? checkSideAllowed(m, side) ?? checkOrderType(m, type);
  if (!r && stpMode !== '') r = checkStpMode(stpMode);
  if (r) return r;

  // ---- shape
  const isMarket = type === 'MARKET';
  let priceTicks = 0;
  let lots = 0;
  let quoteUnits = 0n;
  let byQuote = false;
  if (!isMarket) {
    if (req.priceTicks === undefined || !isPositiveInt(req.priceTicks)) return REJECT.mandatory('price');
    if (req.lots === undefined || !isPositiveInt(req.lots)) return REJECT.mandatory('quantity');
    if (req.quoteUnits !== undefined) return REJECT.combination();
    priceTicks = req.priceTicks;
    lots = req.lots;
  } else {
    const hasQty = req.lots !== undefined;
    const hasQuote = req.quoteUnits !== undefined;
    if (hasQty && hasQuote) return REJECT.combination();
    if (hasQty) {
      if (!isPositiveInt(req.lots!)) return REJECT.mandatory('quantity');
      lots = req.lots!;
    } else if (hasQuote) {
      if (req.quoteUnits! <= 0n) return REJECT.mandatory('quoteOrderQty');
      quoteUnits = req.quoteUnits!;
      byQuote = true;
    } else {
      return REJECT.mandatory('quantity');
    }
  }

  // ---- size, amount, price band
  const book = m.book;
  let tickLots = isMarket ? 0 : priceTicks * lots;
  let notional: bigint | undefined;
  if (tickLots > MAX_SAFE) {
    tickLots = NaN;
    notional = quoteUnitsOf(m, priceTicks, lots);
  }
  if (!byQuote) r = checkMinLots(m, lots);
  if (!r) {
    // In tick-lots the limits are exact integer bounds (spot-market.ts); the bigint check only words a rejection.
    if (!isMarket) {
      if (!(tickLots >= m.minTickLots && tickLots <= m.maxTickLots))
        r = checkAmount(notional ?? quoteUnitsOf(m, priceTicks, lots), m.minQuoteUnits, m.maxQuoteUnits, ledgerScale);
    } else if (byQuote) r = checkAmount(quoteUnits, m.minQuoteUnitsMarket, m.maxQuoteUnitsMarket, ledgerScale);
    else {
      const ref = (side === 'BUY' ? book.bestAsk() : book.bestBid()) ?? m.lastPriceTicks;
      if (ref !== undefined) {
        const refTickLots = ref * lots;
        if (!(refTickLots <= MAX_SAFE && refTickLots >= m.minTickLotsMarket && refTickLots <= m.maxTickLotsMarket)) {
          r = checkAmount(quoteUnitsOf(m, ref, lots), m.minQuoteUnitsMarket, m.maxQuoteUnitsMarket, ledgerScale);
        }
      }
    }
  }
  if (!r && !isMarket) r = checkPercentPrice(m, side, type, priceTicks);
  if (r) return r;
  if (type === 'LIMIT_MAKER' && book.wouldCross(side, priceTicks)) return REJECT.wouldTake();
  return { ok: true, isMarket, priceTicks, lots, quoteUnits, byQuote, tickLots, notional };
}

/** What an accepted order holds: counts of its side (tick-lots of quote for a buy, lots of base for a sell), or units. */
export interface SpotReservation {
  readonly ok: true;
  readonly lockCount: number;
  /** Set when no count expresses it (quoteOrderQty, past 2^53): the lock in ledger units. */
  readonly lockUnits: bigint | undefined;
  /** A sell by quote amount: the lots the book would take for that amount now. */
  readonly sellQuoteLots: number;
}

/** Locks what the order reserves, all or nothing; insufficient balance (buy) or oversold (sell) otherwise. */
export function reserveSpotFunds(
  ledger: Ledger,
  account: { readonly id: string; readonly ledger: LedgerAccount },
  m: SpotMarket,
  side: SpotSide,
  shape: SpotOrderShape,
  stpCheck: SelfTradeCheck<SpotOrder, number> | undefined,
): SpotReservation | SpotRejection {
  const isBuy = side === 'BUY';
  const { isMarket, byQuote, lots, quoteUnits } = shape;
  let lockCount = 0;
  let lockUnits: bigint | undefined;
  let sellQuoteLots = 0;
  if (isBuy) {
    if (!isMarket) {
      if (shape.notional === undefined) lockCount = shape.tickLots;
      else lockUnits = shape.notional;
    } else if (byQuote) lockUnits = quoteUnits;
    else {
      lockCount = exactBuyTickLots(m, lots, stpCheck);
      if (!(lockCount <= MAX_SAFE)) {
        lockCount = 0;
        lockUnits = exactBuyCost(m, lots, stpCheck);
      }
    }
  } else if (byQuote) {
    sellQuoteLots = m.book.previewMatch('SELL', { lots: Infinity, quoteBudget: quoteUnits / m.quoteUnitsPerTickLot }, stpCheck).lots;
    lockCount = sellQuoteLots;
  } else {
    lockCount = lots;
  }
  const lockAsset = isBuy ? m.quoteAsset : m.baseAsset;
  let locked: boolean;
  if (lockUnits === undefined) {
    const grains = lockCount * ((isBuy ? m.quoteMeasure : m.baseMeasure)?.grains ?? NaN);
    locked =
      grains <= MAX_GRAINS
        ? ledger.lockGrains(account.ledger, lockAsset, grains)
        : ledger.lock(account.id, lockAsset, BigInt(lockCount) * (isBuy ? m.quoteUnitsPerTickLot : m.baseUnitsPerLot));
  } else {
    locked = ledger.lock(account.id, lockAsset, lockUnits);
  }
  if (!locked) return isBuy ? REJECT.insufficientBalance() : REJECT.oversold();
  return { ok: true, lockCount, lockUnits, sellQuoteLots };
}
