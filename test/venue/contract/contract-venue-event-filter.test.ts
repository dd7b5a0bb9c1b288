/**
 * Type-filtered listeners and lazily built position views of the contract venue (issue 12: the views of
 * events no one reads were most of a listened fill's cost).
 *
 * Expected values come from an independent observer: an unfiltered listener on the same venue (whose
 * events are what the venue delivered before filters existed), or the same command stream run on a
 * second venue whose listener reads every view the moment it is delivered.
 */
import { expect } from 'chai';
import { ContractSide, OpenType, PositionMode } from '../../../src/domain/contract-enums.js';
import { VirtualClock } from '../../../src/core/clock.js';
import { ContractVenue } from '../../../src/venue/contract/contract-venue.js';
import { ContractVenueState } from '../../../src/venue/contract/contract-venue-state.js';
import type { ContractVenueEvent, ContractVenueEventType } from '../../../src/venue/contract/contract-events.js';
import { makeKit, order, S, SYMBOL, testInstrument, type Kit } from './contract-test-kit.js';

/** A stream touching most event types: deposits, resting and crossing orders, a cancel, fair-price moves, funding, a withdrawal. */
function drive(venue: ContractVenue, clockAdvance: (ms: number) => void): void {
  for (const a of ['maker', 'taker']) {
    venue.openAccount(a, PositionMode.HEDGED);
    venue.deposit(a, 'USDT', 100_000);
  }
  venue.setFairPrice(SYMBOL, 50_000);
  order(venue, 'maker', { side: S.OPEN_SHORT, price: 50_000, vol: 5 });
  order(venue, 'maker', { side: S.OPEN_SHORT, price: 50_010, vol: 3 });
  // Fills the first maker order and part of the second: the taker's long is cross, the maker's short isolated.
  order(venue, 'taker', { side: S.OPEN_LONG, price: 50_010, vol: 6, openType: OpenType.CROSS });
  clockAdvance(1_000);
  venue.setFairPrice(SYMBOL, 50_200);
  const resting = order(venue, 'taker', { side: S.OPEN_LONG, price: 49_000, vol: 2, openType: OpenType.CROSS });
  if (resting.ok) venue.cancelOrders('taker', [resting.value.orderId]);
  order(venue, 'taker', { side: S.CLOSE_LONG, price: 49_990, vol: 2, openType: OpenType.CROSS });
  order(venue, 'maker', { side: S.OPEN_LONG, price: 49_990, vol: 2 });
  order(venue, 'taker', { side: 99 as ContractSide, price: 1, vol: 1 }); // refused: an OrderRejected
  venue.setFundingRate(SYMBOL, '0.0005');
  venue.settleFunding(SYMBOL);
  clockAdvance(1_000);
  venue.setFairPrice(SYMBOL, 49_800);
  venue.withdraw('maker', 'USDT', 10);
}

/** Plain data of an event, its views read now (a lazily built view is built by this). */
const plain = (e: ContractVenueEvent): unknown => JSON.parse(JSON.stringify(e)) as unknown;

