/**
 * CappedLog (contract-state.ts) against the array rule it replaces in the venue's account histories,
 * pushCapped (venue-keys.ts: push, then shift the oldest past the limit): the same items in the same
 * order, the same item dropped by each push, over random limits (0 included: the emulator's crowd keeps
 * none) and long enough runs to pass its compaction several times.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { CappedLog } from '../../../src/venue/contract/contract-state.js';
import { pushCapped } from '../../../src/venue/contract/venue-keys.js';

describe('capped-log', () => {
  it('keeps_and_drops_what_push_and_shift_keep_and_drop', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 0, max: 6000 }), (limit, pushes) => {
        const log = new CappedLog<number>();
        const array: number[] = [];
        for (let i = 0; i < pushes; i++) {
          expect(log.push(i, limit)).to.equal(pushCapped(array, i, limit));
          if (i % 997 === 0 || i === pushes - 1) {
            expect(log.length).to.equal(array.length);
            expect([...log]).to.deep.equal(array);
            for (const k of [-1, 0, array.length - 1, array.length]) expect(log.at(k)).to.equal(array.at(k === -1 ? array.length : k));
          }
        }
      }),
      { numRuns: 60 },
    );
  });
});
