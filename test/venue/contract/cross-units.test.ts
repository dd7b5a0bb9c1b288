/**
 * VenueMoney.crossUnits — the cross equity and maintenance a cross position's view reads, summed in
 * ledger units — against crossOf, the Decimal sums it stands in for, exactly (not only after the view
 * rounds the ratio to 4 places): over random trades of three cross accounts (one-way and hedged), with
 * the fair price unset (marks are the last trade), on the tick, or off it (then crossUnits must stand
 * aside), and odd amounts deposited (a wallet finer than the units must stand aside too).
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { Decimal } from '../../../src/core/decimal.js';
import { VirtualClock } from '../../../src/core/clock.js';
import { ContractOrderType, ContractSide, OpenType, PositionMode } from '../../../src/domain/contract-enums.js';
import { ContractVenue } from '../../../src/venue/contract/contract-venue.js';
import type { VenueMoney } from '../../../src/venue/contract/venue-money.js';
import type { ContractVenueState } from '../../../src/venue/contract/contract-venue-state.js';
import { amountToUnits } from '../../../src/venue/ledger/ledger-units.js';
import { SYMBOL, testInstrument } from './contract-test-kit.js';

const ACCOUNTS = ['a', 'b', 'c'] as const;

const op = fc.record({
  maker: fc.constantFrom(...ACCOUNTS),
  taker: fc.constantFrom(...ACCOUNTS),
  makerBuys: fc.boolean(),
  ticks: fc.integer({ min: 499_000, max: 501_000 }),
  lots: fc.integer({ min: 1, max: 300 }),
  fair: fc.constantFrom('none', 'on', 'off'),
  deposit: fc.constantFrom('0', '0.000000000000000000001', '123.456'),
});

type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

/** Plays `ops` on a fresh venue of three cross accounts, calling `check` with each account after each op. */
function play(ops: readonly Op[], hedged: boolean, check: (inside: { money: VenueMoney; s: ContractVenueState }, a: string) => void): void {
  const venue = new ContractVenue({
    clock: new VirtualClock(0),
    instruments: [testInstrument()],
    autoFunding: false,
    enforcePriceBand: false,
  });
  const inside = venue as unknown as { money: VenueMoney; s: ContractVenueState };
  for (const a of ACCOUNTS) {
    venue.openAccount(a, a === 'c' && hedged ? PositionMode.HEDGED : PositionMode.ONE_WAY);
    venue.deposit(a, 'USDT', '1000000');
  }
  for (const o of ops) {
    if (o.fair !== 'none') venue.setFairPrice(SYMBOL, new Decimal(o.ticks).div(10).add(o.fair === 'off' ? '0.03' : '0'));
    if (o.deposit !== '0') venue.deposit(o.maker, 'USDT', o.deposit);
    const price = new Decimal(o.ticks).div(10);
    const place = (acct: string, buy: boolean): void =>
      void venue.placeOrder(acct, {
        symbol: SYMBOL,
        side: buy ? ContractSide.OPEN_LONG : ContractSide.OPEN_SHORT,
        type: ContractOrderType.LIMIT,
        price,
        vol: o.lots,
        leverage: 20,
        openType: OpenType.CROSS,
      });
    place(o.maker, o.makerBuys);
    place(o.taker, !o.makerBuys);
    for (const a of ACCOUNTS) check(inside, a);
  }
}

describe('cross-units', () => {
  it('crossUnits_is_crossOf_in_units_or_stands_aside', function () {
    this.timeout(60_000);
    let compared = 0;
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 25 }), fc.boolean(), (ops, hedged) => {
        play(ops, hedged, (inside, a) => {
          const acct = inside.s.accounts.get(a)!;
          const u = inside.money.crossUnits(acct, 'USDT');
          const c = inside.money.crossOf(acct, 'USDT');
          if (u === undefined) return;
          compared++;
          expect(u.equity, `equity of ${a}`).to.equal(amountToUnits(c.equity));
          expect(u.maintenance, `maintenance of ${a}`).to.equal(amountToUnits(c.maintenance));
        });
      }),
      { numRuns: 100 },
    );
    expect(compared).to.be.greaterThan(400);
  });

  it('crossParts_are_crossUnits_in_two_parts_or_stand_aside', function () {
    this.timeout(60_000);
    let compared = 0;
    let aside = 0;
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 25 }), fc.boolean(), (ops, hedged) => {
        play(ops, hedged, (inside, a) => {
          const acct = inside.s.accounts.get(a)!;
          const parts = inside.money.crossParts(acct, 'USDT');
          if (parts === undefined) {
            aside++;
            return;
          }
          compared++;
          const u = inside.money.crossUnits(acct, 'USDT');
          expect(u, `crossUnits of ${a}`).to.not.equal(undefined);
          expect(parts.units(), `figures of ${a}`).to.deep.equal(u);
        });
      }),
      { numRuns: 100 },
    );
    // Most moments are in two parts (the fill path's grains); odd deposits and off-tick marks stand aside.
    expect(compared).to.be.greaterThan(400);
    expect(aside).to.be.greaterThan(0);
  });
});
