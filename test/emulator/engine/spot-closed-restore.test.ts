/**
 * The spot venue keeps each account's closed orders in the order they closed (`closed`), so its
 * retention sweep drops expired ones from the front. A snapshot written before that list existed has
 * accounts without it (and a restore deletes the fresh account's fields the snapshot did not write):
 * the venue rebuilds it from the history after the restore, and sweeps exactly as a venue that never
 * went through a snapshot.
 */
import { expect } from 'chai';
import { VirtualClock } from '../../../src/core/clock.js';
import { decodeGraph, encodeGraph, restoreGraph } from '../../../src/emulator/engine/object-graph.js';
import { engineCodec } from '../../../src/emulator/engine/snapshot-classes.js';
import { SpotVenue, type SpotAccountState } from '../../../src/venue/spot/spot-venue.js';
import { btcUsdt } from '../../venue/spot/spot-fixtures.js';

const venueAt = (clock: VirtualClock): SpotVenue =>
  new SpotVenue({ clock, instruments: [btcUsdt()], orderRetentionMs: 1_000, pruneEveryCommands: 0 });
const accountsOf = (v: SpotVenue): Map<string, SpotAccountState> => (v as unknown as { accounts: Map<string, SpotAccountState> }).accounts;

/** Orders that rest, fill and get cancelled, 300 ms apart; returns the ids. */
function trade(v: SpotVenue, clock: VirtualClock): string[] {
  const ids: string[] = [];
  for (const a of ['maker', 'taker']) {
    v.deposit(a, 'USDT', '1000000');
    v.deposit(a, 'BTC', '100');
  }
  const place = (accountId: string, side: 'BUY' | 'SELL', priceTicks: number) => {
    const r = v.placeOrderUnits({
      accountId,
      symbol: 'BTCUSDT',
      side,
      type: 'LIMIT',
      priceTicks,
      lots: 1000,
      clientOrderId: `c${ids.length}`,
    });
    if (!r.ok) throw new Error(JSON.stringify(r));
    ids.push(r.order.orderId);
    clock.advanceBy(300);
  };
  place('maker', 'SELL', 10000);
  place('taker', 'BUY', 10000); // fills both
  place('maker', 'SELL', 10100); // rests
  place('maker', 'BUY', 9000);
  v.cancelOrder('maker', 'BTCUSDT', { orderId: ids[3]! });
  clock.advanceBy(300);
  place('taker', 'BUY', 9500); // rests
  return ids;
}

/** Each id as each account gets it, and each account's allOrders, as ids and statuses. */
const answers = (v: SpotVenue, ids: readonly string[]) =>
  ['maker', 'taker'].flatMap((a) => [
    ...ids.map((orderId) => {
      const g = v.getOrder(a, 'BTCUSDT', { orderId });
      return g.ok ? [g.order.orderId, g.order.status] : g.code;
    }),
    v.allOrders(a, 'BTCUSDT', { startTime: 0 }).map((o) => [o.orderId, o.status, o.updateTime]),
  ]);

describe('emulator snapshot: the spot venue closed-order list', () => {
  it('rebuilds_the_list_after_restoring_a_snapshot_written_without_it_and_sweeps_as_before', () => {
    const clockA = new VirtualClock(1_000_000);
    const kept = venueAt(clockA);
    const ids = trade(kept, clockA);

    const clockB = new VirtualClock(1_000_000);
    const written = venueAt(clockB);
    trade(written, clockB);
    // What a build before the list wrote: accounts without its fields.
    for (const acct of accountsOf(written).values()) {
      delete (acct as Partial<SpotAccountState>).closed;
      delete (acct as Partial<SpotAccountState>).closedUnsorted;
    }
    const snapshot = encodeGraph(written, engineCodec(), new Set([clockB]));
    const fresh = venueAt(clockB);
    restoreGraph(fresh, decodeGraph(snapshot, engineCodec()), engineCodec());

    expect(fresh.checkInvariants()).to.deep.equal([]);
    expect(
      accountsOf(fresh)
        .get('maker')!
        .closed.map((o) => o.orderId),
    ).to.have.members([ids[0], ids[3]]);
    for (const step of [200, 400, 600, 2_000]) {
      clockA.advanceBy(step);
      clockB.advanceBy(step);
      kept.pruneHistory();
      fresh.pruneHistory();
      expect(answers(fresh, ids)).to.deep.equal(answers(kept, ids));
      expect(fresh.checkInvariants()).to.deep.equal([]);
    }
    // In the end only the two resting orders are left.
    expect(fresh.allOrders('maker', 'BTCUSDT', { startTime: 0 }).map((o) => o.orderId)).to.deep.equal([ids[2]]);
    expect(fresh.allOrders('taker', 'BTCUSDT', { startTime: 0 }).map((o) => o.orderId)).to.deep.equal([ids[4]]);
  });
});
