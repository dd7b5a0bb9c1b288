import { expect } from 'chai';
import { Decimal } from '../../../src/core/decimal.js';
import type { ContractClient } from '../../../src/client/contract-client.js';
import { contractSigned } from '../../emulator/support/emulator-kit.js';
import { readZip } from '../../venue/analysis/zip-reader.js';
import { DAY, KEYS, T0, startAccountsKit, type AccountsKit } from './support/accounts-kit.js';

const HOUR = 3_600_000;
const s = (d: Decimal | undefined) => d?.toFixed();

/**
 * Four UTC days of master against outsider on BTC_USDT (contractSize 0.0001, taker 0.0001, maker 0),
 * both funded with 100 000 USDT at T0 = 2026-01-01 00:00 UTC; the emulator's clock is virtual and
 * crosses each midnight (equity snapshots) as the test advances it:
 *   day 0  master opens long 1000 @ 87 500 (taker): 8750 × 0.0001 = 0.875 fee            → −0.875
 *   day 1  funding +0.0001 at fair 87 500: the long pays 8750 × 0.0001 = 0.875            → −0.875
 *   day 2  fair 88 000; master closes 400 @ 88 000: +500 × 400 × 0.0001 = 20,
 *          fee 3520 × 0.0001 = 0.352                                                      → +19.648
 *   day 3  fair 89 000; funding −0.0002: the long receives 600 × 0.0001 × 89 000 × 0.0002 → +1.068
 * Realised over the four days: 18.966. Equity at the 00:00 snapshots: day 1 99 999.125, day 2
 * 99 998.25, day 3 100 017.898 + unrealised 600 × 0.0001 × 500 = 30 → 100 047.898; now
 * 100 018.966 + 600 × 0.0001 × 1500 = 100 108.966.
 */
