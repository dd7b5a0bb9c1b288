import { expect } from 'chai';
import { D } from '../../../src/core/decimal.js';
import { VirtualClock } from '../../../src/core/clock.js';
import { CounterIds } from '../../../src/venue/spot/counter-ids.js';
import { SeqStore } from '../../../src/venue/spot/seq-store.js';
import { StpGroups, stpActionOf } from '../../../src/venue/spot/stp-groups.js';
import { StpAction } from '../../../src/venue/book/order-book.js';
import { withinBand, checkOrderType } from '../../../src/venue/spot/spot-filters.js';
import { compileSpotMarket } from '../../../src/venue/spot/spot-market.js';
import { SpotVenue } from '../../../src/venue/spot/spot-venue.js';
import { btcUsdt } from './spot-fixtures.js';

describe('CounterIds', () => {
  it('formats_and_parses_its_own_ids_only', () => {
    const ids = new CounterIds('C02__', 7);
    expect(ids.peek()).to.equal('C02__7');
    expect(ids.take()).to.equal('C02__7');
    expect(ids.nextSeq()).to.equal(8);
    expect(ids.parse('C02__8')).to.equal(8);
    expect(ids.parse('C02__08')).to.equal(undefined);
    expect(ids.parse('X02__8')).to.equal(undefined);
    expect(ids.parse('C02__')).to.equal(undefined);
    expect(ids.parse('C02__1e3')).to.equal(undefined);
    expect(ids.parse('C02__12345678901234567')).to.equal(undefined);
  });
});

describe('SeqStore', () => {
  it('stores_by_counter_and_compacts_leading_holes', () => {
    const s = new SeqStore<string>();
    s.set(10, 'a');
    s.set(11, 'b');
    s.set(13, 'd');
    expect([s.get(10), s.get(12), s.get(13), s.get(9), s.size]).to.deep.equal(['a', undefined, 'd', undefined, 3]);
    expect(s.delete(10)).to.equal(true);
    expect(s.delete(10)).to.equal(false);
    s.compact();
    expect([s.get(11), s.get(13), s.size, [...s.values()]]).to.deep.equal(['b', 'd', 2, ['b', 'd']]);
    expect(() => s.set(3, 'x')).to.throw(RangeError);
  });
});

describe('StpGroups', () => {
  it('matches_accounts_sharing_a_group_and_self_only_inside_a_group', () => {
    const g = new StpGroups();
    g.join('a', 'G1');
    g.join('b', 'G1');
    g.join('c', 'G2');
    expect([g.sameGroup('a', 'b'), g.sameGroup('a', 'c'), g.sameGroup('a', 'a'), g.sameGroup('z', 'z')]).to.deep.equal([
      true,
      false,
      true,
      false,
    ]);
    g.removeGroup('G1');
    expect([g.sameGroup('a', 'b'), g.groupsOf('a')]).to.deep.equal([false, []]);
  });

  it('maps_modes_to_book_actions', () => {
    expect(['', 'cancel_maker', 'cancel_taker', 'cancel_both'].map((m) => stpActionOf(m as never))).to.deep.equal([
      StpAction.Trade,
      StpAction.CancelMaker,
      StpAction.CancelTaker,
      StpAction.CancelBoth,
    ]);
  });
});

describe('spot filters', () => {
  it('reads_band_multipliers_below_one_as_fractions', () => {
    const m = compileSpotMarket(btcUsdt({ percentPriceBySide: { bidMultiplierUp: D('0.005'), askMultiplierDown: D('0.2') } }));
    // last 10000 ticks: buy ≤ 10050, sell ≥ 8000
    expect(withinBand('BUY', 10050, 10000, m.bidBand)).to.equal(true);
    expect(withinBand('BUY', 10051, 10000, m.bidBand)).to.equal(false);
    expect(withinBand('SELL', 8000, 10000, m.askBand)).to.equal(true);
    expect(withinBand('SELL', 7999, 10000, m.askBand)).to.equal(false);
    expect(withinBand('SELL', 1, 10000, undefined)).to.equal(true);
  });

  it('lets_ioc_and_fok_follow_limit', () => {
    const m = compileSpotMarket(btcUsdt({ orderTypes: ['LIMIT'] }));
    expect(checkOrderType(m, 'FILL_OR_KILL')).to.equal(undefined);
    expect(checkOrderType(m, 'MARKET')!.code).to.equal(30019);
  });

  it('compiles_integer_units_of_a_symbol', () => {
    const m = compileSpotMarket(btcUsdt());
    // step 0.0001 = 10^14 units; tick·step = 0.000001 = 10^12 units; min qty 0.0001 = 1 lot
    expect([m.baseUnitsPerLot, m.quoteUnitsPerTickLot, m.minLots, m.amountStepUnits]).to.deep.equal([
      10n ** 14n,
      10n ** 12n,
      1,
      10n ** 16n,
    ]);
  });
});

describe('SpotVenue instruments', () => {
  it('updates_rules_but_refuses_a_tick_change', () => {
    const venue = new SpotVenue({ clock: new VirtualClock(0), instruments: [btcUsdt()] });
    venue.addInstrument(btcUsdt({ status: '2' }));
    expect(venue.instrument('BTCUSDT')!.status).to.equal('2');
    expect(() => venue.addInstrument(btcUsdt({ tick: D('0.1') }))).to.throw(RangeError);
  });
});
