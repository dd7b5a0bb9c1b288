import { expect } from 'chai';
import {
  ceilKlineOpenTime,
  fromContractInterval,
  klineOpenTime,
  nextKlineOpenTime,
  prevKlineOpenTime,
  stepBackKlines,
} from '../../src/domain/kline-interval.js';

describe('kline-interval', () => {
  it('opens_weeks_on_monday_utc', () => {
    // 2024-01-07 is a Sunday, 2024-01-08 a Monday (1704672000000), 2024-01-01 the Monday before.
    expect(klineOpenTime('1W', Date.UTC(2024, 0, 7, 23, 59, 59, 999))).to.equal(Date.UTC(2024, 0, 1));
    expect(klineOpenTime('1W', Date.UTC(2024, 0, 8))).to.equal(1704672000000);
    expect(nextKlineOpenTime('1W', Date.UTC(2024, 0, 1))).to.equal(1704672000000);
    // The epoch (a Thursday) belongs to the week opening Monday 1969-12-29 = −3 days.
    expect(klineOpenTime('1W', 0)).to.equal(-3 * 86_400_000);
  });

  it('opens_months_on_the_first_and_handles_leap_february', () => {
    expect(klineOpenTime('1M', Date.UTC(2024, 1, 29, 12))).to.equal(Date.UTC(2024, 1, 1));
    expect(nextKlineOpenTime('1M', Date.UTC(2024, 1, 1))).to.equal(Date.UTC(2024, 2, 1));
    expect(nextKlineOpenTime('1M', Date.UTC(2024, 11, 1))).to.equal(Date.UTC(2025, 0, 1));
    expect(prevKlineOpenTime('1M', Date.UTC(2024, 0, 1))).to.equal(Date.UTC(2023, 11, 1));
    expect(stepBackKlines('1M', Date.UTC(2024, 2, 1), 14)).to.equal(Date.UTC(2023, 0, 1));
  });

  it('aligns_fixed_intervals_to_utc_midnight', () => {
    // 13:37 → 4h bar opens 12:00, 8h bar 08:00, 1d bar 00:00.
    const t = Date.UTC(2024, 4, 5, 13, 37, 12);
    expect(klineOpenTime('4h', t)).to.equal(Date.UTC(2024, 4, 5, 12));
    expect(klineOpenTime(fromContractInterval('Hour8'), t)).to.equal(Date.UTC(2024, 4, 5, 8));
    expect(klineOpenTime('1d', t)).to.equal(Date.UTC(2024, 4, 5));
    expect(klineOpenTime('15m', t)).to.equal(Date.UTC(2024, 4, 5, 13, 30));
  });

  it('ceils_to_the_next_open_unless_on_a_boundary', () => {
    expect(ceilKlineOpenTime('5m', Date.UTC(2024, 0, 1, 0, 5))).to.equal(Date.UTC(2024, 0, 1, 0, 5));
    expect(ceilKlineOpenTime('5m', Date.UTC(2024, 0, 1, 0, 5, 1))).to.equal(Date.UTC(2024, 0, 1, 0, 10));
  });
});
