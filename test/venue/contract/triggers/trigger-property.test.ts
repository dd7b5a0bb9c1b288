import { expect } from 'chai';
import fc from 'fast-check';
import { Decimal } from '../../../../src/core/decimal.js';
import { PositionMode } from '../../../../src/domain/contract-enums.js';
import { makeKit, SYMBOL, testInstrument } from '../contract-test-kit.js';
import { ACCOUNTS, apply, opArb } from './trigger-ops.js';

const STATS: Record<string, number> = {};
const count = (k: string): void => {
  STATS[k] = (STATS[k] ?? 0) + 1;
};

describe('contract venue: trigger orders under random command sequences', () => {
  it('keeps_venue_and_trigger_invariants_after_every_event', function () {
    this.timeout(120_000);
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 30, maxLength: 120 }), (ops) => {
        const kit = makeKit({ autoFunding: false, enforcePriceBand: false }, testInstrument({ maxNumOrders: [60, 60] }));
        const { venue, clock } = kit;
        for (const a of ACCOUNTS) {
          venue.openAccount(a, a.startsWith('o') ? PositionMode.ONE_WAY : PositionMode.HEDGED);
          venue.deposit(a, 'USDT', a === 'mm' ? 10_000_000 : 20_000);
        }
        const s = { mark: new Decimal(50000) };
        venue.setFairPrice(SYMBOL, s.mark);
        venue.setIndexPrice(SYMBOL, s.mark);
        for (const op of ops) {
          apply(venue, op, s, (ms) => clock.advanceBy(ms));
          const problems = [...kit.problems, ...venue.checkInvariants()];
          if (problems.length > 0) throw new Error(`after ${JSON.stringify(op)}: ${problems.slice(0, 5).join('; ')}`);
        }
        for (const e of kit.events) {
          if (e.type === 'StopOrderChanged' && e.stopOrder.isFinished === 1) count(`stop:${e.stopOrder.state}`);
          if (e.type === 'StopOrderChanged' && e.stopOrder.reverseTryTimes > 0 && e.stopOrder.reverseErrorCode === 0) count('reversed');
          if (e.type === 'PlanOrderChanged' && e.planOrder.state !== 1) count(`plan:${e.planOrder.state}`);
          if (e.type === 'TrackOrderChanged' && e.trackOrder.state >= 2) count(`track:${e.trackOrder.state}`);
        }
      }),
      { numRuns: 150, seed: 20261121, endOnFailure: true },
    );
    // The generator must really fire every kind, or the property says little.
    for (const k of ['stop:3', 'stop:4', 'stop:2', 'plan:3', 'plan:4', 'track:2', 'track:3', 'reversed'])
      expect(STATS[k] ?? 0, `${k} in ${JSON.stringify(STATS)}`).to.be.greaterThan(5);
  });

  it('replays_random_sequences_to_identical_events', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 60 }), (ops) => {
        const run = (): string => {
          const kit = makeKit({ autoFunding: false });
          for (const a of ACCOUNTS) {
            kit.venue.openAccount(a, a.startsWith('o') ? PositionMode.ONE_WAY : PositionMode.HEDGED);
            kit.venue.deposit(a, 'USDT', a === 'mm' ? 10_000_000 : 20_000);
          }
          const s = { mark: new Decimal(50000) };
          kit.venue.setFairPrice(SYMBOL, s.mark);
          kit.venue.setIndexPrice(SYMBOL, s.mark);
          for (const op of ops) apply(kit.venue, op, s, (ms) => kit.clock.advanceBy(ms));
          return JSON.stringify(kit.events);
        };
        expect(run()).to.equal(run());
      }),
      { numRuns: 30, seed: 11 },
    );
  });
});
