/**
 * Settling one spot fill between a taker and a resting maker (issue 12: out of SpotVenue.settle): the
 * fees of both sides, the funds they move, both orders, both own-trade records, the trade tick and
 * event, and the maker's new status. Called once per fill, from OrderBook.sweep or after a match.
 *
 * Numbers. Amounts are counts — lots of base for the buyer, tick-lots of quote for the seller — times
 * a per-count unit when that is exact, and plain bigint units otherwise. Past 2^53 a count is inexact
 * and fails every `≤` test, which sends the fill down the bigint path: the same result, slower.
 * The fee of a fill is worked out into one reused record (no allocation per fill on the hot path).
 */
import { feeOn } from '../ledger/fee-rate.js';
import { MAX_GRAINS, type GrainSettlement, type Ledger, type LedgerAccount } from '../ledger/ledger.js';
import { unitsToDecimal } from '../ledger/ledger-units.js';
import type { EventQueue } from '../event-queue.js';
import type { CounterIds } from './counter-ids.js';
import type { SpotTradeTick, SpotVenueEvent } from './spot-events.js';
import { priceOf, qtyOf, quoteOf, quoteUnitsOf, type FeeSteps, type SpotMarket } from './spot-market.js';
import type { SpotOrder, SpotOrderView } from './spot-order.js';
import type { OwnTradeLog } from './own-trade-log.js';
import type { SpotAccountState, SpotFeePayer } from './spot-venue.js';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** What settling needs from the venue, which owns the accounts, the own-trade logs and the event queues. */
export interface SettlementHost {
  readonly ledger: Ledger;
  readonly tradeIds: CounterIds;
  readonly events: EventQueue<SpotVenueEvent>;
  readonly ticks: EventQueue<SpotTradeTick>;
  /** The fee payer now (the venue's can be replaced at any time). */
  feePayer(): SpotFeePayer | undefined;
  /** The fee steps of an account's maker or taker rate on a market. */
  steps(acct: SpotAccountState, m: SpotMarket, maker: boolean): FeeSteps;
  tradesOf(acct: SpotAccountState, symbol: string): OwnTradeLog;
  /** Counts one more trade (the venue's stats). */
  countTrade(): void;
  orderView(order: SpotOrder): SpotOrderView;
  /** The maker has no lots left: off its account's open orders and FILLED. */
  makerFilled(m: SpotMarket, maker: SpotOrder): void;
}

/**
 * The fees of one fill: in kind as count · `per` when exact (per > 0n), else as `rest` units; `asset`
 * is the asset it is paid in (another one when the fee payer took it elsewhere).
 */
interface FillFees {
  buyerPer: bigint;
  buyerRest: bigint;
  buyerAsset: string;
  sellerPer: bigint;
  sellerRest: bigint;
  sellerAsset: string;
}

export class SpotSettlement {
  /** One settlement record reused by every fast fill. */
  private readonly grainFill: GrainSettlement;
  private readonly fees: FillFees = { buyerPer: 0n, buyerRest: 0n, buyerAsset: '', sellerPer: 0n, sellerRest: 0n, sellerAsset: '' };

  constructor(private readonly host: SettlementHost) {
    // Placeholder handles until the first fast fill fills them in (not an account of the ledger).
    const none: LedgerAccount = { id: '', slots: new Map() };
    this.grainFill = {
      buyer: none,
      seller: none,
      baseAsset: '',
      quoteAsset: '',
      base: 0,
      quote: 0,
      buyerLockedQuote: 0,
      buyerFee: 0,
      sellerFee: 0,
    };
  }

