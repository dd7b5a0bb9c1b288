/**
 * Funding: the rate, the settlement timers and the settlement itself — every holder pays or receives
 * value × rate (isolated from / to its margin, cross from / to the wallet, shortfalls from the fund),
 * then the liquidation check runs, since paying funding can breach maintenance.
 */
import { D, Decimal, type DecimalLike } from '../../core/decimal.js';
import { OpenType, PositionType } from '../../domain/contract-enums.js';
import { ContractPosition } from './contract-position.js';
import { AccountState, type MarketState } from './contract-state.js';
import type { FundingRecordView } from './contract-views.js';
import { nextFundingTime, positionFunding } from './funding-schedule.js';
import { posKey, pushCapped } from './venue-keys.js';
import { type ContractVenueState } from './contract-venue-state.js';
import type { VenueMoney } from './venue-money.js';
import type { ContractViewBuilder } from './contract-view-builder.js';
import type { LiquidationEngine } from './liquidation-engine.js';

export class FundingSettlement {
  constructor(
    private readonly s: ContractVenueState,
    private readonly money: VenueMoney,
    private readonly views: ContractViewBuilder,
    private readonly liquidation: LiquidationEngine,
  ) {}

  /** Stops the funding timers. */
  dispose(): void {
    for (const m of this.s.markets.values()) {
      this.s.clock.clearTimer(m.fundingTimer);
      m.fundingTimer = undefined;
    }
  }

  /** The rate applied at the next settlement, clamped to [minFundingRate, maxFundingRate]. */
  setFundingRate(symbol: string, rate: DecimalLike): void {
    const m = this.s.requireMarket(symbol);
    const r = D(rate);
    m.fundingRate = Decimal.min(m.maxFundingRate, Decimal.max(m.minFundingRate, r));
  }

  /**
   * Settles funding of one contract now (the timers call this at each settle time). With automatic
   * funding the timer moves to the next settle time after now, so a manual settlement is not repeated.
   */
  settleFunding(symbol: string): readonly FundingRecordView[] {
    const m = this.s.requireMarket(symbol);
    let out: readonly FundingRecordView[] = [];
    this.s.run(() => {
      out = this.settleFundingOf(m);
    });
    if (this.s.autoFunding && m.fundingTimer !== undefined) {
      this.s.clock.clearTimer(m.fundingTimer);
      this.scheduleFunding(m);
    }
    return out;
  }

  scheduleFunding(m: MarketState): void {
    m.fundingTimer = this.s.clock.setTimer(m.nextFundingAt, () => {
      m.fundingTimer = undefined;
      this.s.run(() => this.settleFundingOf(m));
      if (this.s.autoFunding) this.scheduleFunding(m);
    });
  }

  private settleFundingOf(m: MarketState): FundingRecordView[] {
    const now = this.s.clock.now();
    const spec = m.spec;
    const rate = m.fundingRate;
    const mark = this.s.markPrice(m);
    m.fundingHistory.push({ symbol: spec.symbol, fundingRate: rate, settleTime: now, collectCycle: m.collectCycleHours });
    if (m.fundingHistory.length > this.s.historyLimit) m.fundingHistory.shift();
    m.nextFundingAt = nextFundingTime(now, m.fundingIntervalMs);
    const records: FundingRecordView[] = [];
    if (mark === undefined || rate.isZero()) {
      this.s.emit(() => ({ type: 'FundingSettled', time: now, symbol: spec.symbol, rate, fairPrice: mark, records }));
      return records;
    }
    const touched: [AccountState, ContractPosition][] = [];
    for (const acct of [...m.holders]) {
      for (const pt of [PositionType.LONG, PositionType.SHORT]) {
        const pos = acct.positions.get(posKey(spec.symbol, pt));
        if (pos === undefined || pos.holdLots === 0) continue;
        const value = pos.qty.mul(mark);
        const f = positionFunding(pt, value, rate);
        if (f.isZero()) continue;
        const w = acct.wallet(spec.settleCoin);
        pos.holdFee = pos.holdFee.add(f);
        if (f.gt(0)) {
          if (pos.openType === OpenType.ISOLATED && !acct.exempt) pos.im = pos.im.add(f);
          else w.free = w.free.add(f);
        } else {
          const pay = f.neg();
          if (pos.openType === OpenType.ISOLATED && !acct.exempt) {
            const fromIm = Decimal.min(pay, pos.im);
            pos.im = pos.im.sub(fromIm);
            if (pay.gt(fromIm)) {
              const ins = this.s.insuranceWallet(spec.settleCoin);
              ins.free = ins.free.sub(pay.sub(fromIm));
            }
          } else {
            w.free = w.free.sub(pay);
            if (w.free.lt(0) && !acct.exempt) {
              const cut = Decimal.min(w.free.neg(), pos.im);
              pos.im = pos.im.sub(cut);
              w.free = w.free.add(cut);
              if (w.free.lt(0)) this.money.coverShortfall(acct, w, undefined, undefined);
            }
          }
        }
        pos.updateTime = now;
        const rec: FundingRecordView = {
          id: ++this.s.fundingSeq,
          accountId: acct.id,
          symbol: spec.symbol,
          positionId: pos.positionId,
          positionType: pt,
          positionValue: value,
          funding: f,
          rate,
          settleTime: now,
        };
        pushCapped(acct.fundingRecords, rec, this.s.historyLimit);
        records.push(rec);
        touched.push([acct, pos]);
      }
    }
    this.s.emit(() => ({ type: 'FundingSettled', time: now, symbol: spec.symbol, rate, fairPrice: mark, records }));
    for (const [a, p] of touched) this.views.emitPosition(a, p);
    this.liquidation.checkLiquidations(m);
    return records;
  }
}
