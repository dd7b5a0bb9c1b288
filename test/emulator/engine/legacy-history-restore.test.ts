/**
 * A snapshot written before the contract venue kept its accounts' final orders and fills in rows
 * (OrderHistory, FillLog) must still restore: there, each account's `history` and `fills` are CappedLogs
 * of the records themselves and the order index's pages hold the final orders in their slots (pages
 * without `positions`). The restore keeps those orders whole in a history made of them and puts the
 * fills into a FillLog (AccountState.reviveAfterSnapshot); every read
 * answers as on a venue never snapshotted, and both go on identically, past the history limit, where
 * the restored orders are dropped and forgotten by the index.
 *
 * The old layout is made from a running venue by putting its final orders back where the build before
 * the columns kept them, then written by the real codec.
 */
import { expect } from 'chai';
import { VirtualClock } from '../../../src/core/clock.js';
import { PositionMode } from '../../../src/domain/contract-enums.js';
import { decodeGraph, encodeGraph, restoreGraph } from '../../../src/emulator/engine/object-graph.js';
import { engineCodec } from '../../../src/emulator/engine/snapshot-classes.js';
import { ContractVenue } from '../../../src/venue/contract/contract-venue.js';
import { CappedLog, OrderPage, type FillRecord, type OrderState } from '../../../src/venue/contract/contract-state.js';
import { FillLog } from '../../../src/venue/contract/fill-log.js';
import type { ContractVenueState } from '../../../src/venue/contract/contract-venue-state.js';
import { OrderHistory } from '../../../src/venue/contract/order-history.js';
import { order, S, SYMBOL, T, testInstrument } from '../../venue/contract/contract-test-kit.js';

const ACCOUNTS = ['maker', 'taker'] as const;

const venueAt = (clock: VirtualClock): ContractVenue =>
  new ContractVenue({
    clock,
    instruments: [testInstrument()],
    insuranceFund: { USDT: '1000' },
    fundingIntervalMs: 3_600_000,
    historyLimit: 7,
  });

const stateOf = (v: ContractVenue): ContractVenueState => (v as unknown as { s: ContractVenueState }).s;

/** Round `r` of a command stream: rests, fills, cancels by id and by external id, IOC remainders, an order refused for its size (recorded invalid). */
function round(v: ContractVenue, clock: VirtualClock, r: number): void {
  clock.advanceTo(clock.now() + 1_000);
  const price = 50_000 + (r % 5) * 10;
  order(v, 'maker', { side: r % 2 ? S.OPEN_SHORT : S.OPEN_LONG, price, vol: 3 + (r % 4), externalOid: `m${r}` });
  order(v, 'taker', { side: r % 2 ? S.OPEN_LONG : S.OPEN_SHORT, price, vol: 2 + (r % 3), type: r % 3 === 0 ? T.IOC : T.LIMIT });
  const open = v.openOrders('maker', { pageSize: 1000 }).resultList;
  if (open.length > 2) v.cancelOrders('maker', [open[open.length - 1]!.orderId]);
  if (r % 4 === 1) v.cancelWithExternal('maker', [{ symbol: SYMBOL, externalOid: `m${r}` }]);
  if (r % 5 === 2) order(v, 'taker', { side: S.OPEN_LONG, price, vol: 100_000 });
}

/** Everything the venue answers about orders and fills, for every id it handed out. */
function reads(v: ContractVenue, rounds: number): unknown {
  const ids = Array.from({ length: rounds * 4 + 4 }, (_, i) => String(i));
  return ACCOUNTS.map((a) => ({
    history: v.historyOrders(a, { pageSize: 1000 }),
    filled: v.historyOrders(a, { pageSize: 1000, states: [3] }),
    open: v.openOrders(a, { pageSize: 1000 }),
    fills: v.fills(a, { pageSize: 1000 }),
    byId: ids.map((id) => v.getOrder(a, id) ?? null),
    ticks: ids.map((id) => v.orderTicks(a, id) ?? null),
    byExternal: Array.from({ length: rounds }, (_, r) => v.getOrderByExternalOid(a, SYMBOL, `m${r}`) ?? null),
    positions: v.openPositions(a),
    assets: v.assets(a),
  }));
}

/** Puts the venue's final orders back where the build before OrderHistory kept them. */
function toOldLayout(v: ContractVenue): void {
  const s = stateOf(v);
  const pages = (s.orders as unknown as { pages: Map<number, OrderPage> }).pages;
  for (const acct of s.accounts.values()) {
    const finals = [...acct.history];
    const log = new CappedLog<OrderState>();
    for (const o of finals) log.push(o, Infinity);
    for (const [n, page] of pages) {
      page.slots.forEach((x, at) => {
        if (x === acct.history) page.slots[at] = finals.find((o) => o.seq === n * 1024 + at);
      });
    }
    (acct as { history: unknown }).history = log;
    const fills = new CappedLog<FillRecord>();
    for (const f of acct.fills) fills.push(f, Infinity);
    (acct as { fills: unknown }).fills = fills;
  }
  for (const page of pages.values()) {
    expect(page.slots.some((x) => x instanceof OrderHistory)).to.equal(false);
    delete (page as { positions?: Float64Array }).positions;
  }
}

describe('emulator snapshot: contract history written before OrderHistory and FillLog', () => {
  it('restores_the_final_orders_of_an_old_snapshot_and_goes_on_as_a_venue_never_snapshotted', () => {
    const clockA = new VirtualClock(1_000);
    const clockB = new VirtualClock(1_000);
    const reference = venueAt(clockA);
    const written = venueAt(clockB);
    for (const v of [reference, written]) {
      for (const a of ACCOUNTS) {
        v.openAccount(a, PositionMode.HEDGED);
        v.deposit(a, 'USDT', 1_000_000);
      }
      v.setFairPrice(SYMBOL, 50_000);
    }
    const first = 12;
    for (let r = 0; r < first; r++) {
      round(reference, clockA, r);
      round(written, clockB, r);
    }
    // Completed, cancelled and invalid orders are in the history written.
    const states = new Set(ACCOUNTS.flatMap((a) => reference.historyOrders(a, { pageSize: 1000 }).resultList.map((o) => o.state)));
    expect([...states].sort()).to.deep.equal([3, 4, 5]);
    // The columns were used (a restore of them is what the other snapshot tests cover).
    expect(stateOf(written).accounts.get('maker')!.history).to.be.instanceOf(OrderHistory);
    toOldLayout(written);
    const snapshot = encodeGraph(written, engineCodec(), new Set([clockB]));

    const restored = venueAt(clockB);
    restoreGraph(restored, decodeGraph(snapshot, engineCodec()), engineCodec());
    const h = stateOf(restored).accounts.get('maker')!.history;
    expect(h).to.be.instanceOf(OrderHistory);
    expect(h.length).to.equal(7);
    expect(stateOf(restored).accounts.get('maker')!.fills).to.be.instanceOf(FillLog);
    expect(reads(restored, first)).to.deep.equal(reads(reference, first));
    expect(restored.checkInvariants()).to.deep.equal([]);

    // On past the limit of 7: every restored order is dropped from the history and the index.
    const total = first + 10;
    for (let r = first; r < total; r++) {
      round(reference, clockA, r);
      round(restored, clockB, r);
      expect(reads(restored, total)).to.deep.equal(reads(reference, total));
    }
    expect(restored.checkInvariants()).to.deep.equal([]);
  });
});