  /** One fill between the taker and a resting maker: ledger, both orders, own trades, events. */
  settle(m: SpotMarket, taker: SpotOrder, maker: SpotOrder, price: number, lots: number, makerDone: boolean, now: number): void {
    const takerBuys = taker.side === 'BUY';
    const buyer = takerBuys ? taker : maker;
    const seller = takerBuys ? maker : taker;
    const takerSteps = this.host.steps(taker.acct, m, false);
    const makerSteps = this.host.steps(maker.acct, m, true);
    const buyerSteps = takerBuys ? takerSteps : makerSteps;
    const sellerSteps = takerBuys ? makerSteps : takerSteps;
    // In tick-lots: the quote paid, and what the buyer gives up of its reservation (a priced buyer
    // reserved at its limit, a market buyer the cost).
    const tickLots = price * lots;
    const lockedTickLots = buyer.priceTicks > 0 ? buyer.priceTicks * lots : tickLots;
    const fees = this.feesOf(m, buyer, seller, price, lots, tickLots, buyerSteps, sellerSteps);
    this.moveFunds(m, buyer, seller, price, lots, tickLots, lockedTickLots, buyerSteps, sellerSteps, fees);
    this.advanceOrders(m, taker, maker, buyer, seller, price, lots, tickLots, lockedTickLots, now);
    this.record(m, taker, maker, price, lots, tickLots, now, fees);
    if (makerDone) {
      this.host.makerFilled(m, maker);
    } else {
      maker.status = 'PARTIALLY_FILLED';
      const events = this.host.events;
      if (events.active) events.push({ type: 'orderPartiallyFilled', time: now, order: this.host.orderView(maker) });
    }
  }

  /** Both sides' fees, into the reused record. (The buyer's count, lots, is always exact; the seller's may not be.) */
  private feesOf(
    m: SpotMarket,
    buyer: SpotOrder,
    seller: SpotOrder,
    price: number,
    lots: number,
    tickLots: number,
    buyerSteps: FeeSteps,
    sellerSteps: FeeSteps,
  ): FillFees {
    const f = this.fees;
    f.buyerPer = buyerSteps.perLot ?? 0n;
    f.buyerRest = buyerSteps.perLot === undefined ? feeOn(BigInt(lots) * m.baseUnitsPerLot, buyerSteps.rate) : 0n;
    f.buyerAsset = m.baseAsset;
    f.sellerPer = sellerSteps.perTickLot ?? 0n;
    f.sellerRest = sellerSteps.perTickLot === undefined ? feeOn(quoteUnitsOf(m, price, lots), sellerSteps.rate) : 0n;
    f.sellerAsset = m.quoteAsset;
    if (f.sellerPer > 0n && !(tickLots <= MAX_SAFE)) {
      f.sellerRest = BigInt(price) * BigInt(lots) * f.sellerPer;
      f.sellerPer = 0n;
    }
    // Paid in another asset (platform token): charged from free funds now, so the side receives in full.
    const payer = this.host.feePayer();
    if (payer !== undefined) {
      const buyerAlt = this.payElsewhere(
        payer,
        buyer.accountId,
        m.symbol,
        m.baseAsset,
        f.buyerPer > 0n ? BigInt(lots) * f.buyerPer : f.buyerRest,
      );
      if (buyerAlt) {
        f.buyerPer = 0n;
        f.buyerRest = buyerAlt.units;
        f.buyerAsset = buyerAlt.asset;
      }
      const sellerAlt = this.payElsewhere(
        payer,
        seller.accountId,
        m.symbol,
        m.quoteAsset,
        f.sellerPer > 0n ? BigInt(tickLots) * f.sellerPer : f.sellerRest,
      );
      if (sellerAlt) {
        f.sellerPer = 0n;
        f.sellerRest = sellerAlt.units;
        f.sellerAsset = sellerAlt.asset;
      }
    }
    return f;
  }

