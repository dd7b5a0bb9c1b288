import { expect } from 'chai';
import fc from 'fast-check';
import { D, Decimal, ZERO } from '../../src/core/decimal.js';
import type { ContractInstrument, Instrument } from '../../src/domain/instrument.js';
import type { Intent } from '../../src/domain/intent.js';
import { markPrice } from '../../src/domain/snapshot.js';
import { netQty } from '../../src/risk/exposure.js';
import type { Denial } from '../../src/risk/risk-rule.js';
import { clearlyWithinStrategyLimits, strategyLimitsRule } from '../../src/risk/rules/strategy-limits-rule.js';
import { isLive, type Order } from '../../src/domain/order.js';
import type { Position } from '../../src/domain/position.js';
import { approxNumber } from '../../src/risk/approx-number.js';
import {
  byTouchPriority,
  fmt,
  orderRemaining,
  proposalRemaining,
  proposedOrders,
  releasedIds,
  slotOf,
} from '../../src/risk/order-proposals.js';
import type { RiskState } from '../../src/risk/risk-rule.js';
import type { QuoteInput } from '../../src/strategy/intent-factory.js';
import { clearlyCovered, freeBalanceRule } from '../../src/risk/rules/free-balance-rule.js';
import { clearlyWithinTiers, leverageRule } from '../../src/risk/rules/leverage-rule.js';
import { clearlyWithinPriceLimits, contractPriceLimitRule } from '../../src/risk/rules/contract-price-limit-rule.js';
import {
  account,
  balance,
  BTC_USDT,
  contractInstrument,
  order,
  position,
  S2,
  snapshot,
  spotInstrument,
} from '../domain/support/builders.js';
import { contractState, quotes, spotState } from './support.js';

/**
 * The free-balance and leverage rules decide a quote set in doubles first (a screen) and only reach
 * their Decimal computation when the screen cannot vouch for the set. The screen may only ever say
 * "allowed" where the Decimal formula allows: each property below writes that formula out (the rule's
 * code before the screen) and holds the rule's decision and the screen to it over random prices,
 * quantities, leverages, fees and contract sizes — with balances and sizes placed exactly on the limit,
 * one unit either side of it, 1e-30 either side, and notionals far past 2^53.
 */