describe('profit-and-loss analysis over HTTP', () => {
  let kit: AccountsKit;
  let master: ContractClient;
  let outsider: ContractClient;

  const price = (p: string) => {
    kit.emu.contract.venue.setFairPrice('BTC_USDT', p);
    kit.emu.contract.venue.setIndexPrice('BTC_USDT', p);
  };
  const funding = (rate: string) => {
    kit.emu.contract.venue.setFundingRate('BTC_USDT', rate);
    kit.emu.contract.venue.settleFunding('BTC_USDT');
  };

  before(async () => {
    kit = await startAccountsKit();
    master = kit.contract('master');
    outsider = kit.contract('outsider');
    kit.clock.advanceTo(T0 + HOUR);
    price('87500');
    await outsider.createOrder({ symbol: 'BTC_USDT', price: 87500, vol: 1000, leverage: 10, side: 3, type: 1, openType: 1 });
    await master.createOrder({ symbol: 'BTC_USDT', price: 87500, vol: 1000, leverage: 10, side: 1, type: 1, openType: 1 });
    kit.clock.advanceTo(T0 + DAY + HOUR);
    funding('0.0001');
    kit.clock.advanceTo(T0 + 2 * DAY + HOUR);
    price('88000');
    await outsider.createOrder({ symbol: 'BTC_USDT', price: 88000, vol: 400, side: 2, type: 1, openType: 1 });
    await master.createOrder({ symbol: 'BTC_USDT', price: 88000, vol: 400, side: 4, type: 1, openType: 1 });
    kit.clock.advanceTo(T0 + 3 * DAY + HOUR);
    price('89000');
    funding('-0.0002');
  });

  after(async () => {
    expect(kit.emu.checkInvariants()).to.deep.equal([]);
    await kit.close();
  });

  it('gives_a_daily_calendar_that_sums_to_the_realised_pnl', async () => {
    const cal = await master.calendarDailyPnl({ startTime: T0, endTime: kit.clock.now() });
    expect(cal.dailyTimeList).to.deep.equal([T0, T0 + DAY, T0 + 2 * DAY, T0 + 3 * DAY]);
    expect(cal.dailyPnlList?.map(s)).to.deep.equal(['-0.875', '-0.875', '19.648', '1.068']);
    const sum = cal.dailyPnlList!.reduce((a, x) => a.add(x), new Decimal(0));
    // the account's own records over HTTP: Σ (close profit − fees) of its orders + Σ funding
    const orders = await master.historyOrders({ symbol: 'BTC_USDT' });
    const records = await master.fundingRecords({ position_type: 1, start_time: T0, end_time: kit.clock.now() });
    const realised = orders
      .reduce(
        (a, o) =>
          a
            .add(o.profit ?? 0)
            .sub(o.takerFee ?? 0)
            .sub(o.makerFee ?? 0),
        new Decimal(0),
      )
      .add(records.resultList.reduce((a, r) => a.add(r.funding ?? 0), new Decimal(0)));
    expect([s(sum), s(realised)]).to.deep.equal(['18.966', '18.966']);
    const monthly = await master.calendarMonthlyPnl({});
    expect([monthly.monthlyTimeList, monthly.monthlyPnlList?.map(s)]).to.deep.equal([[T0], ['18.966']]);
  });

  it('answers_today_yesterday_and_the_recent_windows', async () => {
    const today = await master.todayPnl({});
    // 1.068 / 100 047.898 (equity at today's 00:00) = 0.000011
    expect([s(today.todayPnl), s(today.todayPnlRate), today.todayPnlFinished]).to.deep.equal(['1.068', '0.000011', true]);
    // with unrealised: 1.068 + (90 − 30) = 61.068; / 100 047.898 = 0.000610
    const withU = await master.todayPnl({ includeUnrealisedPnl: 1 });
    expect([s(withU.todayPnl), s(withU.todayPnlRate)]).to.deep.equal(['61.068', '0.00061']);
    expect(s(await master.yesterdayPnl())).to.equal('19.648');
    const recent = await master.recentPnl({});
    // every window reaches back before T0: 18.966 on the 100 000 baseline = 0.000190
    expect([s(recent.recentPnl60), s(recent.recentPnlRate60), s(recent.recentPnl360)]).to.deep.equal(['18.966', '0.00019', '18.966']);
  });

  it('answers_the_v3_analysis_with_its_filters', async () => {
    const v3 = await master.assetAnalysisV3({ startTime: T0, endTime: kit.clock.now(), reverse: 1 });
    expect([s(v3.totalPnl), s(v3.todayPnl), s(v3.recentPnl), s(v3.recentPnl30), s(v3.totalEquity), v3.accurate]).to.deep.equal([
      '18.966',
      '1.068',
      '18.966',
      '18.966',
      '100108.966',
      true,
    ]);
    expect(v3.historyDailyData?.accumPnlList?.map(s)).to.deep.equal(['-0.875', '-1.75', '17.898', '18.966']);
    // coin-margined and another contract carry nothing
    expect(s((await master.assetAnalysisV3({ startTime: T0, endTime: kit.clock.now(), reverse: 2 })).totalPnl)).to.equal('0');
    expect(s((await master.assetAnalysisV3({ startTime: T0, endTime: kit.clock.now(), symbol: 'ETH_USDT' })).totalPnl)).to.equal('0');
  });

  it('answers_the_asset_analysis_of_all_time_and_of_this_week', async () => {
    const all = await master.assetAnalysis({ type: 3, currency: 'USDT' });
    expect([s(all.totalPnl), s(all.winRate), s(all.totalEquity)]).to.deep.equal(['18.966', '0.5', '100108.966']);
    const h = all.historyDailyData!;
    expect(h.timeList).to.deep.equal([T0, T0 + DAY, T0 + 2 * DAY, T0 + 3 * DAY]);
    expect(h.dailyEquityList?.map(s)).to.deep.equal(['99999.125', '99998.25', '100047.898', '100108.966']);
    // index 87 500 → 88 000 over day 2 (snapshots): 0.005714; day 3: 88 000 → 89 000 live: 0.011364
    expect(h.dailyIndexPriceRiseFallRateList?.map(s)).to.deep.equal(['0', '0', '0.005714', '0.011364']);
    // 2026-01-04 is a Sunday: this week runs from Monday 2025-12-29, seven days
    const week = await master.assetAnalysis({ type: 1, currency: 'USDT' });
    expect([week.historyDailyData?.timeList?.length, s(week.totalPnl)]).to.deep.equal([7, '18.966']);
  });

  it('ranks_the_profit_rate_of_the_last_day_among_the_accounts', async () => {
    // 19.648 / 99 998.25 = 0.000196; the outsider lost 20 on day 2 and ranks last of six
    const r = await master.profitRate({ type: 1 });
    expect([r.ranking, s(r.profitRate), r.statisticTime]).to.deep.equal([1, '0.000196', T0 + 3 * DAY]);
    expect((await outsider.profitRate({ type: 1 })).ranking).to.equal(6);
  });

  it('exports_the_period_as_a_real_xlsx_file', async () => {
    const out = (await master.exportAnalysis(
      { startTime: T0, endTime: kit.clock.now(), fileType: 1 },
      { headers: { 'timezone-login': 'UTC+8' } },
    )) as Record<string, unknown>;
    expect([out.fileName, out.contentType, out.encoding]).to.deep.equal([
      `pnl-analysis-${KEYS.master.uid}-2026-01-01-2026-01-04.xlsx`,
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'base64',
    ]);
    const bytes = Buffer.from(out.content as string, 'base64');
    expect(bytes.length).to.equal(out.size);
    const parts = new Map(readZip(bytes).map((e) => [e.name, e.data.toString('utf8')]));
    const daily = parts.get('xl/worksheets/sheet2.xml')!;
    const column = (col: string) =>
      [2, 3, 4, 5].map((r) =>
        new RegExp(`<c r="${col}${r}"[^>]*>(?:<v>([^<]*)</v>|<is><t[^>]*>([^<]*)</t></is>)</c>`)
          .exec(daily)
          ?.slice(1)
          .find((x) => x !== undefined),
      );
    expect(column('A')).to.deep.equal(['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04']);
    expect(column('B')).to.deep.equal(['-0.875', '-0.875', '19.648', '1.068']);
    expect(column('D')).to.deep.equal(['-0.875', '-1.75', '17.898', '18.966']);
    // generated 2026-01-04 01:00 UTC = 09:00 at UTC+8
    expect(parts.get('xl/worksheets/sheet1.xml')).to.contain('2026-01-04 09:00:00 (UTC+8)');
  });

  it('exports_a_pdf_on_request', async () => {
    const out = (await master.exportAnalysis(
      { startTime: T0, endTime: kit.clock.now(), fileType: 2 },
      { headers: { 'timezone-login': 'UTC' } },
    )) as Record<string, unknown>;
    const pdf = Buffer.from(out.content as string, 'base64').toString('latin1');
    expect([out.contentType, pdf.startsWith('%PDF-1.4'), pdf.trimEnd().endsWith('%%EOF')]).to.deep.equal(['application/pdf', true, true]);
    expect(pdf).to.contain('19.648');
  });

  it('refuses_an_export_without_the_timezone_header_with_600', async () => {
    const res = await contractSigned(
      kit.emu.url,
      'GET',
      '/api/v1/private/account/asset/analysis/export',
      { fileType: 1 },
      { requestTime: kit.clock.now(), key: { apiKey: KEYS.master.apiKey, secret: KEYS.master.secret } },
    );
    expect(res.json).to.deep.include({ success: false, code: 600 });
  });
});
