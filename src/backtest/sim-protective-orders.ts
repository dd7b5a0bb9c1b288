/**
 * Trailing and plan orders of our backtest account, on the venue engine's own trigger orders
 * (ContractVenue's public trackorder / planorder commands): the same evaluation as the emulator serves.
 *
 * One thing the engine cannot do alone here: its book holds only our orders, so the market close a
 * trigger places would find nothing to trade with. Before a fair or index price reaches the venue, the
 * triggers of ours that this price fires are found from their views (a sell-side trailing order fires at
 * a price ≤ its trigger price, a plan order when its comparison holds), and the price is set inside
 * SimulatedExchange.withLiquidity for the close's side and size — as a placement of ours would be.
 * Triggers on the last price are refused: the venue's last price here is only our own trades, not the
 * recorded market's.
 */
import { ValidationError } from '../core/errors.js';
import type { Decimal } from '../core/decimal.js';
import type { InstrumentSymbol } from '../core/ids.js';
import { PlanOrderState, type PositionMode, PriceTrend, TrackOrderState, TriggerType, sideIsBuy } from '../domain/contract-enums.js';
import type { ContractInstrument } from '../domain/instrument.js';
import type { PositionProtection, ProtectiveOrderRef } from '../domain/position.js';
import type { ProtectiveOrderRequest } from '../execution/exchange-gateway.js';
import {
  PLAN_CYCLE_HOURS,
  placedProtection,
  planOrderParams,
  planProtection,
  trackOrderParams,
  trackProtection,
  type HeldSettings,
} from '../execution/gateways/protective-order-mapping.js';
import type { ContractVenue } from '../venue/contract/contract-venue.js';
import type { Side } from './replay-book.js';
import { venueRejection } from './venue-rejection.js';

/** The venue's "gone" and "final" cancel codes. */
const NOT_LIVE = new Set([2040, 2041]);
const TREND_OF = { fair: PriceTrend.FAIR, index: PriceTrend.INDEX } as const;

/** A trigger this price fires: the close's taker side and size. */
export interface Firing {
  readonly side: Side;
  readonly vol: Decimal;
}

export class SimProtectiveOrders {
  /** Live (as far as we know) trigger orders of ours, per symbol. */
  private readonly live = new Map<string, ProtectiveOrderRef[]>();

  constructor(
    private readonly venue: ContractVenue,
    private readonly account: string,
  ) {}

  get any(): boolean {
    return this.live.size > 0;
  }

  place(req: ProtectiveOrderRequest, inst: ContractInstrument, mode: PositionMode, held: HeldSettings): PositionProtection {
    if ((req.triggerPriceType ?? 'last') === 'last')
      throw new ValidationError('triggerPriceType', "fair or index in a backtest (the venue's last price is only our own trades)", 'last');
    const r =
      req.spec.type === 'trailing'
        ? this.venue.placeTrackOrder(this.account, trackOrderParams(req, inst, mode, held))
        : this.venue.placePlanOrder(this.account, { ...planOrderParams(req, inst, mode, held), executeCycle: PLAN_CYCLE_HOURS });
    if (!r.ok)
      throw venueRejection(
        'contract',
        r.code,
        r.message,
        req.spec.type === 'trailing' ? 'contract.placeTrackOrder' : 'contract.placePlanOrderV2',
      );
    const ref = { kind: req.spec.type, id: r.value.id };
    const list = this.live.get(req.symbol) ?? [];
    list.push(ref);
    this.live.set(req.symbol, list);
    return placedProtection(req, r.value.id);
  }

  /** True when cancelled; false when the venue no longer holds it live; other refusals are returned. */
  cancel(symbol: InstrumentSymbol, ref: ProtectiveOrderRef): { ok: true; live: boolean } | { ok: false; code: number; message: string } {
    this.forget(symbol, ref.id);
    if (ref.kind === 'trailing') {
      const r = this.venue.cancelTrackOrders(this.account, { symbol, trackOrderId: ref.id });
      if (r.ok) return { ok: true, live: true };
      return NOT_LIVE.has(r.code) ? { ok: true, live: false } : { ok: false, code: r.code, message: r.message };
    }
    const [e] = this.venue.cancelPlanOrders(this.account, [{ symbol, orderId: ref.id }]);
    if (!e || e.errorCode === 0) return { ok: true, live: true };
    return NOT_LIVE.has(e.errorCode) ? { ok: true, live: false } : { ok: false, code: e.errorCode, message: e.errorMsg };
  }

  /** Live trailing and plan orders closing positions of the symbol, as the venue lists them. */
  list(symbol: InstrumentSymbol): PositionProtection[] {
    const out: PositionProtection[] = [];
    const tracks = this.venue.trackOrders(this.account, { symbol, states: [0, 1], pageSize: 1000 }).resultList;
    for (const t of tracks) {
      const p = trackProtection(symbol, t);
      if (p) out.push(p);
    }
    for (const o of this.venue.planOrders(this.account, { symbol, states: [1], pageSize: 1000 }).resultList) {
      const p = planProtection(symbol, o);
      if (p) out.push(p);
    }
    return out;
  }

  /** The closes a `kind` price of `symbol` fires among our live triggers (ended ones are dropped from the watch). */
  firing(symbol: string, kind: 'fair' | 'index', price: Decimal): Firing[] {
    const refs = this.live.get(symbol);
    if (!refs) return [];
    const out: Firing[] = [];
    const trend = TREND_OF[kind];
    for (const ref of [...refs]) {
      if (ref.kind === 'trailing') {
        const t = this.venue.trackOrder(this.account, ref.id);
        if (!t || (t.state !== TrackOrderState.ACTIVE && t.state !== TrackOrderState.INACTIVE)) {
          this.forget(symbol, ref.id);
          continue;
        }
        if (t.trend !== trend || t.state !== TrackOrderState.ACTIVE || !t.triggerPrice) continue;
        const buys = sideIsBuy(t.side);
        if (buys ? price.gte(t.triggerPrice) : price.lte(t.triggerPrice)) out.push({ side: buys ? 'buy' : 'sell', vol: t.vol });
      } else {
        const p = this.venue.planOrder(this.account, ref.id);
        if (!p || p.state !== PlanOrderState.UNTRIGGERED) {
          this.forget(symbol, ref.id);
          continue;
        }
        if (p.trend !== trend) continue;
        if (p.triggerType === TriggerType.GTE ? price.gte(p.triggerPrice) : price.lte(p.triggerPrice))
          out.push({ side: sideIsBuy(p.side) ? 'buy' : 'sell', vol: p.vol });
      }
    }
    return out;
  }

  private forget(symbol: string, id: string): void {
    const refs = this.live.get(symbol);
    if (!refs) return;
    const rest = refs.filter((r) => r.id !== id);
    if (rest.length > 0) this.live.set(symbol, rest);
    else this.live.delete(symbol);
  }
}