describe('risk screens in doubles', function () {
  // Thousands of Decimal reference computations: seconds on a loaded machine.
  this.timeout(60_000);
  it('approxNumber_reads_a_decimal_within_2e-15_of_its_value_and_nan_when_not_finite', () => {
    const digits = fc.stringMatching(/^[1-9][0-9]{0,29}$/);
    const value = fc
      .tuple(fc.boolean(), digits, fc.integer({ min: -300, max: 280 }))
      .map(([neg, m, e]) => new Decimal(`${neg ? '-' : ''}${m}e${e}`));
    fc.assert(
      fc.property(value, (x) => {
        // Number(string) is the correctly rounded double: the independent reference.
        const want = Number(x.toString());
        const got = approxNumber(x);
        expect(Math.abs(got - want), `${x.toString()}: ${got} vs ${want}`).to.be.at.most(2e-15 * Math.abs(want));
      }),
      { numRuns: 5000 },
    );
    for (const s of ['0', '-0', '1', '0.1', '59990', '1e-7', '123.45', '9007199254740993', '1e21'])
      expect(approxNumber(D(s))).to.equal(Number(s));
    for (const s of ['NaN', 'Infinity', '-Infinity']) expect(approxNumber(D(s))).to.be.NaN;
  });

  // The contract's fee and contract size vary; leverages 1..125 make divisions that do not terminate.
  const contractSizes = ['0.0001', '0.001', '1', '10'];
  const fees = ['0', '0.0001', '0.0006', '-0.0001', '0.0003333'];
  const priceOf = (ticks: bigint): Decimal => D(ticks.toString()).div(10);
  // Prices from 0.1 to 10^12 (2^53 ticks and past), quantities from 1 to 10^9 lots.
  const price = fc.oneof(fc.bigInt({ min: 1n, max: 1_000_000n }), fc.bigInt({ min: 1n, max: 10n ** 13n }));
  const qty = fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 1_000_000_000 }));
  const quoteArb = fc.record({ buy: fc.boolean(), ticks: price, qty, lev: fc.integer({ min: 1, max: 125 }), resting: fc.boolean() });

  /** The rule's Decimal formula: initial margin price·qty·contractSize/leverage plus the taker fee on that notional. */
  const reservation = (inst: ContractInstrument, px: Decimal, q: Decimal, lev: number): Decimal => {
    const notional = px.mul(q).mul(inst.contractSize);
    return notional.div(lev).plus(notional.mul(inst.takerFeeRate));
  };

  it('free_balance_allows_exactly_where_the_decimal_formula_allows_and_the_screen_never_allows_more', () => {
    // The balance sits at the set's need plus a delta: on the limit, one 1e-8 unit or 1e-30 either side, or far off.
    // 'r…' is relative to the need (the usual case: well inside or well outside the funds).
    const delta = fc.constantFrom('0', '1e-8', '-1e-8', '1e-30', '-1e-30', '1e6', '-1e6', '0.5', '-0.5', 'r0.5', 'r-0.5', 'r0.001', 'r3');
    let screened = 0;
    let runs = 0;
    fc.assert(
      fc.property(
        fc.array(quoteArb, { minLength: 1, maxLength: 10 }),
        fc.constantFrom(...contractSizes),
        fc.constantFrom(...fees),
        delta,
        fc.constantFrom('0', '1000', '1e-8'),
        fc.integer({ min: 0, max: 3 }),
        (qs, cs, fee, d, locked, othersCount) => {
          runs++;
          const inst = contractInstrument({ contractSize: D(cs), takerFeeRate: D(fee), riskTiers: [] });
          const slots = qs.map((q, i) => `${q.buy ? 'b' : 'a'}${i}`);
          const intent = quotes(
            BTC_USDT,
            qs.map((q, i) => ({
              slot: slots[i]!,
              side: q.buy ? 'buy' : 'sell',
              price: priceOf(q.ticks),
              quantity: q.qty,
              leverage: q.lev,
            })),
          );
          // Our resting quotes (released by the set) and another strategy's orders (held, not released).
          const resting: Order[] = [];
          qs.forEach((q, i) => {
            if (q.resting)
              resting.push(
                order({
                  symbol: BTC_USDT,
                  slot: slots[i],
                  side: q.buy ? 'buy' : 'sell',
                  price: priceOf(q.ticks + 1n),
                  quantity: D(q.qty),
                  leverage: q.lev,
                }),
              );
          });
          for (let k = 0; k < othersCount; k++)
            resting.push(order({ symbol: BTC_USDT, strategyId: S2, side: 'buy', price: D('100.5'), quantity: D(k + 1), leverage: 5 }));
          // The formula, in Decimal: need = Σ reservations; held = Σ over live orders; released = Σ over our quotes.
          // Summed in the rule's order (nearest the touch first): the 40-digit roundings of a sum depend on its order.
          const need = byTouchPriority(proposedOrders(intent, inst, contractState())).reduce(
            (s, p) => s.plus(reservation(inst, p.spec.price!, p.spec.quantity!, p.spec.leverage!)),
            ZERO,
          );
          const res = (o: Order): Decimal => reservation(inst, o.price!, o.quantity!, o.leverage!);
          const held = resting.reduce((s, o) => s.plus(res(o)), ZERO);
          const released = resting.filter((o) => o.strategyId !== S2).reduce((s, o) => s.plus(res(o)), ZERO);
          // Pick free so that available (= min(free, free + locked − held) + released) is need + delta.
          const lockedD = D(locked);
          const target = need.plus(d.startsWith('r') ? need.mul(d.slice(1)) : D(d));
          // available = free − max(0, held − locked) + released when free + locked − held ≤ free.
          const free = target.minus(released).plus(Decimal.max(ZERO, held.minus(lockedD)));
          const state: RiskState = contractState({ openOrders: resting, account: account('contract', balance('USDT', free, lockedD)) });
          const available = Decimal.min(free, free.plus(lockedD).minus(held)).plus(released);
          // Every reservation is positive (fee > −1/leverage), so the nearest-the-touch prefixes are within the total.
          const allowed = need.lte(available);
          const d1 = freeBalanceRule(intent, inst, state);
          expect(d1 === undefined, `need ${need.toFixed()} available ${available.toFixed()} → ${d1?.reason}`).to.equal(allowed);
          if (d1) expect(d1.rule).to.equal('free-balance');
          const screen = clearlyCovered(intent, proposedOrders(intent, inst, state), inst, state, state.account!);
          if (screen) {
            screened++;
            expect(allowed, `screen allowed need ${need.toFixed()} > available ${available.toFixed()}`).to.equal(true);
          }
          // Far from the limit the screen decides (it is not a screen that always defers).
          if (available.minus(need).gt(need.abs().mul('1e-6').plus('1e-3'))) expect(screen).to.equal(true);
        },
      ),
      { numRuns: 3000 },
    );
    expect(screened).to.be.greaterThan(runs / 4);
  });

  it('leverage_allows_exactly_where_the_decimal_tier_lookup_allows_and_the_screen_never_allows_more', () => {
    const inst = contractInstrument();
    const tiers = [...inst.riskTiers].sort((a, b) => a.maxVol.comparedTo(b.maxVol));
    let screened = 0;
    fc.assert(
      fc.property(
        // The buy side's worst-case size lands on a tier bound, one lot either side, 1e-30 either side, or anywhere.
        fc.integer({ min: 0, max: tiers.length - 1 }),
        fc.constantFrom('0', '1', '-1', '1e-30', '-1e-30', '0.5', '-777'),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 600 }),
        fc.constantFrom('0', '1000', '-3000', '1e-30'),
        fc.boolean(),
        fc.integer({ min: 1, max: 10_000 }),
        (k, d, parts, lev, pos, withSell, sellQty) => {
          const target = tiers[k]!.maxVol.plus(d);
          const posD = D(pos);
          const positions: Position[] = posD.isZero() ? [] : [position(BTC_USDT, posD, '100')];
          // Quotes on the buy side that sum (with the long position) to the target size; the first takes the remainder.
          const fromQuotes = target.minus(Decimal.max(ZERO, posD));
          if (fromQuotes.lte(parts)) return;
          const each = fromQuotes.div(parts).floor();
          const qs: QuoteInput[] = Array.from({ length: parts }, (_, i) => ({
            slot: `b${i}`,
            side: 'buy',
            price: '100',
            quantity: i === 0 ? fromQuotes.minus(each.mul(parts - 1)) : each,
            leverage: lev,
          }));
          if (withSell) qs.push({ slot: 'a0', side: 'sell', price: '101', quantity: D(sellQty), leverage: lev });
          const intent = quotes(BTC_USDT, qs);
          const state = contractState({ positions });
          // The Decimal lookup: size per direction (a short position adds to sells), the first tier whose maxVol holds it.
          const longSize = Decimal.max(ZERO, posD).plus(fromQuotes);
          const shortSize = Decimal.max(ZERO, posD.neg()).plus(sellQty);
          const fits = (size: Decimal): boolean => {
            if (lev < inst.minLeverage || lev > inst.maxLeverage) return false;
            const tier = tiers.find((t) => size.lte(t.maxVol));
            return tier !== undefined && lev <= tier.maxLeverage;
          };
          const allowed = fits(longSize) && (!withSell || fits(shortSize));
          const d1 = leverageRule(intent, inst, state);
          expect(d1 === undefined, `long ${longSize.toFixed()} lev ${lev} → ${d1?.reason}`).to.equal(allowed);
          const screen = clearlyWithinTiers(inst, state, releasedIds(intent, state), proposedOrders(intent, inst, state));
          if (screen) {
            screened++;
            expect(allowed, `screen allowed long ${longSize.toFixed()} lev ${lev}`).to.equal(true);
          }
        },
      ),
      { numRuns: 3000 },
    );
    expect(screened).to.be.greaterThan(100);
  });

  it('contract_price_limit_allows_exactly_where_fair_times_the_rate_allows_and_the_screen_never_allows_more', () => {
    let screened = 0;
    fc.assert(
      fc.property(
        // Fair prices from 0.1 to 10^12; rates with digits a double cannot hold; a quote on its bound, one tick
        // either side, 1e-30 either side, or anywhere between half and twice the fair price.
        fc.oneof(fc.bigInt({ min: 1n, max: 1_000_000n }), fc.bigInt({ min: 1n, max: 10n ** 13n })),
        fc.constantFrom('0.1', '0.05', '0.0333333333333333333333', '0.2', '0.00001'),
        fc.constantFrom('0.1', '0.05', '0.0666666666666666666667', '0.3', '0.00001'),
        fc.array(
          fc.record({
            buy: fc.boolean(),
            at: fc.constantFrom('bound', 'tick-in', 'tick-out', 'in-1e-30', 'out-1e-30', 'anywhere'),
            anywhere: fc.integer({ min: 500, max: 2000 }),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        (fairTicks, bidRate, askRate, spots) => {
          const inst = contractInstrument({ bidLimitPriceRate: D(bidRate), askLimitPriceRate: D(askRate) });
          const fair = D(fairTicks.toString()).div(10);
          const cap = fair.mul(D(1).plus(bidRate));
          const floor = fair.mul(D(1).minus(askRate));
          const qs: QuoteInput[] = spots.map((q, i) => {
            const bound = q.buy ? cap : floor;
            // "in" is below the cap for a buy and above the floor for a sell.
            const inward = q.buy ? -1 : 1;
            const price =
              q.at === 'bound'
                ? bound
                : q.at === 'tick-in'
                  ? bound.plus(D('0.1').mul(inward))
                  : q.at === 'tick-out'
                    ? bound.minus(D('0.1').mul(inward))
                    : q.at === 'in-1e-30'
                      ? bound.plus(D('1e-30').mul(inward))
                      : q.at === 'out-1e-30'
                        ? bound.minus(D('1e-30').mul(inward))
                        : fair.mul(q.anywhere).div(1000);
            return { slot: `${q.buy ? 'b' : 'a'}${i}`, side: q.buy ? 'buy' : 'sell', price, quantity: '1', leverage: 10 };
          });
          if (qs.some((q) => D(q.price).lte(0))) return;
          const intent = quotes(BTC_USDT, qs);
          const s = snapshot(BTC_USDT, {
            bids: [['99.9', '500']],
            asks: [['100.1', '500']],
            last: '100',
            fair: fair.toFixed(),
            pollTime: 1,
          });
          const state = contractState({ snapshot: s });
          // The Decimal formula: a buy at most fair·(1 + bidLimitPriceRate), a sell at least fair·(1 − askLimitPriceRate).
          const allowed = qs.every((q) => (q.side === 'buy' ? D(q.price).lte(cap) : D(q.price).gte(floor)));
          const d = contractPriceLimitRule(intent, inst, state);
          expect(d === undefined, `fair ${fair.toFixed()} → ${d?.reason}`).to.equal(allowed);
          if (clearlyWithinPriceLimits(proposedOrders(intent, inst, state), fair, inst)) {
            screened++;
            expect(allowed, `screen allowed at fair ${fair.toFixed()}`).to.equal(true);
          }
        },
      ),
      { numRuns: 3000 },
    );
    expect(screened).to.be.greaterThan(100);
  });
});

describe('strategy limits screen in doubles', function () {
  this.timeout(60_000);
  /** The rule's Decimal formula before the screen, written out: the same denial, words and slot. */
  const reference = (intent: Intent, instrument: Instrument, state: RiskState): Denial | undefined => {
    const limits = state.limits.strategies[intent.strategyId];
    if (!limits || (!limits.maxPositionQty && !limits.maxNotional)) return undefined;
    const proposals = proposedOrders(intent, instrument, state);
    if (proposals.length === 0) return undefined;
    const released = releasedIds(intent, state);
    const pos = netQty(state.strategyPositions, instrument.symbol);
    let buys = ZERO;
    let sells = ZERO;
    for (const o of state.openOrders) {
      if (!isLive(o.status) || o.strategyId !== intent.strategyId || o.symbol !== instrument.symbol || released.has(o.clientOrderId))
        continue;
      if (o.side === 'buy') buys = buys.plus(orderRemaining(o));
      else sells = sells.plus(orderRemaining(o));
    }
    const multiplier = instrument.kind === 'contract' ? instrument.contractSize : new Decimal(1);
    for (const p of byTouchPriority(proposals)) {
      if (p.spec.side === 'buy') buys = buys.plus(proposalRemaining(p));
      else sells = sells.plus(proposalRemaining(p));
      const worst = Decimal.max(pos.plus(buys).abs(), pos.minus(sells).abs());
      if (limits.maxPositionQty && worst.gt(limits.maxPositionQty)) {
        return {
          rule: 'strategy-limits',
          reason: `strategy ${intent.strategyId} could reach a position of ${fmt(worst)} on ${instrument.symbol} (position ${fmt(pos)}, open buys ${fmt(buys)}, sells ${fmt(sells)}); its limit is ${fmt(limits.maxPositionQty)}`,
          ...slotOf(p),
        };
      }
      if (limits.maxNotional) {
        const px = markPrice(state.snapshot) ?? p.spec.price;
        if (!px)
          return {
            rule: 'strategy-limits',
            reason: `no price to value strategy ${intent.strategyId}'s position on ${instrument.symbol} (fail closed)`,
            ...slotOf(p),
          };
        const notional = worst.mul(px).mul(multiplier);
        if (notional.gt(limits.maxNotional)) {
          return {
            rule: 'strategy-limits',
            reason: `strategy ${intent.strategyId} could reach a notional of ${fmt(notional)} on ${instrument.symbol} (${fmt(worst)} × ${fmt(px)}${multiplier.eq(1) ? '' : ` × ${fmt(multiplier)}`}); its limit is ${fmt(limits.maxNotional)}`,
            ...slotOf(p),
          };
        }
      }
    }
    return undefined;
  };

  // Lots of 0.000001 BTC (spot) or whole contracts of 0.0001 BTC; a position off the lot grid (spot fees
  // are taken in base); limits placed on the largest position any prefix reaches, one lot either side,
  // 1e-30 either side, or far away.
  const lot = fc.integer({ min: 1, max: 5_000_000 });
  const arb = fc.record({
    contract: fc.boolean(),
    pos: fc.integer({ min: -20_000_000, max: 20_000_000 }),
    posOffGrid: fc.boolean(),
    resting: fc.array(fc.record({ buy: fc.boolean(), lots: lot, filled: fc.integer({ min: 0, max: 3 }), mine: fc.boolean() }), {
      maxLength: 6,
    }),
    quotes: fc.array(fc.record({ buy: fc.boolean(), lots: lot, ticks: fc.integer({ min: 1, max: 2_000_000 }) }), {
      minLength: 1,
      maxLength: 8,
    }),
    which: fc.constantFrom('qty', 'notional', 'both'),
    at: fc.constantFrom('on', 'lot-above', 'lot-below', 'tiny-above', 'tiny-below', 'far-above', 'far-below'),
    noMark: fc.boolean(),
  });

  it('says_within_only_where_the_decimal_formula_allows_and_the_rule_answers_as_the_formula_does', () => {
    let screened = 0;
    fc.assert(
      fc.property(arb, (k) => {
        const inst = k.contract ? contractInstrument() : spotInstrument();
        const sym = inst.symbol;
        const step = k.contract ? D(1) : D('0.000001');
        const tick = k.contract ? D('0.1') : D('0.01');
        const q = (lots: number): Decimal => step.mul(lots);
        const posQty = q(k.pos).plus(k.posOffGrid ? D('0.00000000123') : ZERO);
        const openOrders = k.resting.map((r, i) =>
          order({
            symbol: sym,
            side: r.buy ? 'buy' : 'sell',
            quantity: q(r.lots),
            filledQty: q(Math.min(r.filled, r.lots - 1)),
            status: i % 3 === 0 ? 'partially-filled' : 'accepted',
            ...(r.mine ? { slot: `x${i}` } : { strategyId: S2 }),
          }),
        );
        const intent = quotes(
          sym as never,
          k.quotes.map((x, i) => ({
            slot: `${x.buy ? 'b' : 'a'}${i}`,
            side: x.buy ? 'buy' : 'sell',
            price: tick.mul(x.ticks),
            quantity: q(x.lots),
          })),
        );
        const base = k.contract ? contractState() : spotState();
        const snap = k.noMark ? undefined : base.snapshot;
        const state0: RiskState = {
          ...base,
          snapshot: snap as never,
          openOrders,
          strategyPositions: posQty.isZero() ? [] : [position(sym, posQty, '100')],
        };
        // An upper bound of the largest position a prefix reaches (every live order of the strategy and every quote).
        let worst = posQty.abs();
        {
          let b = ZERO;
          let s = ZERO;
          const released = releasedIds(intent, state0);
          for (const o of openOrders)
            if (o.strategyId === intent.strategyId && isLive(o.status) && !released.has(o.clientOrderId))
              o.side === 'buy' ? (b = b.plus(orderRemaining(o))) : (s = s.plus(orderRemaining(o)));
          for (const x of k.quotes) x.buy ? (b = b.plus(q(x.lots))) : (s = s.plus(q(x.lots)));
          worst = Decimal.max(worst, posQty.plus(b).abs(), posQty.minus(s).abs());
        }
        const near = (v: Decimal, unit: Decimal): Decimal =>
          ({
            on: v,
            'lot-above': v.plus(unit),
            'lot-below': v.minus(unit),
            'tiny-above': v.plus('1e-30'),
            'tiny-below': v.minus('1e-30'),
            'far-above': v.mul(1000).plus(1),
            'far-below': v.div(1000),
          })[k.at];
        const mark = snap ? markPrice(snap)! : D(1);
        const mult = inst.kind === 'contract' ? inst.contractSize : D(1);
        const lim: { maxPositionQty?: Decimal; maxNotional?: Decimal } = {};
        if (k.which !== 'notional') lim.maxPositionQty = near(worst, step);
        if (k.which !== 'qty') lim.maxNotional = near(worst.mul(mark).mul(mult), step.mul(mark).mul(mult));
        const state: RiskState = { ...state0, limits: { ...state0.limits, strategies: { [intent.strategyId]: lim } } };
        const want = reference(intent, inst, state);
        expect(strategyLimitsRule(intent, inst, state)).to.deep.equal(want);
        const proposals = proposedOrders(intent, inst, state);
        if (clearlyWithinStrategyLimits(intent, proposals, inst, state, lim)) {
          screened++;
          expect(want, 'the screen passed a set the formula denies').to.equal(undefined);
        }
      }),
      { numRuns: 3000 },
    );
    // The screen decides a good share of the sets (else it would be a test of the exact path alone).
    expect(screened).to.be.greaterThan(300);
  });
});
