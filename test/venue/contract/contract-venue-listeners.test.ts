/**
 * Event delivery when a listener throws (issue 12): the contract venue follows the spot venue's rule
 * (src/venue/listener-failures.ts) — the other listeners still get every event of the command, the
 * command's state change stands, and the first error reaches the caller once the queue is empty.
 * Before, the contract flush stopped at the throw and left the rest for the next command's flush.
 */
import { expect } from 'chai';
import { PositionMode } from '../../../src/domain/contract-enums.js';
import type { ContractVenueEvent } from '../../../src/venue/contract/contract-events.js';
import { makeKit, order, placed, S } from './contract-test-kit.js';

describe('ContractVenue event delivery with a throwing listener', () => {
  function funded() {
    const kit = makeKit();
    for (const a of ['maker', 'taker']) {
      kit.venue.openAccount(a, PositionMode.HEDGED);
      kit.venue.deposit(a, 'USDT', 100_000);
    }
    return kit;
  }

  it('keeps_delivering_to_the_other_listeners_and_rethrows_the_first_error_after_the_queue', () => {
    // The expected events are those of the same commands on a venue whose only extra listener is quiet.
    const quiet = funded();
    placed(quiet.venue, 'maker', { side: S.OPEN_SHORT, price: 50000, vol: 5 });
    const from = quiet.events.length;
    placed(quiet.venue, 'taker', { side: S.OPEN_LONG, price: 50000, vol: 5 });
    const expected = quiet.events.slice(from).map((e) => e.type);
    expect(expected).to.include.members(['OrderAccepted', 'TradeExecuted', 'OrderFilled', 'PositionChanged']);

    const kit = funded();
    placed(kit.venue, 'maker', { side: S.OPEN_SHORT, price: 50000, vol: 5 });
    const failures: string[] = [];
    kit.venue.on((e) => {
      failures.push(e.type);
      throw new Error(`listener failed on ${e.type}`);
    });
    const seen: ContractVenueEvent[] = [];
    kit.venue.on((e) => seen.push(e));
    expect(() => order(kit.venue, 'taker', { side: S.OPEN_LONG, price: 50000, vol: 5 })).to.throw('listener failed on OrderAccepted');
    // Every event reached the second listener, and the throwing one was still called for each.
    expect(seen.map((e) => e.type)).to.deep.equal(expected);
    expect(failures).to.deep.equal(expected);
    // The command itself happened: the taker holds the position.
    expect(kit.venue.openPositions('taker').map((p) => p.holdVol.toString())).to.deep.equal(['5']);
    // Nothing is left queued for the next command, which delivers only its own events.
    seen.length = 0;
    expect(() => kit.venue.deposit('taker', 'USDT', 1)).to.throw('listener failed on FundsTransferred');
    expect(seen.map((e) => e.type)).to.deep.equal(['FundsTransferred']);
  });
});
