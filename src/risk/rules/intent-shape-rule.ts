import { type Decimal, ZERO } from '../../core/decimal.js';
import { PerpetuaError } from '../../core/errors.js';
import { SLOT_PATTERN, slotCode } from '../../domain/intent.js';
import { validateOrderSpec } from '../../domain/order.js';
import { twapSchedule } from '../../domain/twap-schedule.js';
import { fmt } from '../order-proposals.js';
import type { RiskRule } from '../risk-rule.js';

const RULE = 'intent-shape';

/** Malformed intents never get further (a strategy bug must not reach the venue). */
export const intentShapeRule: RiskRule = (intent, instrument) => {
  const deny = (reason: string) => ({ rule: RULE, reason });
  switch (intent.kind) {
    case 'place': {
      try {
        validateOrderSpec(intent.order);
      } catch (e) {
        return deny(e instanceof PerpetuaError ? e.message : String(e));
      }
      if (instrument && instrument.kind !== intent.order.kind)
        return deny(`order kind ${intent.order.kind} but ${instrument.symbol} is a ${instrument.kind} instrument`);
      if (intent.order.leverage !== undefined && !(Number.isInteger(intent.order.leverage) && intent.order.leverage > 0)) {
        return deny(`leverage must be a positive integer, got ${intent.order.leverage}`);
      }
      return undefined;
    }
    case 'amend':
      if (!intent.price && !intent.quantity) return deny('an amend needs a new price or a new quantity');
      if (intent.price && intent.price.lte(ZERO)) return deny(`amend price must be > 0, got ${fmt(intent.price)}`);
      if (intent.quantity && intent.quantity.lte(ZERO)) return deny(`amend quantity must be > 0, got ${fmt(intent.quantity)}`);
      return undefined;
    case 'chase':
      if (!(Number.isInteger(intent.maxReprices) && intent.maxReprices > 0))
        return deny(`maxReprices must be a positive integer, got ${intent.maxReprices}`);
      if (intent.priceCap && intent.priceCap.lte(ZERO)) return deny(`priceCap must be > 0, got ${fmt(intent.priceCap)}`);
      return undefined;
    case 'set-leverage':
      if (!(Number.isInteger(intent.leverage) && intent.leverage > 0))
        return deny(`leverage must be a positive integer, got ${intent.leverage}`);
      return undefined;
    case 'desired-quotes': {
      const qs = intent.quotes;
      // A few quotes are scanned for an earlier equal slot, by slot code (a Set per intent cost more than the scan).
      const seen = qs.length > 16 ? new Set<string>() : undefined;
      const codes: number[] = [];
      for (let i = 0; i < qs.length; i++) {
        const q = qs[i]!;
        // A string slot is valid exactly when it has a code; anything else (a strategy in plain JS) gets the pattern.
        const code = typeof q.slot === 'string' ? slotCode(q.slot) : -1;
        if (code < 0 && !SLOT_PATTERN.test(q.slot)) return deny(`quote slot ${JSON.stringify(q.slot)} must be 1–3 characters [a-z0-9]`);
        codes.push(code);
        if (seen ? seen.has(q.slot) : slotBefore(qs, codes, i)) return deny(`quote slot ${q.slot} appears twice`);
        seen?.add(q.slot);
        if (notAbove0(q.price)) return deny(`quote ${q.slot} price must be > 0, got ${fmt(q.price)}`);
        if (notAbove0(q.quantity)) return deny(`quote ${q.slot} quantity must be > 0, got ${fmt(q.quantity)}`);
      }
      return undefined;
    }
    case 'twap': {
      if (intent.quantity.lte(ZERO)) return deny(`twap quantity must be > 0, got ${fmt(intent.quantity)}`);
      try {
        twapSchedule(intent.durationMs, intent.slices, intent.sliceIntervalMs);
      } catch (e) {
        return deny(e instanceof PerpetuaError ? e.message : String(e));
      }
      if (intent.childType !== 'ioc' && intent.childType !== 'passive')
        return deny(`twap childType must be ioc or passive, got ${String(intent.childType)}`);
      if (intent.limitPrice && intent.limitPrice.lte(ZERO)) return deny(`twap limitPrice must be > 0, got ${fmt(intent.limitPrice)}`);
      if (intent.maxDeviationBps?.isNegative()) return deny(`twap maxDeviationBps must be ≥ 0, got ${fmt(intent.maxDeviationBps)}`);
      return undefined;
    }
    case 'iceberg':
      if (intent.quantity.lte(ZERO)) return deny(`iceberg quantity must be > 0, got ${fmt(intent.quantity)}`);
      if (intent.visibleQuantity.lte(ZERO) || intent.visibleQuantity.gt(intent.quantity))
        return deny(`iceberg visibleQuantity must be in (0, quantity ${fmt(intent.quantity)}], got ${fmt(intent.visibleQuantity)}`);
      if (intent.price.lte(ZERO)) return deny(`iceberg price must be > 0, got ${fmt(intent.price)}`);
      if (intent.visibleVariance && (intent.visibleVariance.isNegative() || intent.visibleVariance.gte(1)))
        return deny(`iceberg visibleVariance must be in [0, 1), got ${fmt(intent.visibleVariance)}`);
      if (intent.seed !== undefined && !Number.isInteger(intent.seed)) return deny(`iceberg seed must be an integer, got ${intent.seed}`);
      return undefined;
    case 'protective-order': {
      if (!intent.quantity.gt(ZERO)) return deny(`protective order quantity must be > 0, got ${fmt(intent.quantity)}`);
      const s = intent.spec;
      if (s.type === 'trailing') {
        if (!s.callbackRate.gt(ZERO) || !s.callbackRate.lt(1))
          return deny(`trailing callbackRate must be a fraction in (0, 1) (0.01 = 1 %), got ${fmt(s.callbackRate)}`);
        if (s.activationPrice && !s.activationPrice.gt(ZERO))
          return deny(`trailing activationPrice must be > 0, got ${fmt(s.activationPrice)}`);
      } else if (!s.triggerPrice.gt(ZERO)) return deny(`plan triggerPrice must be > 0, got ${fmt(s.triggerPrice)}`);
      if (intent.leverage !== undefined && !(Number.isInteger(intent.leverage) && intent.leverage > 0))
        return deny(`leverage must be a positive integer, got ${intent.leverage}`);
      return undefined;
    }
    case 'cancel-protective':
      if (intent.orders.length === 0) return deny('cancel-protective names no order');
      return undefined;
    case 'attach-tpsl':
      if (intent.takeProfitPrice?.isNegative() || intent.stopLossPrice?.isNegative()) return deny('TP/SL prices must be ≥ 0 (0 cancels)');
      return undefined;
    default:
      return undefined;
  }
};

/** An earlier quote has the same slot: equal codes are equal strings; a slot without a code is compared as it is. */
function slotBefore(qs: readonly { readonly slot: string }[], codes: readonly number[], i: number): boolean {
  const code = codes[i]!;
  if (code >= 0) {
    for (let j = 0; j < i; j++) if (codes[j] === code) return true;
    return false;
  }
  const slot = qs[i]!.slot;
  for (let j = 0; j < i; j++) if (qs[j]!.slot === slot) return true;
  return false;
}

/**
 * `x.lte(0)` from the sign alone: negative (−0 and −Infinity included) or zero; false for NaN, as the
 * comparison is. Every quote of every set asks it twice, and a comparison first checks that its
 * argument is a Decimal (decimal.js's instanceof, a function call).
 * @internal Exported for the test that holds it to lte(0).
 */
export const notAbove0 = (x: Decimal): boolean => x.isNegative() || x.isZero();
