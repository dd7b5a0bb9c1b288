import { expect } from 'chai';
import { TradeWindow, type WindowTrade } from '../../../src/marketdata/recorder/trade-window.js';

const t = (time: number, price: string, qty: string, side: 'buy' | 'sell' = 'buy', id?: string): WindowTrade => ({
  time,
  price,
  qty,
  side,
  ...(id !== undefined ? { id } : {}),
});
const keys = (ts: readonly WindowTrade[]): string[] => ts.map((x) => `${x.id ?? ''}@${x.time}:${x.price}x${x.qty}`);

describe('TradeWindow', () => {
  it('records_every_trade_of_the_first_poll', () => {
    const w = new TradeWindow();
    const polled = [t(1000, '10', '1'), t(1001, '10.5', '2', 'sell')];
    expect(keys(w.admit(polled).fresh)).to.deep.equal(['@1000:10x1', '@1001:10.5x2']);
  });

  it('counts_equal_keys_so_another_identical_print_in_the_same_millisecond_is_new', () => {
    const w = new TradeWindow();
    // A taker sweeping two equal resting orders prints the same (time, price, qty, side) twice.
    w.admit([t(1000, '10', '1'), t(1000, '10', '1')]);
    // Next poll: the same two, plus a third identical print in that millisecond, plus a later one.
    const r = w.admit([t(1000, '10', '1'), t(1000, '10', '1'), t(1000, '10', '1'), t(1002, '11', '1')]);
    expect(keys(r.fresh)).to.deep.equal(['@1000:10x1', '@1002:11x1']);
  });

  it('does_not_record_again_after_an_answer_that_came_back_short', () => {
    const w = new TradeWindow();
    w.admit([t(1, '1', '1'), t(2, '2', '1'), t(3, '3', '1'), t(4, '4', '1'), t(5, '5', '1')]);
    expect(w.admit([t(4, '4', '1'), t(5, '5', '1')]).fresh).to.deep.equal([]);
    // Trades 3..5 were recorded by the first poll, though the second did not return trade 3.
    expect(keys(w.admit([t(3, '3', '1'), t(4, '4', '1'), t(5, '5', '1'), t(6, '6', '1'), t(7, '7', '1')]).fresh)).to.deep.equal([
      '@6:6x1',
      '@7:7x1',
    ]);
  });

  it('deduplicates_by_id_when_the_venue_sends_one', () => {
    const w = new TradeWindow();
    w.admit([t(1000, '10', '1', 'buy', '41'), t(1000, '10', '1', 'buy', '42')]);
    // 43 has the same time, price, qty and side as 41/42: a different trade all the same.
    const r = w.admit([t(1000, '10', '1', 'buy', '41'), t(1000, '10', '1', 'buy', '42'), t(1000, '10', '1', 'buy', '43')]);
    expect(keys(r.fresh)).to.deep.equal(['43@1000:10x1']);
  });

  it('ignores_a_trade_older_than_the_window', () => {
    const w = new TradeWindow(1000);
    w.admit([t(0, '1', '1')]);
    w.admit([t(5000, '5', '1'), t(5100, '6', '1')]);
    // The window now starts at min(5100 − 1000, 5000) = 4100: a print at 3000 was in an earlier answer.
    const r = w.admit([t(3000, '3', '1'), t(5100, '6', '1'), t(5200, '7', '1')]);
    expect(keys(r.fresh)).to.deep.equal(['@5200:7x1']);
  });

  it('keeps_everything_the_last_poll_returned_however_old', () => {
    const w = new TradeWindow(1000);
    // An illiquid market: the last poll's 3 trades span 10 s, far more than the window.
    w.admit([t(0, '1', '1'), t(5000, '2', '1'), t(10_000, '3', '1')]);
    expect(w.admit([t(0, '1', '1'), t(5000, '2', '1'), t(10_000, '3', '1')]).fresh).to.deep.equal([]);
  });

  it('flags_a_possible_gap_only_when_a_full_answer_does_not_reach_back', () => {
    const w = new TradeWindow();
    w.admit([t(1, '1', '1'), t(2, '2', '1'), t(3, '3', '1')], 3);
    expect(w.admit([t(4, '4', '1'), t(5, '5', '1')], 3).possiblyMissed).to.equal(false); // not full: the venue had no more
    expect(w.admit([t(6, '6', '1'), t(7, '7', '1'), t(8, '8', '1')], 3).possiblyMissed).to.equal(true); // full, oldest 6 > newest 5
    expect(w.admit([t(8, '8', '1'), t(9, '9', '1'), t(10, '10', '1')], 3).possiblyMissed).to.equal(false); // overlaps at 8
  });

  it('treats_seeded_trades_as_recorded', () => {
    const w = new TradeWindow();
    w.seed([t(1000, '10', '1'), t(1000, '10', '1'), t(999, '9', '1')]);
    const r = w.admit([t(999, '9', '1'), t(1000, '10', '1'), t(1000, '10', '1'), t(1000, '10', '1'), t(1001, '11', '1')]);
    expect(keys(r.fresh)).to.deep.equal(['@1000:10x1', '@1001:11x1']);
    expect(w.newestTime).to.equal(1001);
  });
});