  /** The fee charged in another asset, when the fee payer asks for it and the account's free balance covers it. */
  private payElsewhere(
    payer: SpotFeePayer,
    accountId: string,
    symbol: string,
    feeAsset: string,
    feeUnits: bigint,
  ): { asset: string; units: bigint } | undefined {
    if (feeUnits === 0n) return undefined;
    const ledger = this.host.ledger;
    const alt = payer.alternative(accountId, symbol, feeAsset, feeUnits, ledger.scale);
    if (alt === undefined || alt.asset === feeAsset || alt.units <= 0n) return undefined;
    return ledger.chargeFee(accountId, alt.asset, alt.units) ? { asset: alt.asset, units: alt.units } : undefined;
  }

  /** The ledger: grains when every amount fits, else bigint units (same result). */
  private moveFunds(
    m: SpotMarket,
    buyer: SpotOrder,
    seller: SpotOrder,
    price: number,
    lots: number,
    tickLots: number,
    lockedTickLots: number,
    buyerSteps: FeeSteps,
    sellerSteps: FeeSteps,
    f: FillFees,
  ): void {
    const buyerFeeInKind = f.buyerAsset === m.baseAsset;
    const sellerFeeInKind = f.sellerAsset === m.quoteAsset;
    const bm = m.baseMeasure;
    const qm = m.quoteMeasure;
    if (bm !== undefined && qm !== undefined) {
      const g = this.grainFill;
      g.base = lots * bm.grains;
      g.quote = tickLots * qm.grains;
      g.buyerLockedQuote = lockedTickLots * qm.grains;
      g.buyerFee = !buyerFeeInKind ? 0 : f.buyerPer > 0n ? lots * (buyerSteps.perLotMeasure?.grains ?? NaN) : f.buyerRest === 0n ? 0 : NaN;
      g.sellerFee = !sellerFeeInKind
        ? 0
        : f.sellerPer > 0n
          ? tickLots * (sellerSteps.perTickLotMeasure?.grains ?? NaN)
          : f.sellerRest === 0n
            ? 0
            : NaN;
      if (
        g.base <= MAX_GRAINS &&
        g.quote <= MAX_GRAINS &&
        g.buyerLockedQuote <= MAX_GRAINS &&
        g.buyerFee <= MAX_GRAINS &&
        g.sellerFee <= MAX_GRAINS
      ) {
        g.buyer = buyer.acct.ledger;
        g.seller = seller.acct.ledger;
        g.baseAsset = m.baseAsset;
        g.quoteAsset = m.quoteAsset;
        this.host.ledger.settleGrains(g);
        return;
      }
    }
    const quoteUnits = quoteUnitsOf(m, price, lots);
    this.host.ledger.settleTrade({
      buyer: buyer.accountId,
      seller: seller.accountId,
      baseAsset: m.baseAsset,
      quoteAsset: m.quoteAsset,
      baseUnits: BigInt(lots) * m.baseUnitsPerLot,
      quoteUnits,
      buyerLockedQuote: buyer.priceTicks > 0 ? quoteUnitsOf(m, buyer.priceTicks, lots) : quoteUnits,
      buyerFee: !buyerFeeInKind ? 0n : f.buyerPer > 0n ? BigInt(lots) * f.buyerPer : f.buyerRest,
      sellerFee: !sellerFeeInKind ? 0n : f.sellerPer > 0n ? BigInt(tickLots) * f.sellerPer : f.sellerRest,
    });
  }

  /** Both orders: reservations given up, executed lots and cumulative quote, times; the market's last price. */
  private advanceOrders(
    m: SpotMarket,
    taker: SpotOrder,
    maker: SpotOrder,
    buyer: SpotOrder,
    seller: SpotOrder,
    price: number,
    lots: number,
    tickLots: number,
    lockedTickLots: number,
    now: number,
  ): void {
    if (lockedTickLots <= MAX_SAFE) buyer.unlockCounts(lockedTickLots);
    else buyer.unlockUnits(quoteUnitsOf(m, buyer.priceTicks > 0 ? buyer.priceTicks : price, lots));
    seller.unlockCounts(lots);
    taker.executedLots += lots;
    maker.executedLots += lots;
    if (tickLots <= MAX_SAFE) {
      taker.addCum(tickLots);
      maker.addCum(tickLots);
    } else {
      const exact = BigInt(price) * BigInt(lots);
      taker.addCumBig(exact);
      maker.addCumBig(exact);
    }
    taker.updateTime = now;
    maker.updateTime = now;
    m.lastPriceTicks = price;
  }

