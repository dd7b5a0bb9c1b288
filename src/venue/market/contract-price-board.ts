/**
 * Index price, fair price and funding of one perpetual, whichever source produces them (synthetic
 * model, replayed recording, live mirror). The emulator serves index_price, fair_price, funding_rate,
 * funding_rate/history and the index / fair candles from here; the contract venue reads the fair
 * price for marking and liquidation and subscribes to settlements.
 */
import { D, Decimal, type DecimalLike } from '../../core/decimal.js';
import { PriceCandleSeries } from './price-candles.js';

export interface PriceView {
  readonly price: Decimal;
  /** ms. */
  readonly time: number;
}

export interface FundingRateView {
  readonly rate: Decimal;
  readonly minRate: Decimal;
  readonly maxRate: Decimal;
  readonly collectCycleHours: number;
  readonly nextSettleTime: number;
  readonly time: number;
}

export interface FundingSettlement {
  readonly symbol: string;
  readonly rate: Decimal;
  readonly settleTime: number;
  readonly collectCycleHours: number;
}

export type SettlementListener = (s: FundingSettlement) => void;

export class ContractPriceBoard {
  readonly indexCandles: PriceCandleSeries;
  readonly fairCandles: PriceCandleSeries;
  private indexView: PriceView | undefined;
  private fairView: PriceView | undefined;
  private fundingView: FundingRateView | undefined;
  /** Oldest first. */
  private readonly history: FundingSettlement[] = [];
  private readonly listeners: SettlementListener[] = [];

  constructor(
    readonly symbol: string,
    /** Resolution of index samples (the index has its own precision, e.g. 0.01 with a 0.1 tick). */
    indexUnit: DecimalLike,
    /** Resolution of fair price samples (the contract's price tick). */
    fairUnit: DecimalLike,
    private readonly historyLimit = 1000,
  ) {
    this.indexCandles = new PriceCandleSeries(indexUnit);
    this.fairCandles = new PriceCandleSeries(fairUnit);
  }

  setIndex(time: number, price: DecimalLike): void {
    this.indexCandles.add(time, price);
    this.indexView = { price: this.indexCandles.last()!, time };
  }

  setFair(time: number, price: DecimalLike): void {
    this.fairCandles.add(time, price);
    this.fairView = { price: this.fairCandles.last()!, time };
  }

  /** Hot-path variants for sources that already hold integer units. */
  setIndexUnits(time: number, units: number): void {
    this.indexCandles.addUnits(time, units);
    this.indexView = { price: this.indexCandles.last()!, time };
  }

  setFairUnits(time: number, units: number): void {
    this.fairCandles.addUnits(time, units);
    this.fairView = { price: this.fairCandles.last()!, time };
  }

  setFunding(view: FundingRateView): void {
    this.fundingView = view;
  }

  settle(rate: DecimalLike, settleTime: number, collectCycleHours: number): void {
    const s: FundingSettlement = { symbol: this.symbol, rate: D(rate), settleTime, collectCycleHours };
    this.history.push(s);
    if (this.history.length > this.historyLimit) this.history.shift();
    for (const l of this.listeners) l(s);
  }

  onSettlement(listener: SettlementListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  index(): PriceView | undefined {
    return this.indexView;
  }

  fair(): PriceView | undefined {
    return this.fairView;
  }

  funding(): FundingRateView | undefined {
    return this.fundingView;
  }

  /** Settled rates, newest first (funding_rate/history pages through this). */
  settlements(): FundingSettlement[] {
    return [...this.history].reverse();
  }
}
