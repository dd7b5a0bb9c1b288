/**
 * Spot fee deduction with the platform token (spot-api.md §4.3, "platformDeduct"). When an account has
 * it switched on, the fee of each fill is charged in the platform token instead of being taken from
 * what the side receives, at a discount, provided the account's FREE token balance covers it (the
 * venue falls back to the fee in kind otherwise, see SpotFeePayer).
 *
 * Discount chosen: 20 % (the real venue's long-standing MX deduction discount), configurable.
 * Amount: fee value converted through the spot last prices (fee asset → quote → token), times
 * (1 − discount), rounded UP to `tokenDecimals` (8) so the venue never undercharges.
 * A fee already in the token (buying the token itself) is left in kind.
 */
import { D, Decimal, type DecimalLike } from '../../core/decimal.js';
import { amountToUnits, unitsToDecimal } from '../ledger/ledger-units.js';
import type { SpotFeePayer } from '../spot/spot-venue.js';

/** Spot prices the conversion reads: last price of a symbol, undefined when none traded yet. */
export interface SpotPriceSource {
  lastPrice(symbol: string): Decimal | undefined;
}

export interface PlatformTokenDeductionOptions {
  /** The platform token, e.g. MX. */
  readonly token: string;
  /** Fraction of the fee waived when paying with the token (0.2 = pay 80 %). */
  readonly discount: DecimalLike;
  /** Whether the account has deduction switched on (POST /api/v3/platformDeduct/enable). */
  readonly enabled: (accountId: string) => boolean;
  readonly prices: SpotPriceSource;
  /** Quote assets tried as bridges, in order (default USDT, USDC). */
  readonly bridges?: readonly string[];
  /** Decimals the token amount is rounded up to (default 8). */
  readonly tokenDecimals?: number;
}

export const DEFAULT_PLATFORM_TOKEN = 'MX';
export const DEFAULT_PLATFORM_DISCOUNT = '0.2';

export class PlatformTokenDeduction implements SpotFeePayer {
  readonly token: string;
  readonly discount: Decimal;
  private readonly bridges: readonly string[];
  private readonly decimals: number;

  constructor(private readonly opts: PlatformTokenDeductionOptions) {
    this.token = opts.token;
    this.discount = D(opts.discount);
    if (this.discount.lt(0) || this.discount.gte(1)) throw new RangeError(`discount must be in [0, 1), got ${this.discount.toFixed()}`);
    this.bridges = opts.bridges ?? ['USDT', 'USDC'];
    this.decimals = opts.tokenDecimals ?? 8;
  }

  alternative(
    accountId: string,
    _symbol: string,
    feeAsset: string,
    feeUnits: bigint,
    ledgerScale: number,
  ): { asset: string; units: bigint } | undefined {
    if (feeAsset === this.token || !this.opts.enabled(accountId)) return undefined;
    const amount = this.tokenAmount(feeAsset, unitsToDecimal(feeUnits, ledgerScale));
    if (amount === undefined || amount.lte(0)) return undefined;
    return { asset: this.token, units: amountToUnits(amount, ledgerScale) };
  }

  /** What a fee of `fee` in `feeAsset` costs in the token after the discount; undefined when no price links them. */
  tokenAmount(feeAsset: string, fee: Decimal): Decimal | undefined {
    const rate = this.priceIn(feeAsset, this.token);
    if (rate === undefined) return undefined;
    return fee.mul(rate).mul(new Decimal(1).sub(this.discount)).toDecimalPlaces(this.decimals, Decimal.ROUND_UP);
  }

  /** Units of `to` one unit of `from` is worth, directly or through a bridge quote asset. */
  priceIn(from: string, to: string): Decimal | undefined {
    if (from === to) return new Decimal(1);
    const direct = this.pair(from, to);
    if (direct !== undefined) return direct;
    for (const b of this.bridges) {
      if (b === from || b === to) continue;
      const a = this.pair(from, b);
      const c = this.pair(b, to);
      if (a !== undefined && c !== undefined) return a.mul(c);
    }
    return undefined;
  }

  private pair(from: string, to: string): Decimal | undefined {
    if (from === to) return new Decimal(1);
    const p = this.opts.prices.lastPrice(`${from}${to}`);
    if (p !== undefined && p.gt(0)) return p;
    const q = this.opts.prices.lastPrice(`${to}${from}`);
    if (q !== undefined && q.gt(0)) return new Decimal(1).div(q);
    return undefined;
  }
}