  /** Both own-trade records, the trade tick and the trade event (the count of a fee in kind: lots for the buyer, tick-lots for the seller). */
  private record(
    m: SpotMarket,
    taker: SpotOrder,
    maker: SpotOrder,
    price: number,
    lots: number,
    tickLots: number,
    now: number,
    f: FillFees,
  ): void {
    const host = this.host;
    const tradeSeq = host.tradeIds.nextSeq();
    host.countTrade();
    const takerBuys = taker.side === 'BUY';
    const isSelfTrade = taker.accountId === maker.accountId;
    const buyerFeeCount = f.buyerPer > 0n ? lots : 0;
    const sellerFeeCount = f.sellerPer > 0n ? tickLots : 0;
    const makerTrades = host.tradesOf(maker.acct, m.symbol);
    if (takerBuys) {
      makerTrades.push(maker, tradeSeq, price, lots, sellerFeeCount, f.sellerPer, f.sellerRest, f.sellerAsset, true, isSelfTrade, now);
      host
        .tradesOf(taker.acct, m.symbol)
        .push(taker, tradeSeq, price, lots, buyerFeeCount, f.buyerPer, f.buyerRest, f.buyerAsset, false, isSelfTrade, now);
    } else {
      makerTrades.push(maker, tradeSeq, price, lots, buyerFeeCount, f.buyerPer, f.buyerRest, f.buyerAsset, true, isSelfTrade, now);
      host
        .tradesOf(taker.acct, m.symbol)
        .push(taker, tradeSeq, price, lots, sellerFeeCount, f.sellerPer, f.sellerRest, f.sellerAsset, false, isSelfTrade, now);
    }

    if (host.ticks.active) {
      host.ticks.push({
        symbol: m.symbol,
        tradeId: host.tradeIds.format(tradeSeq),
        time: now,
        priceTicks: price,
        lots,
        takerSide: taker.side,
        takerOrderId: taker.orderId,
        makerOrderId: maker.orderId,
        takerAccountId: taker.accountId,
        makerAccountId: maker.accountId,
        isSelfTrade,
      });
    }
    if (host.events.active) {
      const scale = host.ledger.scale;
      const buyerFee = f.buyerPer > 0n ? BigInt(buyerFeeCount) * f.buyerPer : f.buyerRest;
      const sellerFee = f.sellerPer > 0n ? BigInt(sellerFeeCount) * f.sellerPer : f.sellerRest;
      host.events.push({
        type: 'trade',
        time: now,
        symbol: m.symbol,
        tradeId: host.tradeIds.format(tradeSeq),
        priceTicks: price,
        lots,
        price: priceOf(m, price),
        qty: qtyOf(m, lots),
        quoteQty: tickLots <= MAX_SAFE ? quoteOf(m, tickLots, scale) : unitsToDecimal(quoteUnitsOf(m, price, lots), scale),
        takerSide: taker.side,
        isBuyerMaker: !takerBuys,
        takerAccountId: taker.accountId,
        makerAccountId: maker.accountId,
        takerOrderId: taker.orderId,
        makerOrderId: maker.orderId,
        takerCommission: unitsToDecimal(takerBuys ? buyerFee : sellerFee, scale),
        takerCommissionAsset: takerBuys ? f.buyerAsset : f.sellerAsset,
        makerCommission: unitsToDecimal(takerBuys ? sellerFee : buyerFee, scale),
        makerCommissionAsset: takerBuys ? f.sellerAsset : f.buyerAsset,
        isSelfTrade,
      });
    }
  }
}
