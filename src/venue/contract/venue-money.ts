/**
 * The contract venue's money rules: fee rates, the margin an order reserves, what an account can still
 * use (free less cross unrealised loss), shortfall cover from the insurance fund, and deposits and
 * withdrawals. Decimal in the settle coin; initial margin rounds up when reserved, down when booked.
 */
import { D, Decimal, type DecimalLike } from '../../core/decimal.js';
import { OpenType } from '../../domain/contract-enums.js';
import { ContractVenueCode } from './contract-codes.js';
import { ContractPosition } from './contract-position.js';
import type { VenueResult } from './contract-requests.js';
import { ContractSpec } from './contract-spec.js';
import { AccountState, ZERO, type OrderState, type Wallet } from './contract-state.js';
import type { TransferRecordView } from './contract-views.js';
import { initialMargin, unrealisedPnl } from './margin-math.js';
import { crossMargin, type CrossMargin } from './liquidation-rules.js';
import { pushCapped } from './venue-keys.js';
import { refuse, INSURANCE_ACCOUNT_ID, type ContractVenueState, type FeeRates } from './contract-venue-state.js';

export class VenueMoney {
  constructor(private readonly s: ContractVenueState) {}

  rates(acct: AccountState, spec: ContractSpec): FeeRates & { reserve: Decimal } {
    if (this.s.feeRatesOf === undefined) {
      let r = this.s.defaultRates.get(spec);
      if (r === undefined) {
        const { makerFeeRate: maker, takerFeeRate: taker } = spec.instrument;
        r = { maker, taker, reserve: Decimal.max(maker, taker, ZERO) };
        this.s.defaultRates.set(spec, r);
      }
      return r;
    }
    const r = this.s.feeRatesOf(acct.id, spec.instrument);
    return { maker: r.maker, taker: r.taker, reserve: Decimal.max(r.maker, r.taker, ZERO) };
  }

  /** Margin + fee of the taker part, from the previewed tick·lots (what the fills will book at most). */
  takerReserve(spec: ContractSpec, quote: number, leverage: number, takerRate: Decimal): Decimal {
    if (quote === 0) return ZERO;
    const notional = spec.money(quote);
    return initialMargin(notional, leverage, this.s.scale, 'ceil').add(notional.mul(Decimal.max(takerRate, ZERO)));
  }

  restingReserve(spec: ContractSpec, ticks: number, lots: number, leverage: number, rates: { reserve: Decimal }): Decimal {
    if (lots <= 0) return ZERO;
    const notional = spec.money(BigInt(ticks) * BigInt(lots));
    return initialMargin(notional, leverage, this.s.scale, 'ceil').add(notional.mul(rates.reserve));
  }

  /** Order margin of `remaining` lots resting at the order's price: ceil(notional/L) + notional·max fee rate. */
  orderMargin(o: OrderState, remaining: number): Decimal {
    return this.orderMarginAt(o, remaining, o.leverage);
  }

  orderMarginAt(o: OrderState, remaining: number, leverage: number): Decimal {
    if (o.closing || remaining <= 0) return ZERO;
    return this.restingReserve(o.market.spec, o.priceTicks, remaining, leverage, this.rates(o.account, o.market.spec));
  }

  private crossUnrealised(acct: AccountState, currency: string): Decimal {
    let sum = ZERO;
    for (const p of acct.positions.values()) {
      if (p.openType !== OpenType.CROSS || p.spec.settleCoin !== currency) continue;
      const mark = this.s.markPrice(this.s.markets.get(p.spec.symbol)!);
      if (mark) sum = sum.add(unrealisedPnl(p.figures(), mark));
    }
    return sum;
  }

  /** What new orders, margin additions and withdrawals can use: free less any cross unrealised loss. */
  availableOpen(acct: AccountState, currency: string): Decimal {
    const w = acct.wallets.get(currency);
    if (w === undefined) return ZERO;
    return Decimal.max(ZERO, w.free.add(Decimal.min(ZERO, this.crossUnrealised(acct, currency))));
  }

