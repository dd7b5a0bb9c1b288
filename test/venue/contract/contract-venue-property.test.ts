import { expect } from 'chai';
import fc from 'fast-check';
import { Decimal } from '../../../src/core/decimal.js';
import { PositionMode } from '../../../src/domain/contract-enums.js';
import { makeKit, SYMBOL, testInstrument } from './contract-test-kit.js';
import { ACCOUNTS, apply, opArb } from './venue-ops.js';

/** Event counts over all runs: the generator must really trade and liquidate, or the property is vacuous. */
const STATS: Record<string, number> = {};

describe('ContractVenue properties', () => {
  it('keeps_every_invariant_over_random_command_sequences', function () {
    this.timeout(120_000);
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 30, maxLength: 150 }), (ops) => {
        const kit = makeKit({ enforcePriceBand: false }, testInstrument({ maxNumOrders: [40, 30] }));
        const { venue, clock } = kit;
        for (const a of ACCOUNTS) {
          venue.openAccount(a, a.startsWith('o') ? PositionMode.ONE_WAY : PositionMode.HEDGED);
          venue.deposit(a, 'USDT', 20000);
        }
        const state = { fair: new Decimal(50000), hour: 0 };
        venue.setFairPrice(SYMBOL, state.fair);
        for (const op of ops) {
          apply(venue, op, state, clock);
          const problems = [...kit.problems, ...venue.checkInvariants()];
          if (problems.length > 0) throw new Error(`after ${JSON.stringify(op)}: ${problems.slice(0, 5).join('; ')}`);
        }
        for (const e of kit.events) STATS[e.type] = (STATS[e.type] ?? 0) + 1;
      }),
      { numRuns: 300, seed: 20240611, endOnFailure: true },
    );
    expect(STATS.TradeExecuted ?? 0).to.be.greaterThan(300);
    expect(STATS.PositionLiquidated ?? 0).to.be.greaterThan(30);
    expect(STATS.FundingSettled ?? 0).to.be.greaterThan(100);
    expect(STATS.OrderAmended ?? 0).to.be.greaterThan(50);
  });

  it('replays_random_sequences_to_identical_results', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 40 }), (ops) => {
        const run = (): string => {
          const kit = makeKit();
          for (const a of ACCOUNTS) {
            kit.venue.openAccount(a, a.startsWith('o') ? PositionMode.ONE_WAY : PositionMode.HEDGED);
            kit.venue.deposit(a, 'USDT', 20000);
          }
          const state = { fair: new Decimal(50000), hour: 0 };
          kit.venue.setFairPrice(SYMBOL, state.fair);
          for (const op of ops) apply(kit.venue, op, state, kit.clock);
          return JSON.stringify(kit.events);
        };
        expect(run()).to.equal(run());
      }),
      { numRuns: 40, seed: 7 },
    );
  });
});
