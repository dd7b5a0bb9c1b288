import { expect } from 'chai';
import fc from 'fast-check';
import { VirtualClock } from '../../src/core/clock.js';
import { ConfigError, ValidationError } from '../../src/core/errors.js';
import { strategyId } from '../../src/core/ids.js';
import {
  CLIENT_ID_KINDS,
  CLIENT_ID_MAX_LENGTH,
  ClientIdCodec,
  type ClientIdKind,
  decodeClientId,
  defaultStrategyTag,
  encodeClientId,
  VENUE_CLIENT_ID_LIMITS,
} from '../../src/domain/client-id-codec.js';

describe('ClientIdCodec', () => {
  it('round_trips_strategy_kind_slot_and_stamp', () => {
    const id = encodeClientId('mmbtc', 'quote', 1_767_204_000_000, 5, 'b0');
    expect(decodeClientId(id)).to.deep.equal({ tag: 'mmbtc', kind: 'quote', slot: 'b0', time: 1_767_204_000_000, counter: 5 });
  });

  it('round_trips_any_valid_parts', () => {
    const kinds = Object.keys(CLIENT_ID_KINDS) as ClientIdKind[];
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z0-9]{1,8}$/),
        fc.constantFrom(...kinds),
        fc.option(fc.stringMatching(/^[a-z0-9]{1,3}$/), { nil: undefined }),
        fc.integer({ min: 0, max: 36 ** 9 - 1 }),
        fc.integer({ min: 0, max: 1295 }),
        (tag, kind, slot, time, counter) => {
          const id = encodeClientId(tag, kind, time, counter, slot);
          expect(id.length).to.be.at.most(CLIENT_ID_MAX_LENGTH);
          expect(id).to.match(/^[a-z0-9_]+$/);
          expect(decodeClientId(id)).to.deep.equal({ tag, kind, ...(slot ? { slot } : {}), time, counter });
        },
      ),
      { seed: 1101, numRuns: 500 },
    );
  });

  it('longest_id_fits_the_assumed_venue_limits', () => {
    const id = encodeClientId('abcdefgh', 'quote', 36 ** 9 - 1, 1295, 'zzz');
    // pp + 8 + _ + q + 3 + _ + 11 = 27
    expect(id.length).to.equal(27);
    expect(id.length).to.be.at.most(VENUE_CLIENT_ID_LIMITS.spot);
    expect(id.length).to.be.at.most(VENUE_CLIENT_ID_LIMITS.contract);
  });

  it('refuses_a_venue_whose_limit_is_shorter_than_its_ids', () => {
    expect(() => new ClientIdCodec(new VirtualClock(0), 20)).to.throw(ConfigError);
  });

  it('does_not_claim_ids_that_are_not_ours', () => {
    for (const foreign of ['', 'hio8279hbdsds', '123456', '_m_f95eb99b061d4eef8f64a04e9ac4dad3', 'ppmm_q_short', 'ppmm_x_0000000000000']) {
      expect(decodeClientId(foreign), foreign).to.equal(undefined);
    }
  });

  it('attributes_an_id_to_its_registered_strategy_only', () => {
    const clock = new VirtualClock(1_000);
    const codec = new ClientIdCodec(clock);
    codec.register(strategyId('mm-btc'));
    const id = codec.next(strategyId('mm-btc'), 'place');
    expect(codec.strategyOf(id)).to.equal('mm-btc');
    const stranger = encodeClientId('nobody', 'place', 1, 0);
    expect(codec.strategyOf(stranger)).to.equal(undefined);
  });

  it('issues_strictly_increasing_ids_within_one_millisecond_and_when_the_clock_steps_back', () => {
    const clock = new VirtualClock(5_000);
    const codec = new ClientIdCodec(clock);
    codec.register(strategyId('s'), 's');
    const a = decodeClientId(codec.next(strategyId('s'), 'place'))!;
    const b = decodeClientId(codec.next(strategyId('s'), 'place'))!;
    expect([a.time, a.counter, b.time, b.counter]).to.deep.equal([5_000, 0, 5_000, 1]);
    const behind = new ClientIdCodec({ now: () => 4_000 });
    behind.register(strategyId('s'), 's');
    behind.observe(codec.next(strategyId('s'), 'place'));
    const c = decodeClientId(behind.next(strategyId('s'), 'place'))!;
    // floor was (5000, 2): next is (5000, 3) although the clock reads 4000
    expect([c.time, c.counter]).to.deep.equal([5_000, 3]);
  });

  it('rolls_to_the_next_millisecond_after_1296_ids', () => {
    const codec = new ClientIdCodec({ now: () => 7 });
    codec.register(strategyId('s'), 's');
    let last;
    for (let i = 0; i < 1297; i++) last = decodeClientId(codec.next(strategyId('s'), 'quote', 'a0'))!;
    expect([last!.time, last!.counter]).to.deep.equal([8, 0]);
  });

  it('refuses_two_strategies_on_one_tag', () => {
    const codec = new ClientIdCodec({ now: () => 0 });
    codec.register(strategyId('mm-btc-1'));
    expect(() => codec.register(strategyId('mm_btc_1'))).to.throw(ConfigError, /mmbtc1/);
  });

  it('refuses_an_unregistered_strategy_and_bad_parts', () => {
    const codec = new ClientIdCodec({ now: () => 0 });
    expect(() => codec.next(strategyId('ghost'), 'place')).to.throw(ValidationError);
    expect(() => encodeClientId('Upper', 'place', 0, 0)).to.throw(ValidationError);
    expect(() => encodeClientId('ok', 'place', 0, 0, 'toolong')).to.throw(ValidationError);
    expect(() => defaultStrategyTag('---')).to.throw(ConfigError);
  });
});
