/**
 * A restored contract venue builds the events its listeners take. The venue counts, per event type,
 * the listeners taking it (an event no listener takes is not built). Listeners are functions: a restore
 * keeps the freshly built graph's. The counts must be kept with them: restored from a snapshot written
 * by an engine with other listeners (an older build, a listener added since), the fresh listener of
 * fills would have heard nothing.
 */
import { expect } from 'chai';
import { VirtualClock } from '../../../src/core/clock.js';
import { PositionMode } from '../../../src/domain/contract-enums.js';
import { decodeGraph, encodeGraph, restoreGraph } from '../../../src/emulator/engine/object-graph.js';
import { engineCodec } from '../../../src/emulator/engine/snapshot-classes.js';
import { ContractVenue } from '../../../src/venue/contract/contract-venue.js';
import type { ContractVenueEventType } from '../../../src/venue/contract/contract-events.js';
import { order, S, SYMBOL, testInstrument } from '../../venue/contract/contract-test-kit.js';

const venueAt = (clock: VirtualClock): ContractVenue =>
  new ContractVenue({ clock, instruments: [testInstrument()], insuranceFund: { USDT: '1000' }, fundingIntervalMs: 3_600_000 });

describe('emulator snapshot: the contract venue listeners', () => {
  it('delivers_to_the_fresh_listeners_after_a_restore_from_a_snapshot_written_without_them', () => {
    const clock = new VirtualClock(1_000);
    const written = venueAt(clock);
    for (const a of ['maker', 'taker']) {
      written.openAccount(a, PositionMode.HEDGED);
      written.deposit(a, 'USDT', 100_000);
    }
    written.setFairPrice(SYMBOL, 50_000);
    // Written while nobody listened (takes nothing), and while a listener of trades only listened.
    const unsubscribe = written.on(() => undefined, ['TradeExecuted']);
    const snapshot = encodeGraph(written, engineCodec(), new Set([clock]));
    unsubscribe();

    const fresh = venueAt(clock);
    const heard: ContractVenueEventType[] = [];
    fresh.on((e) => heard.push(e.type), ['OrderFilled']);
    restoreGraph(fresh, decodeGraph(snapshot, engineCodec()), engineCodec());
    order(fresh, 'maker', { side: S.OPEN_SHORT, price: 50_000, vol: 5 });
    order(fresh, 'taker', { side: S.OPEN_LONG, price: 50_000, vol: 5 });
    // One fill on each side.
    expect(heard).to.deep.equal(['OrderFilled', 'OrderFilled']);
  });
});