describe('ContractVenue filtered listeners', () => {
  it('delivers_to_a_filtered_listener_exactly_the_events_of_its_types_in_order', () => {
    const kit = makeKit();
    const sets: ContractVenueEventType[][] = [
      ['OrderFilled'],
      ['TradeExecuted'],
      ['PositionChanged', 'OrderCancelled'],
      ['OrderFilled', 'FundingSettled', 'PositionLiquidated', 'FundsTransferred'],
      ['OrderRejected', 'OrderAccepted'],
    ];
    const got = sets.map(() => [] as ContractVenueEvent[]);
    sets.forEach((types, i) => kit.venue.on((e) => got[i]!.push(e), types));
    drive(kit.venue, (ms) => kit.clock.advanceTo(kit.clock.now() + ms));
    expect(kit.problems).to.deep.equal([]);
    sets.forEach((types, i) => {
      // The same event objects, in the same order, as the unfiltered listener got of those types.
      const expected = kit.events.filter((e) => types.includes(e.type));
      expect(expected.length, types.join()).to.be.greaterThan(0);
      expect(got[i], types.join()).to.have.ordered.members(expected);
    });
  });

  it('gives_a_venue_whose_only_listener_is_filtered_the_same_views_as_an_unfiltered_one', () => {
    // Venue A has only a filtered listener (the kit's venue always has an unfiltered one, so it is built
    // here with the kit's options); venue B is the kit's, whose unfiltered listener builds every event.
    const types: ContractVenueEventType[] = ['OrderFilled', 'PositionChanged', 'FundingSettled', 'TradeExecuted'];
    const clock = new VirtualClock(1_000);
    const a = {
      clock,
      venue: new ContractVenue({ clock, instruments: [testInstrument()], insuranceFund: { USDT: '1000' }, fundingIntervalMs: 3_600_000 }),
    };
    const onlyFiltered: unknown[] = [];
    a.venue.on((e) => onlyFiltered.push(plain(e)), types);
    const b = makeKit();
    drive(a.venue, (ms) => a.clock.advanceTo(a.clock.now() + ms));
    drive(b.venue, (ms) => b.clock.advanceTo(b.clock.now() + ms));
    expect(onlyFiltered).to.deep.equal(b.events.filter((e) => types.includes(e.type)).map(plain));
  });

  it('stops_building_a_type_once_its_last_listener_is_removed_and_removes_only_once', () => {
    const kit = makeKit();
    const fills: string[] = [];
    const stop = kit.venue.on((e) => fills.push(e.fill.tradeId), ['OrderFilled']);
    const other: string[] = [];
    kit.venue.on((e) => other.push(e.fill.tradeId), ['OrderFilled']);
    for (const a of ['maker', 'taker']) {
      kit.venue.openAccount(a, PositionMode.HEDGED);
      kit.venue.deposit(a, 'USDT', 100_000);
    }
    order(kit.venue, 'maker', { side: S.OPEN_SHORT, price: 50_000, vol: 5 });
    order(kit.venue, 'taker', { side: S.OPEN_LONG, price: 50_000, vol: 2 });
    expect(fills).to.have.length(2);
    stop();
    stop(); // a second call must not take the other subscription's count down
    order(kit.venue, 'taker', { side: S.OPEN_LONG, price: 50_000, vol: 1 });
    expect(fills).to.have.length(2);
    expect(other).to.have.length(4);
  });

  it('asks_for_a_type_exactly_while_an_unfiltered_listener_or_one_of_that_type_is_subscribed', () => {
    // wants() answers from the count of unfiltered listeners first (and the hot paths' emitEvent does not ask again).
    const s = new ContractVenueState({ clock: new VirtualClock(0), instruments: [testInstrument()] });
    expect(s.wants('OrderAccepted')).to.equal(false);
    const stopAll = s.addListener(() => undefined);
    const stopFills = s.addListener(() => undefined, ['OrderFilled']);
    expect(s.wants('OrderAccepted')).to.equal(true);
    expect(s.wants('OrderFilled')).to.equal(true);
    stopAll();
    stopAll(); // removes once: the filtered listener's count stays
    expect(s.wants('OrderAccepted')).to.equal(false);
    expect(s.wants('PositionChanged')).to.equal(false);
    expect(s.wants('OrderFilled')).to.equal(true);
    const stopAll2 = s.addListener(() => undefined);
    stopFills();
    expect(s.wants('PositionChanged')).to.equal(true);
    stopAll2();
    expect(s.wants('OrderFilled')).to.equal(false);
  });

  it('refuses_an_unknown_event_type_naming_it_and_the_expected_ones', () => {
    const kit = makeKit();
    expect(() => kit.venue.on(() => undefined, ['OrderFiled' as ContractVenueEventType])).to.throw(
      RangeError,
      /types has "OrderFiled", expected contract venue event types \(OrderAccepted, .*TrackOrderChanged\)/,
    );
  });
});

describe('ContractVenue event views (built when read)', () => {
  function twoVenues(): { now: Kit; late: Kit } {
    return { now: makeKit(), late: makeKit() };
  }

  it('shows_the_order_fill_and_position_at_the_event_even_when_read_after_later_commands', () => {
    // `now` reads every view as it is delivered; `late` (the kit's own list) keeps the events and reads
    // them at the end, after fills, cancels, fair-price moves, funding and a margin change moved on.
    const { now, late } = twoVenues();
    const readNow: unknown[] = [];
    now.venue.on((e) => readNow.push(plain(e)));
    for (const kit of [now, late]) {
      drive(kit.venue, (ms) => kit.clock.advanceTo(kit.clock.now() + ms));
      const held = kit.venue.openPositions('maker');
      // An isolated position's margin changed after its events: its earlier views must not show it.
      const isolated = held.find((p) => p.openType === OpenType.ISOLATED)!;
      expect(kit.venue.changeMargin('maker', { positionId: isolated.positionId, amount: 25, type: 'ADD' }).ok).to.equal(true);
      kit.venue.setFairPrice(SYMBOL, 51_000);
    }
    const readLate = late.events.map(plain);
    expect(readLate).to.deep.equal(readNow);
    // The views differ along the stream (the check is not comparing constants): positions grew and
    // shrank; a fill's order view shows the order as the fill left it (still open: it is completed
    // after its last fill's event), though every order filled here is complete by the end.
    const positions = late.events.filter((e) => e.type === 'PositionChanged');
    expect(new Set(positions.map((e) => e.position.holdVol.toString())).size).to.be.greaterThan(1);
    const states = late.events.flatMap((e) => ('order' in e && e.order ? [`${e.type}:${e.order.state}`] : []));
    expect(states).to.include.members(['OrderAccepted:2', 'OrderFilled:2', 'OrderCancelled:4']);
    const firstFill = late.events.find((e) => e.type === 'OrderFilled')!;
    if (firstFill.type !== 'OrderFilled') throw new Error('unreachable');
    expect(late.venue.getOrder('maker', firstFill.order.orderId)?.state).to.equal(3);
  });

  it('builds_one_view_per_event_for_all_its_listeners', () => {
    const kit = makeKit();
    const first: ContractVenueEvent[] = [];
    kit.venue.on((e) => first.push(e), ['PositionChanged']);
    drive(kit.venue, (ms) => kit.clock.advanceTo(kit.clock.now() + ms));
    const mine = kit.events.filter((e) => e.type === 'PositionChanged');
    expect(mine.length).to.be.greaterThan(0);
    mine.forEach((e, i) => {
      const other = first[i]!;
      expect(other).to.equal(e);
      if (e.type === 'PositionChanged' && other.type === 'PositionChanged') expect(e.position).to.equal(other.position);
    });
  });
});
