import { expect } from 'chai';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/start-emulator.js';
import { raw, testConfig, T0 } from '../../emulator/support/emulator-kit.js';
import { ccxtMexc, type Candle, type Mexc } from './ccxt-support.js';

/**
 * ccxt's public mexc calls against the emulator over HTTP (issue 14), with the synthetic market running
 * on a virtual clock: public calls carry no timestamp, so virtual time is fine, and between advance()
 * calls the market stands still, so every ccxt answer can be checked against the emulator's raw JSON
 * read over HTTP right after it (the same state), or against the instrument presets by hand.
 *
 * The clock starts at 07:50 UTC and 20 minutes are run, so the 08:00 funding settlement falls inside.
 */
const START = T0 + 7 * 3_600_000 + 50 * 60_000;
const SETTLE_0800 = T0 + 8 * 3_600_000;

describe('ccxt mexc (unchanged) against the emulator: public market data', function () {
  this.timeout(120_000);
  let emu: RunningEmulator;
  let ex: Mexc;
  const S = 'BTC/USDT';
  const F = 'BTC/USDT:USDT';
  const json = async (path: string) => (await raw(emu.url, 'GET', path)).json as Record<string, unknown>;
  const contractData = async (path: string) => (await json(path)).data as Record<string, unknown> & unknown[];

  before(async () => {
    emu = await startEmulator(
      testConfig({ clock: { mode: 'virtual', start: START, stepMs: 0 }, market: { source: 'synthetic', stepMs: 60_000 } }),
    );
    for (let i = 0; i < 20; i++) emu.advance(60_000);
    ex = ccxtMexc(emu.url);
    await ex.loadMarkets();
  });

  after(async () => {
    await emu?.stop();
  });

  it('loads_spot_and_swap_markets_with_the_preset_rules', () => {
    // instrument-presets.ts: BTCUSDT 2 price / 8 quantity decimals; BTC_USDT contractSize 0.0001,
    // priceUnit 0.1, volUnit 1, minVol 1, maxVol 400000, leverage 1..500, taker 0.0001, maker 0.
    const spot = ex.market(S);
    expect([spot.id, spot.spot, spot.active, spot.precision.price, spot.precision.amount]).to.deep.equal([
      'BTCUSDT',
      true,
      true,
      0.01,
      1e-8,
    ]);
    const swap = ex.market(F);
    expect([swap.id, swap.swap, swap.linear, swap.settle, swap.contractSize]).to.deep.equal(['BTC_USDT', true, true, 'USDT', 0.0001]);
    expect([swap.precision.price, swap.precision.amount, swap.limits.amount?.min, swap.limits.amount?.max]).to.deep.equal([
      0.1, 1, 1, 400000,
    ]);
    expect([swap.limits.leverage?.min, swap.limits.leverage?.max, swap.taker, swap.maker]).to.deep.equal([1, 500, 0.0001, 0]);
    expect(Object.keys(ex.markets ?? {}).sort()).to.deep.equal(['BTC/USDT', 'BTC/USDT:USDT', 'ETH/USDT', 'ETH/USDT:USDT']);
  });

  it('reads_the_server_time_and_status', async () => {
    // Virtual time stands still between advance() calls: the venue's clock exactly.
    expect(await ex.fetchTime()).to.equal(emu.clock.now());
    expect((await ex.fetchStatus()).status).to.equal('ok');
  });

  it('reads_both_order_books_level_by_level', async () => {
    const spotRaw = (await json('/api/v3/depth?symbol=BTCUSDT&limit=5')) as { bids: string[][]; asks: string[][] };
    const spot = await ex.fetchOrderBook(S, 5);
    expect(spot.bids.length).to.be.greaterThan(0);
    expect(spot.bids).to.deep.equal(spotRaw.bids.map(([p, q]) => [Number(p), Number(q)]));
    expect(spot.asks).to.deep.equal(spotRaw.asks.map(([p, q]) => [Number(p), Number(q)]));
    expect(spot.bids[0]![0]!).to.be.lessThan(spot.asks[0]![0]!);
    const swapRaw = (await contractData('/api/v1/contract/depth/BTC_USDT?limit=5')) as unknown as { bids: number[][]; asks: number[][] };
    const swap = await ex.fetchOrderBook(F, 5);
    expect(swap.bids.length).to.be.greaterThan(0);
    // ccxt keeps contract depth as the venue sends it: [price, vol in contracts, order count] per level.
    expect(swap.bids).to.deep.equal(swapRaw.bids);
    expect(swap.asks).to.deep.equal(swapRaw.asks);
  });

  it('reads_tickers_and_best_prices', async () => {
    const t24 = (await json('/api/v3/ticker/24hr?symbol=BTCUSDT')) as Record<string, string>;
    const spot = await ex.fetchTicker(S);
    expect([spot.last, spot.high, spot.low, spot.baseVolume, spot.quoteVolume]).to.deep.equal(
      [t24.lastPrice, t24.highPrice, t24.lowPrice, t24.volume, t24.quoteVolume].map(Number),
    );
    expect(spot.last).to.be.greaterThan(0);
    const spots = await ex.fetchTickers([S]);
    expect(spots[S]!.last).to.equal(spot.last);
    const book = (await json('/api/v3/ticker/bookTicker?symbol=BTCUSDT')) as Record<string, string>;
    // Two symbols: with exactly one, ccxt 4.5.84 asks for every symbol and then wraps the list in another
    // list (mexc.ts fetchBidsAsks, isSingularMarket), which finds nothing on the real exchange either.
    const ba = await ex.fetchBidsAsks([S, 'ETH/USDT']);
    expect([ba[S]!.bid, ba[S]!.ask]).to.deep.equal([Number(book.bidPrice), Number(book.askPrice)]);
    expect(ba[S]!.bid!).to.be.lessThan(ba[S]!.ask!);

    const ct = await contractData('/api/v1/contract/ticker?symbol=BTC_USDT');
    const swap = await ex.fetchTicker(F);
    // ccxt's swap ticker leaves markPrice / indexPrice unset (mexc.ts parseTicker); they stay in info.
    expect([swap.last, swap.bid, swap.ask, swap.high, swap.low]).to.deep.equal([
      ct.lastPrice,
      ct.bid1,
      ct.ask1,
      ct.high24Price,
      ct.lower24Price,
    ]);
    expect([swap.info.fairPrice, swap.info.indexPrice]).to.deep.equal([ct.fairPrice, ct.indexPrice]);
    expect(swap.last).to.be.greaterThan(0);
    // Two symbols again: for one swap symbol ccxt asks with symbol=, gets the single object the real venue
    // answers (test/fixtures/mexc contract_GET_api_v1_contract_ticker.json) and reads it as a list (mexc.ts
    // fetchTickers, safeList), so one symbol yields nothing against the real exchange as well.
    const swaps = await ex.fetchTickers([F, 'ETH/USDT:USDT']);
    expect(swaps[F]!.last).to.equal(swap.last);
    expect(swaps['ETH/USDT:USDT']!.last).to.be.greaterThan(0);
  });

  it('reads_recent_trades_of_spot_by_aggTrades_and_historicalTrades_and_of_swap_by_deals', async () => {
    const agg = (await json('/api/v3/aggTrades?symbol=BTCUSDT&limit=20')) as unknown as { p: string; q: string; T: number }[];
    const viaAgg = await ex.fetchTrades(S, undefined, 20);
    expect(viaAgg.length).to.be.greaterThan(0);
    // Many prints share a millisecond, so the two lists are compared as sets of [time, price, amount].
    const byTime = (x: number[], y: number[]) => x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
    expect(viaAgg.map((t) => [t.timestamp!, t.price!, t.amount!]).sort(byTime)).to.deep.equal(
      agg.map((a) => [a.T, Number(a.p), Number(a.q)]).sort(byTime),
    );
    // historicalTrades is beyond spot-api.md; ccxt offers it as fetchTrades' method HistoricalTrades.
    const hist = (await json('/api/v3/historicalTrades?symbol=BTCUSDT&limit=20')) as unknown as {
      price: string;
      qty: string;
      time: number;
    }[];
    const viaHist = await ex.fetchTrades(S, undefined, 20, { method: 'spotPublicGetHistoricalTrades' });
    expect(viaHist.length).to.equal(hist.length);
    expect(viaHist.map((t) => [t.price, t.amount]).sort()).to.deep.equal(hist.map((h) => [Number(h.price), Number(h.qty)]).sort());
    const deals = (await contractData('/api/v1/contract/deals/BTC_USDT?limit=20')) as unknown as {
      p: number;
      v: number;
      T: number;
      t: number;
    }[];
    const swap = await ex.fetchTrades(F, undefined, 20);
    expect(swap.length).to.be.greaterThan(0);
    // T 1 = taker bought (contract-api.md deals).
    const rows = (l: [number, number, number, string][]) => l.map((r) => JSON.stringify(r)).sort();
    expect(rows(swap.map((t) => [t.timestamp!, t.price!, t.amount!, t.side!]))).to.deep.equal(
      rows(deals.map((d) => [d.t, d.p, d.v, d.T === 1 ? 'buy' : 'sell'])),
    );
  });

  const SPOT_TF: Record<string, string> = {
    '1m': '1m',
    '5m': '5m',
    '15m': '15m',
    '30m': '30m',
    '1h': '60m',
    '4h': '4h',
    '1d': '1d',
    '1w': '1W',
    '1M': '1M',
  };
  for (const [tf, interval] of Object.entries(SPOT_TF)) {
    it(`reads_spot_ohlcv_${tf}_as_the_klines_endpoint_answers_it`, async () => {
      const rows = (await json(`/api/v3/klines?symbol=BTCUSDT&interval=${interval}&limit=500`)) as unknown as (string | number)[][];
      const got = (await ex.fetchOHLCV(S, tf, undefined, 500)) as Candle[];
      expect(got.length).to.be.greaterThan(0);
      expect(got).to.deep.equal(rows.map((r) => [Number(r[0]), Number(r[1]), Number(r[2]), Number(r[3]), Number(r[4]), Number(r[5])]));
      // 20 minutes of 1m bars: every bar of the run is there.
      if (tf === '1m') expect(got.length).to.be.at.least(20);
    });
  }

  const SWAP_TF: Record<string, string> = {
    '1m': 'Min1',
    '5m': 'Min5',
    '15m': 'Min15',
    '30m': 'Min30',
    '1h': 'Min60',
    '4h': 'Hour4',
    '8h': 'Hour8',
    '1d': 'Day1',
    '1w': 'Week1',
    '1M': 'Month1',
  };
  type Candles = { time: number[]; open: number[]; high: number[]; low: number[]; close: number[]; vol: number[] };
  const rowsOf = (c: Candles): Candle[] => c.time.map((t, i) => [t * 1000, c.open[i]!, c.high[i]!, c.low[i]!, c.close[i]!, c.vol[i]!]);
  for (const [tf, interval] of Object.entries(SWAP_TF)) {
    it(`reads_swap_ohlcv_${tf}_as_the_contract_kline_endpoint_answers_it`, async () => {
      const c = (await contractData(`/api/v1/contract/kline/BTC_USDT?interval=${interval}`)) as unknown as Candles;
      const got = (await ex.fetchOHLCV(F, tf)) as Candle[];
      expect(got.length).to.be.greaterThan(0);
      expect(got).to.deep.equal(rowsOf(c));
    });
  }

  it('reads_mark_and_index_candles_of_the_fair_and_index_price', async () => {
    const fair = rowsOf((await contractData('/api/v1/contract/kline/fair_price/BTC_USDT?interval=Min1')) as unknown as Candles);
    const mark = (await ex.fetchMarkOHLCV(F, '1m')) as Candle[];
    expect(mark.length).to.be.at.least(20);
    // ccxt leaves the volume of price candles as the venue sends it (0 for fair/index).
    expect(mark).to.deep.equal(fair);
    const index = rowsOf((await contractData('/api/v1/contract/kline/index_price/BTC_USDT?interval=Min1')) as unknown as Candles);
    const idx = (await ex.fetchIndexOHLCV(F, '1m')) as Candle[];
    expect(idx.length).to.be.at.least(20);
    expect(idx).to.deep.equal(index);
  });

  it('reads_the_funding_rate_its_interval_and_the_0800_settlement', async () => {
    const fr = await contractData('/api/v1/contract/funding_rate/BTC_USDT');
    const rate = await ex.fetchFundingRate(F);
    expect([rate.fundingRate, rate.fundingTimestamp, rate.interval]).to.deep.equal([fr.fundingRate, fr.nextSettleTime, '8h']);
    // The next settlement after 08:10 is 16:00 UTC.
    expect(rate.fundingTimestamp).to.equal(T0 + 16 * 3_600_000);
    expect((await ex.fetchFundingInterval(F)).interval).to.equal('8h');
    const hist = await ex.fetchFundingRateHistory(F);
    const page = (await contractData('/api/v1/contract/funding_rate/history?symbol=BTC_USDT&page_num=1&page_size=100')) as unknown as {
      resultList: { fundingRate: number; settleTime: number }[];
    };
    expect(hist.map((h) => h.timestamp)).to.include(SETTLE_0800);
    expect(hist.find((h) => h.timestamp === SETTLE_0800)!.fundingRate).to.equal(
      page.resultList.find((r) => r.settleTime === SETTLE_0800)!.fundingRate,
    );
  });

  it('reads_the_leverage_tiers_as_ccxt_reads_the_real_detail', async () => {
    // ccxt builds tiers from riskBaseVol / riskIncrVol of contract detail and, when riskIncrVol is 0 (as
    // in the live BTC_USDT detail, test/fixtures/mexc, and in the preset), gives one tier with only the
    // maximum leverage (mexc.ts parseMarketLeverageTiers): 500 for BTC_USDT.
    const tiers = (await ex.fetchLeverageTiers([F]))[F]!;
    expect(tiers.map((t) => [t.symbol, t.currency, t.maxLeverage, t.maintenanceMarginRate])).to.deep.equal([[F, 'USDT', 500, undefined]]);
  });
});
