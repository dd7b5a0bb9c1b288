import { expect } from 'chai';
import fc from 'fast-check';
import { D, Decimal, unitsOf } from '../../src/core/decimal.js';
import type { Instrument } from '../../src/domain/instrument.js';
import type { DesiredQuotes } from '../../src/domain/intent.js';
import type { Denial, RiskState } from '../../src/risk/risk-rule.js';
import { notAbove0 } from '../../src/risk/rules/intent-shape-rule.js';
import { priceTickRule } from '../../src/risk/rules/price-tick-rule.js';
import { quantityBoundsRule } from '../../src/risk/rules/quantity-bounds-rule.js';
import { quantityStepRule } from '../../src/risk/rules/quantity-step-rule.js';
import { BTC_USDT, BTCUSDT, contractInstrument, S1, spotInstrument } from '../domain/support/builders.js';
import { contractState } from './support.js';

/**
 * The tick, step and bounds rules compare a quote's price and quantity as whole numbers of ticks and lots
 * (unitsOf, once per proposal) and keep the Decimal computation for what is not one. The references below
 * are the Decimal formulas written out — a multiple is `value mod unit = 0`, a bound is `lt` / `gt` — with
 * the denial texts the rules gave before; they run over prices and quantities placed on, next to and far
 * off the units and bounds, with more digits than a double holds, and instruments whose tick or step is
 * not a power of ten (those never take the integer path).
 */
const MAX_EXACT = 2 ** 53;

