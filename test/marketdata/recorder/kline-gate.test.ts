import { expect } from 'chai';
import { D } from '../../../src/core/decimal.js';
import type { Kline } from '../../../src/domain/snapshot.js';
import { KlineGate } from '../../../src/marketdata/recorder/kline-gate.js';

const MIN = 60_000;
const bar = (openTime: number, close: string, withCloseTime = true): Kline => ({
  openTime,
  ...(withCloseTime ? { closeTime: openTime + MIN } : {}),
  open: D('10'),
  high: D('12'),
  low: D('9'),
  close: D(close),
  volume: D('3'),
});
const opens = (out: { bar: Kline }[]): number[] => out.map((x) => x.bar.openTime);

describe('KlineGate', () => {
  it('holds_back_the_newest_bar_until_a_later_bar_appears', () => {
    const g = new KlineGate();
    expect(opens(g.admit('1m', [bar(0, '10'), bar(MIN, '11')], undefined))).to.deep.equal([0]);
    // The open bar changes between polls; it is not written while it is the newest.
    expect(opens(g.admit('1m', [bar(0, '10'), bar(MIN, '11.5')], 5000))).to.deep.equal([]);
    const out = g.admit('1m', [bar(MIN, '11.7'), bar(2 * MIN, '12')], 5000);
    expect(opens(out)).to.deep.equal([MIN]);
    // Its final values, and its close time = the next open.
    expect([out[0]!.bar.close.toFixed(), out[0]!.closeTime]).to.deep.equal(['11.7', 2 * MIN]);
  });

  it('releases_a_lone_bar_once_the_request_was_sent_after_its_close_plus_the_grace', () => {
    const g = new KlineGate(2000);
    // closes at 60 000; sent after 61 999 → within the grace, still maybe open at the venue
    expect(opens(g.admit('1m', [bar(0, '10')], 61_999))).to.deep.equal([]);
    expect(opens(g.admit('1m', [bar(0, '10')], 62_000))).to.deep.equal([0]);
  });

  it('writes_each_bar_once_and_never_one_older_than_the_last_written', () => {
    const g = new KlineGate();
    g.seed('1m', MIN);
    expect(opens(g.admit('1m', [bar(0, '1'), bar(MIN, '2'), bar(2 * MIN, '3'), bar(3 * MIN, '4')], undefined))).to.deep.equal([2 * MIN]);
    expect(opens(g.admit('1m', [bar(2 * MIN, '3'), bar(3 * MIN, '4')], undefined))).to.deep.equal([]);
    expect(g.lastOpenTime('1m')).to.equal(2 * MIN);
    // Intervals are independent.
    expect(g.lastOpenTime('5m')).to.equal(undefined);
  });

  it('derives_a_calendar_month_close_when_the_venue_sends_no_close_time', () => {
    const g = new KlineGate(0);
    const jan = Date.UTC(2026, 0, 1);
    const out = g.admit('1M', [bar(jan, '10', false)], Date.UTC(2026, 1, 1));
    expect(out.map((x) => x.closeTime)).to.deep.equal([Date.UTC(2026, 1, 1)]);
  });
});