  /**
   * A wallet went below zero while booking (rounding, or a one-way order whose close leg lost more
   * than expected): take it back from the margin just booked, then from the insurance fund.
   */
  coverShortfall(acct: AccountState, w: Wallet, pos: ContractPosition | undefined, bookedIm: Decimal | undefined, o?: OrderState): void {
    if (acct.exempt || !w.free.lt(0)) return;
    this.s.shortfalls++;
    let need = w.free.neg();
    if (pos && bookedIm && bookedIm.gt(0)) {
      const cut = Decimal.min(need, bookedIm, pos.im);
      pos.im = pos.im.sub(cut);
      pos.oim = Decimal.max(ZERO, pos.oim.sub(cut));
      if (o) o.usedMargin = o.usedMargin.sub(cut);
      w.free = w.free.add(cut);
      need = need.sub(cut);
    }
    if (need.gt(0)) {
      const ins = this.s.insuranceWallet(w.currency);
      ins.free = ins.free.sub(need);
      w.free = w.free.add(need);
    }
  }

  unfreeze(o: OrderState): void {
    if (o.frozen.isZero()) return;
    const w = o.account.wallet(o.market.spec.settleCoin);
    w.frozen = w.frozen.sub(o.frozen);
    w.free = w.free.add(o.frozen);
    o.frozen = ZERO;
  }

  crossOf(acct: AccountState, currency: string): CrossMargin {
    const w = acct.wallets.get(currency);
    const positions = [...acct.positions.values()].filter((p) => p.openType === OpenType.CROSS && p.spec.settleCoin === currency);
    return crossMargin(
      positions,
      w?.free ?? ZERO,
      w?.frozen ?? ZERO,
      (p) => this.s.markPrice(this.s.markets.get(p.spec.symbol)!) ?? p.holdAvgPrice(),
      (p) => this.s.tierOf(p.spec, p.holdLots).mmr,
    );
  }

  private recordTransfer(acct: AccountState, currency: string, amount: Decimal, type: 'IN' | 'OUT'): TransferRecordView {
    const now = this.s.clock.now();
    const rec: TransferRecordView = {
      id: ++this.s.transferSeq,
      accountId: acct.id,
      currency,
      amount,
      type,
      state: 'SUCCESS',
      createTime: now,
      updateTime: now,
    };
    pushCapped(acct.transfers, rec, this.s.historyLimit);
    this.s.emit(() => ({ type: 'FundsTransferred', time: now, transfer: rec }));
    return rec;
  }

  deposit(id: string, currency: string, amount: DecimalLike): VenueResult<TransferRecordView> {
    const a = D(amount);
    if (!a.gt(0)) return refuse(ContractVenueCode.PARAMETER, 'amount must be > 0');
    if (id === INSURANCE_ACCOUNT_ID) return refuse(ContractVenueCode.PARAMETER, 'the insurance fund takes no deposits');
    let rec: TransferRecordView | undefined;
    this.s.run(() => {
      const acct = this.s.account(id);
      acct.wallet(currency).free = acct.wallet(currency).free.add(a);
      acct.netDeposits.set(currency, (acct.netDeposits.get(currency) ?? ZERO).add(a));
      rec = this.recordTransfer(acct, currency, a, 'IN');
    });
    return { ok: true, value: rec! };
  }

  withdraw(id: string, currency: string, amount: DecimalLike): VenueResult<TransferRecordView> {
    const a = D(amount);
    if (!a.gt(0)) return refuse(ContractVenueCode.PARAMETER, 'amount must be > 0');
    const acct = this.s.accounts.get(id);
    if (acct === undefined || acct.exempt) return refuse(ContractVenueCode.BALANCE_INSUFFICIENT, 'insufficient balance');
    if (a.gt(this.availableOpen(acct, currency))) return refuse(ContractVenueCode.BALANCE_INSUFFICIENT, 'insufficient balance');
    let rec: TransferRecordView | undefined;
    this.s.run(() => {
      const w = acct.wallet(currency);
      w.free = w.free.sub(a);
      acct.netDeposits.set(currency, (acct.netDeposits.get(currency) ?? ZERO).sub(a));
      rec = this.recordTransfer(acct, currency, a, 'OUT');
    });
    return { ok: true, value: rec! };
  }
}