describe('risk rules in ticks and lots', function () {
  this.timeout(60_000);

  it('unitsOf_is_the_exact_whole_number_of_units_or_nan', () => {
    const value = fc
      .tuple(fc.boolean(), fc.stringMatching(/^[0-9]{1,30}$/), fc.integer({ min: -40, max: 30 }))
      .map(([neg, m, e]) => new Decimal(`${neg ? '-' : ''}${m}e${e}`));
    fc.assert(
      fc.property(value, fc.integer({ min: 0, max: 18 }), (x, places) => {
        const unit = new Decimal(10).pow(-places);
        const scaled = x.mul(new Decimal(10).pow(places));
        const whole = x.mod(unit).isZero() && scaled.abs().lt(MAX_EXACT);
        const got = unitsOf(x, places);
        if (whole) {
          expect(Number.isSafeInteger(got), `${x.toString()} at ${places}`).to.equal(true);
          expect(new Decimal(got).eq(scaled), `${x.toString()} at ${places}: ${got}`).to.equal(true);
        } else expect(got, `${x.toString()} at ${places}`).to.be.NaN;
      }),
      { numRuns: 5000 },
    );
    for (const v of [new Decimal(NaN), new Decimal(Infinity), new Decimal(-Infinity)]) expect(unitsOf(v, 2)).to.be.NaN;
    expect(unitsOf(new Decimal('-0'), 3)).to.equal(0);
    expect(unitsOf(D('9007199254740991'), 0)).to.equal(9007199254740991);
    expect(unitsOf(D('9007199254740992'), 0)).to.be.NaN;
    expect(unitsOf(D('0.5'), 0)).to.be.NaN;
  });

  it('the_shape_rules_sign_check_is_lte_0', () => {
    // The reference is the comparison the shape rule made before, x.lte(0), over finite values of both
    // signs and the special ones.
    const special = fc.constantFrom('0', '-0', 'NaN', 'Infinity', '-Infinity', '1e-40', '-1e-40');
    const finite = fc
      .tuple(fc.boolean(), fc.stringMatching(/^[0-9]{1,25}$/), fc.integer({ min: -30, max: 30 }))
      .map(([n, m, e]) => `${n ? '-' : ''}${m}e${e}`);
    fc.assert(
      fc.property(fc.oneof(special, finite), (t) => {
        const x = new Decimal(t);
        expect(notAbove0(x), t).to.equal(x.lte(0));
      }),
      { numRuns: 3000 },
    );
  });

  const fmt = (d: Decimal): string => d.toFixed();
  const label = (slot: string): string => `quote ${slot} price`;

  /** priceTickRule before ticks: the first quote whose price is not zero and not a multiple of the tick. */
  function tickBefore(intent: DesiredQuotes, tick: Decimal): Denial | undefined {
    for (const q of intent.quotes) {
      if (q.price.isZero() || q.price.mod(tick).isZero()) continue;
      const below = q.price.div(tick).floor().mul(tick);
      return {
        rule: 'price-tick',
        reason: `${label(q.slot)} ${fmt(q.price)} is not a multiple of the tick ${fmt(tick)} (nearest: ${fmt(below)} or ${fmt(below.plus(tick))})`,
        slot: q.slot,
      };
    }
    return undefined;
  }

  function stepBefore(intent: DesiredQuotes, step: Decimal): Denial | undefined {
    for (const q of intent.quotes) {
      if (q.quantity.mod(step).isZero()) continue;
      const below = q.quantity.div(step).floor().mul(step);
      return {
        rule: 'quantity-step',
        reason: `quantity ${fmt(q.quantity)} is not a multiple of the step ${fmt(step)} (truncated: ${fmt(below)})`,
        slot: q.slot,
      };
    }
    return undefined;
  }

  function boundsBefore(intent: DesiredQuotes, inst: Instrument): Denial | undefined {
    for (const q of intent.quotes) {
      const what = `${q.side} ${fmt(q.quantity)} @ ${fmt(q.price)} (slot ${q.slot})`;
      if (inst.kind === 'spot') {
        if (inst.minQuantity.gt(0) && q.quantity.lt(inst.minQuantity))
          return {
            rule: 'quantity-bounds',
            reason: `${what}: quantity ${fmt(q.quantity)} is below the minimum ${fmt(inst.minQuantity)} ${inst.baseAsset}`,
            slot: q.slot,
          };
        continue;
      }
      if (q.quantity.lt(inst.minVol))
        return {
          rule: 'quantity-bounds',
          reason: `${what}: ${fmt(q.quantity)} contracts is below minVol ${fmt(inst.minVol)}`,
          slot: q.slot,
        };
      if (q.quantity.gt(inst.maxVol))
        return {
          rule: 'quantity-bounds',
          reason: `${what}: ${fmt(q.quantity)} contracts is above maxVol ${fmt(inst.maxVol)}`,
          slot: q.slot,
        };
    }
    return undefined;
  }

  // Units: powers of ten (the integer path) and not (the Decimal path only).
  const instrumentArb = fc.oneof(
    fc
      .record({
        tick: fc.constantFrom('0.1', '0.01', '1', '0.5', '25'),
        step: fc.constantFrom('1', '0.001', '10', '0.25'),
        minVol: fc.constantFrom('1', '0.001', '3', '0.0005', '1.5'),
        maxVol: fc.constantFrom('400000', '9007199254740993', '1000.5'),
      })
      .map((u): Instrument => contractInstrument({ priceUnit: D(u.tick), volUnit: D(u.step), minVol: D(u.minVol), maxVol: D(u.maxVol) })),
    fc
      .record({
        tick: fc.constantFrom('0.01', '0.00001', '0.5'),
        step: fc.constantFrom('0.000001', '0.01', '2'),
        minQuantity: fc.constantFrom('0', '0.000001', '0.0105', '4'),
      })
      .map((u): Instrument => spotInstrument({ tick: D(u.tick), step: D(u.step), minQuantity: D(u.minQuantity) })),
  );
  // Values near the units and bounds: on them, one digit past, beyond 2^53 units, and with 30 digits.
  const valueArb = fc.oneof(
    fc.constantFrom('0', '1', '0.5', '0.25', '1.5', '3', '25', '60000.1', '60000.15', '0.0005', '0.000001', '0.0000005', '0.0105'),
    fc.constantFrom('400000', '400001', '1000.5', '1000.50001', '9007199254740993', '9007199254740992.1', '123456789012345678901234567890'),
    fc.tuple(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: -8, max: 2 })).map(([m, e]) => `${m}e${e}`),
  );
  const quoteSetArb = fc.array(fc.tuple(fc.constantFrom('buy' as const, 'sell' as const), valueArb, valueArb), {
    minLength: 1,
    maxLength: 6,
  });

  it('tick_step_and_bounds_rules_decide_and_word_as_the_decimal_formulas', () => {
    fc.assert(
      fc.property(instrumentArb, quoteSetArb, (inst, raw) => {
        const intent: DesiredQuotes = {
          kind: 'desired-quotes',
          intentId: 'mm1:1',
          strategyId: S1,
          symbol: inst.kind === 'spot' ? BTCUSDT : BTC_USDT,
          quotes: raw.map(([side, price, qty], i) => ({ slot: `q${i}`, side, price: D(price), quantity: D(qty) })),
        };
        const state: RiskState = contractState();
        const tick = inst.kind === 'spot' ? inst.tick : inst.priceUnit;
        const step = inst.kind === 'spot' ? inst.step : inst.volUnit;
        expect(priceTickRule(intent, inst, state), 'price-tick').to.deep.equal(tickBefore(intent, tick));
        expect(quantityStepRule(intent, inst, state), 'quantity-step').to.deep.equal(stepBefore(intent, step));
        expect(quantityBoundsRule(intent, inst, state), 'quantity-bounds').to.deep.equal(boundsBefore(intent, inst));
      }),
      { numRuns: 4000 },
    );
  });
});
