import { expect } from 'chai';
import { Decimal } from '../../../src/core/decimal.js';
import { PnlAnalysis } from '../../../src/venue/analysis/pnl-analysis.js';
import { PnlRecorder } from '../../../src/venue/analysis/pnl-recorder.js';
import { makeKit, placed, S, SYMBOL, type Kit } from '../contract/contract-test-kit.js';

const DAY = 86_400_000;
const s = (d: Decimal) => d.toFixed();

/**
 * Four UTC days of alice against bob on BTC_USDT (contractSize 0.0001, taker 0.0006, maker 0.0002),
 * both funded with 10 000 USDT at 1970-01-01 00:00:01:
 *   day 0  alice opens long 1000 @ 50 000 (taker): fee 5000 × 0.0006 = 3                → −3
 *   day 1  funding +0.0001 at fair 50 000: long pays 1000 × 0.0001 × 50 000 × 0.0001   → −0.5
 *   day 2  fair 51 000; alice closes 400 @ 51 000 (taker): +1000 × 400 × 0.0001 = 40,
 *          fee 2040 × 0.0006 = 1.224                                                   → +38.776
 *   day 3  fair 52 000, funding −0.0002: long receives 600 × 0.0001 × 52 000 × 0.0002  → +0.624
 * Realised over the four days: −3 − 0.5 + 38.776 + 0.624 = 35.9.
 */
function arrange(): { kit: Kit; rec: PnlRecorder; an: PnlAnalysis } {
  const kit = makeKit({ autoFunding: false });
  const { venue, clock } = kit;
  const rec = new PnlRecorder({ clock, venue, accounts: () => ['alice', 'bob'] });
  rec.start();
  const an = new PnlAnalysis(rec, {
    now: () => clock.now(),
    fairPrice: (x) => venue.fairPrice(x),
    indexPrice: (x) => venue.indexPrice(x),
    referenceSymbol: SYMBOL,
  });
  venue.deposit('alice', 'USDT', 10000);
  venue.deposit('bob', 'USDT', 10000);
  venue.setFairPrice(SYMBOL, 50000);
  venue.setIndexPrice(SYMBOL, 50000);
  placed(venue, 'bob', { side: S.OPEN_SHORT, vol: 1000, price: 50000 });
  placed(venue, 'alice', { side: S.OPEN_LONG, vol: 1000, price: 50000 });

  clock.advanceTo(DAY + 5_000);
  venue.setFundingRate(SYMBOL, '0.0001');
  venue.settleFunding(SYMBOL);

  clock.advanceTo(2 * DAY + 5_000);
  venue.setFairPrice(SYMBOL, 51000);
  venue.setIndexPrice(SYMBOL, 51000);
  placed(venue, 'bob', { side: S.CLOSE_SHORT, vol: 400, price: 51000 });
  placed(venue, 'alice', { side: S.CLOSE_LONG, vol: 400, price: 51000 });

  clock.advanceTo(3 * DAY + 5_000);
  venue.setFairPrice(SYMBOL, 52000);
  venue.setIndexPrice(SYMBOL, 52000);
  venue.setFundingRate(SYMBOL, '-0.0002');
  venue.settleFunding(SYMBOL);
  return { kit, rec, an };
}

describe('PnlAnalysis', () => {
  it('gives_a_daily_calendar_that_sums_to_the_realised_pnl', () => {
    const { kit, an } = arrange();
    const days = an.calendarDaily('alice', 0, kit.clock.now());
    expect(days.map((d) => [d.day, s(d.pnl)])).to.deep.equal([
      [0, '-3'],
      [DAY, '-0.5'],
      [2 * DAY, '38.776'],
      [3 * DAY, '0.624'],
    ]);
    const sum = days.reduce((a, d) => a.add(d.pnl), new Decimal(0));
    // the venue's own books: Σ fill profit − Σ fee + Σ funding
    const fills = kit.venue.fills('alice', { pageSize: 1000 }).resultList;
    const funding = kit.venue.fundingRecords('alice', { pageSize: 1000 }).resultList;
    const realised = fills
      .reduce((a, f) => a.add(f.profit).sub(f.fee), new Decimal(0))
      .add(funding.reduce((a, r) => a.add(r.funding), new Decimal(0)));
    expect([s(sum), s(realised)]).to.deep.equal(['35.9', '35.9']);
    expect(kit.problems).to.deep.equal([]);
  });

  it('adds_the_change_of_unrealised_pnl_when_asked', () => {
    const { kit, an } = arrange();
    // unrealised at midnights: day 2 start 0 (fair 50 000), day 3 start 60 (600 × 0.0001 × 1000), now 120 (fair 52 000)
    const days = an.calendarDaily('alice', 0, kit.clock.now(), { includeUnrealised: true });
    expect(days.map((d) => s(d.pnl))).to.deep.equal(['-3', '-0.5', '98.776', '60.624']);
    // equity now = 10 000 + 35.9 + 120
    expect(s(an.totalEquity('alice'))).to.equal('10155.9');
  });

  it('reports_today_yesterday_recent_and_monthly_figures', () => {
    const { an } = arrange();
    expect(s(an.today('alice').pnl)).to.equal('0.624');
    expect(s(an.yesterday('alice'))).to.equal('38.776');
    // 7 days back reaches before the first day: base = the 10 000 baseline; 35.9 / 10 000
    const r7 = an.recent('alice', 7);
    expect([s(r7.pnl), s(r7.rate)]).to.deep.equal(['35.9', '0.00359']);
    expect(an.calendarMonthly('alice').map((m) => [m.month, s(m.pnl)])).to.deep.equal([[0, '35.9']]);
  });

  it('builds_a_period_with_accumulated_pnl_equity_and_win_rate', () => {
    const { kit, an } = arrange();
    const p = an.period('alice', 0, kit.clock.now());
    expect(p.accumPnl.map(s)).to.deep.equal(['-3', '-3.5', '35.276', '35.9']);
    // equity at each day end: 9997, 9996.5 (midnight snapshots, fair 50 000), 10035.276 + 60 = 10095.276, live 10155.9
    expect(p.days.map((d) => s(d.equity))).to.deep.equal(['9997', '9996.5', '10095.276', '10155.9']);
    // positive days 2 of 4 non-zero
    expect(s(p.winRate)).to.equal('0.5');
    // index 50 000 → 51 000 over day 2 (snapshots at 2 and 3 days): +2 %; day 3: 51 000 → 52 000 live
    expect(p.days.map((d) => s(d.indexChange))).to.deep.equal(['0', '0', '0.02', '0.019608']);
  });

  it('ranks_accounts_by_the_rate_of_the_last_complete_day', () => {
    const { an } = arrange();
    // alice: 38.776 / 9996.5 (equity at day 2 start) = 0.003879; bob: −40.408 / 9999.5 = −0.004041
    const a = an.profitRate('alice', 1);
    const b = an.profitRate('bob', 1);
    expect([a.ranking, s(a.profitRate), a.statisticTime]).to.deep.equal([1, '0.003879', 3 * DAY]);
    expect([b.ranking, s(b.profitRate)]).to.deep.equal([2, '-0.004041']);
  });
});
