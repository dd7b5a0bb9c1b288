/** One duration syntax for config keys and flags: 90s, 15m, 2h, 1d, 250ms, or plain seconds. */
import { expect } from 'chai';
import { durationFlagSeconds, parseDuration } from '../../src/core/duration.js';

describe('duration', () => {
  it('reads_units_and_plain_seconds', () => {
    expect(['90s', '15m', '2h', '1d', '250ms', '30', '2.5', 45].map(parseDuration)).to.deep.equal([
      90_000, 900_000, 7_200_000, 86_400_000, 250, 30_000, 2_500, 45_000,
    ]);
    expect(['', '0', '-5', '10q', 'm'].map(parseDuration)).to.deep.equal([undefined, undefined, undefined, undefined, undefined]);
  });

  it('flags_take_the_same_syntax_and_name_themselves_when_wrong', () => {
    expect(durationFlagSeconds('--duration', '10m')).to.equal(600);
    expect(durationFlagSeconds('--duration', '8')).to.equal(8);
    expect(() => durationFlagSeconds('--duration', '10q')).to.throw(
      '--duration: expected seconds > 0 or a duration like 90s, 15m, 2h, 1d, received "10q"',
    );
  });
});
