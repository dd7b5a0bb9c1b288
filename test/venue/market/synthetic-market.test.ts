import { expect } from 'chai';
import { VirtualClock } from '../../../src/core/clock.js';
import { ValidationError } from '../../../src/core/errors.js';
import { OrderBookLiquidityPort, type PrintEvent } from '../../../src/venue/market/order-book-liquidity-port.js';
import { YEAR_MS } from '../../../src/venue/market/price-process.js';
import { SyntheticMarket, type SyntheticBookConfig, type SyntheticMarketConfig } from '../../../src/venue/market/synthetic-market.js';

const T0 = Date.UTC(2024, 0, 1, 7, 0);

/** A book that is easy to reason about: no size randomness, one order per level, no churn. */
const quietSpot: SyntheticBookConfig = {
  symbol: 'BTCUSDT',
  kind: 'spot',
  tick: '0.01',
  spreadTicks: 4,
  levels: 5,
  touchLots: 10,
  depthDecay: 1,
  ordersPerLevel: [1, 1],
  sizeDispersion: 0,
  churnProbability: 0,
  takerArrivalPerSec: 0,
  takerMeanLots: 1,
};

function setup(config: SyntheticMarketConfig, symbols = config.books.map((b) => b.symbol)) {
  const clock = new VirtualClock(T0);
  const prints: PrintEvent[] = [];
  const port = new OrderBookLiquidityPort(clock, symbols, (e) => prints.push(e));
  const market = new SyntheticMarket(config, { clock, port });
  return { clock, port, market, prints };
}

describe('SyntheticMarket', () => {
  it('builds_the_configured_spread_and_depth_around_the_reference', () => {
    // 100.00 / 0.01 = 10000 ticks; bidTouch = floor(10000 − 4/2) = 9998, askTouch = 10002; 5 levels of 10 lots.
    const { port, market } = setup({ seed: 1, initialPrice: 100, stepMs: 1000, volatilityPerYear: 0, books: [quietSpot] });
    market.start();
    const book = port.book('BTCUSDT');
    expect(book.depth('BUY', 10)).to.deep.equal([9998, 9997, 9996, 9995, 9994].map((p) => [p, 10, 1]));
    expect(book.depth('SELL', 10)).to.deep.equal([10002, 10003, 10004, 10005, 10006].map((p) => [p, 10, 1]));
    expect(market.crowdLevels('BTCUSDT', 'buy')[0]).to.deep.equal([9998, 10, 1]);
    market.stop();
  });

  it('thins_the_depth_profile_away_from_the_touch', () => {
    // touchLots 100, decay 0.5: 100, 50, 25, 12.5 → 13, 6.25 → 6 (sizes round to whole lots).
    const { port, market } = setup({
      seed: 2,
      initialPrice: 100,
      stepMs: 1000,
      volatilityPerYear: 0,
      books: [{ ...quietSpot, touchLots: 100, depthDecay: 0.5, levelGapTicks: 2 }],
    });
    market.start();
    expect(port.book('BTCUSDT').depth('SELL', 10)).to.deep.equal([
      [10002, 100, 1],
      [10004, 50, 1],
      [10006, 25, 1],
      [10008, 13, 1],
      [10010, 6, 1],
    ]);
    market.stop();
  });

  it('re_lays_only_the_touch_when_the_price_moves_one_tick_on_a_gapped_grid', () => {
    // Drift only (σ 0): 100.001 → 100.016 in one 1 s step, μ = ln(100.016 / 100.001) / τ.
    // Centre 10000.1 → 10001.6 ticks: bid touch 9998 → 9999, ask touch 10002 → 10003; the deeper
    // levels stay on multiples of 5 (9995 … 9980 and 10005 … 10020) with the same orders.
    const tau = 1000 / YEAR_MS;
    const { clock, port, market } = setup({
      seed: 5,
      initialPrice: 100.001,
      driftPerYear: Math.log(100.016 / 100.001) / tau,
      stepMs: 1000,
      volatilityPerYear: 0,
      books: [{ ...quietSpot, levelGapTicks: 5 }],
    });
    market.start();
    const book = port.book('BTCUSDT');
    expect(book.depth('BUY', 5).map((l) => l[0])).to.deep.equal([9998, 9995, 9990, 9985, 9980]);
    const deepBid = book.ordersAt('BUY', 9995)[0]!.id;
    const deepAsk = book.ordersAt('SELL', 10010)[0]!.id;
    clock.advanceBy(1000);
    expect(book.depth('BUY', 5).map((l) => l[0])).to.deep.equal([9999, 9995, 9990, 9985, 9980]);
    expect(book.depth('SELL', 5).map((l) => l[0])).to.deep.equal([10003, 10005, 10010, 10015, 10020]);
    expect([book.ordersAt('BUY', 9995)[0]!.id, book.ordersAt('SELL', 10010)[0]!.id]).to.deep.equal([deepBid, deepAsk]);
    market.stop();
  });

  it('never_crosses_and_keeps_a_valid_book_while_the_price_moves', () => {
    const { clock, port, market, prints } = setup({
      seed: 'cross',
      initialPrice: 100,
      stepMs: 250,
      volatilityPerYear: 3,
      jumpsPerDay: 200,
      jumpStd: 0.002,
      books: [
        { ...quietSpot, ordersPerLevel: [1, 3], sizeDispersion: 0.6, churnProbability: 0.1, takerArrivalPerSec: 8, takerMeanLots: 6 },
      ],
    });
    market.start();
    const book = port.book('BTCUSDT');
    let spreadsAtTarget = 0;
    for (let k = 0; k < 4000; k++) {
      clock.advanceBy(250);
      const bid = book.bestBid();
      const ask = book.bestAsk();
      // Never empty (takers cannot sweep past 2 ticks of the touch, the crowd quotes 5 levels), never crossed.
      expect(bid, `bid at step ${k}`).to.be.a('number');
      expect(ask, `ask at step ${k}`).to.be.a('number');
      expect(bid!, `step ${k}`).to.be.lessThan(ask!);
      if (ask! - bid! === 4) spreadsAtTarget++;
    }
    expect(book.checkInvariants()).to.deep.equal([]);
    // Takers really traded, and between them the crowd restores its 4-tick spread most of the time.
    expect(prints.length).to.be.greaterThan(1000);
    expect(spreadsAtTarget).to.be.greaterThan(2000);
    market.stop();
  });

  it('fills_a_resting_order_through_crowd_taker_matching', () => {
    // Our bid at 9999 improves the crowd's 9998: every crowd sell (1 lot, limit 9999 − 2) hits us first.
    const { clock, port, market, prints } = setup({
      seed: 3,
      initialPrice: 100,
      stepMs: 1000,
      volatilityPerYear: 0,
      books: [{ ...quietSpot, takerArrivalPerSec: 1, takerMeanLots: 1, takerSizeDispersion: 0, takerBuyProbability: 0 }],
    });
    market.start();
    const ours = port.placeAs('us', 'BTCUSDT', 'buy', 9999, 2, 'limit');
    expect(ours.id).to.not.equal(undefined);
    for (let k = 0; k < 60 && port.remaining('BTCUSDT', ours.id!) > 0; k++) clock.advanceBy(1000);
    expect(port.remaining('BTCUSDT', ours.id!)).to.equal(0);
    const ourFills = prints.filter((p) => p.makerOwner === 'us');
    expect(ourFills.map((p) => [p.trade.priceTicks, p.trade.lots, p.trade.takerSide, p.takerOwner])).to.deep.equal([
      [9999, 1, 'sell', 'crowd-taker'],
      [9999, 1, 'sell', 'crowd-taker'],
    ]);
    // Until we were filled nobody else traded: we were the best bid.
    expect(prints.indexOf(ourFills[1]!)).to.equal(1);
    market.stop();
  });

  it('prints_a_byte_identical_tape_for_the_same_seed_and_steps', () => {
    const config: SyntheticMarketConfig = {
      seed: 'determinism',
      initialPrice: 87_000,
      stepMs: 250,
      volatilityPerYear: 0.8,
      jumpsPerDay: 20,
      jumpStd: 0.003,
      premium: { mean: 0.0002, std: 0.0003, halfLifeMs: 300_000 },
      books: [
        {
          ...quietSpot,
          tick: '0.01',
          ordersPerLevel: [1, 4],
          sizeDispersion: 0.5,
          churnProbability: 0.05,
          takerArrivalPerSec: 5,
          takerMeanLots: 3,
        },
        {
          ...quietSpot,
          symbol: 'BTC_USDT',
          kind: 'contract',
          tick: '0.1',
          spreadTicks: 1,
          levels: 10,
          takerArrivalPerSec: 4,
          takerMeanLots: 20,
          touchLots: 50,
        },
      ],
    };
    // The tape (every print with its owners), then the final books and the derived prices.
    const tapeOf = (cfg: SyntheticMarketConfig): string => {
      const { clock, port, market, prints } = setup(cfg);
      market.start();
      for (let k = 0; k < 2000; k++) clock.advanceBy(250);
      market.stop();
      const lines = prints.map((p) => JSON.stringify(p));
      for (const b of cfg.books)
        lines.push(JSON.stringify([b.symbol, port.book(b.symbol).depth('BUY', 20), port.book(b.symbol).depth('SELL', 20)]));
      lines.push(
        JSON.stringify([market.referencePrice(), market.fairPrice(), market.contractPrices('BTC_USDT')!.funding()!.rate.toString()]),
      );
      return lines.join('\n');
    };
    const a = tapeOf(config);
    const b = tapeOf(config);
    expect(a.length).to.be.greaterThan(10_000);
    expect(a === b).to.equal(true);
    // A different seed is a different market.
    expect(tapeOf({ ...config, seed: 'other' }) === a).to.equal(false);
  });

  it('derives_index_fair_and_funding_from_the_premium', () => {
    // σ 0, noise 0, premium fixed at 0.002 (std 0): index = 100, fair = 100 · 1.002 = 100.2,
    // F = 0.002 + clamp(0.0001 − 0.002, ±0.0005) = 0.0015, settled at 08:00 UTC.
    const { clock, market } = setup({
      seed: 4,
      initialPrice: 100,
      stepMs: 60_000,
      volatilityPerYear: 0,
      indexNoise: 0,
      premium: { mean: 0.002, std: 0 },
      books: [{ ...quietSpot, symbol: 'BTC_USDT', kind: 'contract', tick: '0.1', indexTick: '0.01' }],
    });
    const settled: string[] = [];
    const board = market.contractPrices('BTC_USDT')!;
    board.onSettlement((s) => settled.push(`${new Date(s.settleTime).toISOString()} ${s.rate.toString()}`));
    market.start();
    clock.advanceTo(Date.UTC(2024, 0, 1, 8, 30));
    expect(board.index()!.price.toString()).to.equal('100');
    expect(board.fair()!.price.toString()).to.equal('100.2');
    expect(board.funding()!.rate.toString()).to.equal('0.0015');
    expect(board.funding()!.nextSettleTime).to.equal(Date.UTC(2024, 0, 1, 16));
    expect(settled).to.deep.equal(['2024-01-01T08:00:00.000Z 0.0015']);
    expect(board.settlements().map((s) => s.rate.toString())).to.deep.equal(['0.0015']);
    // The contract book is centred on the fair price: 100.2 / 0.1 = 1002 ticks → bid 1000, ask 1004.
    expect(market.crowdLevels('BTC_USDT', 'buy')[0]![0]).to.equal(1000);
    expect(market.crowdLevels('BTC_USDT', 'sell')[0]![0]).to.equal(1004);
    // Index candles carry the samples with vol 0.
    const c = board.indexCandles.contractCandles('1m', {}, clock.now());
    expect([c.close.at(-1), c.vol.at(-1), c.amount.at(-1)]).to.deep.equal([100, 0, 0]);
    market.stop();
  });

  it('rejects_a_config_with_the_field_named', () => {
    expect(() => setup({ seed: 1, initialPrice: 100, stepMs: 1000, volatilityPerYear: 0, books: [{ ...quietSpot, spreadTicks: 0 }] }))
      .to.throw(ValidationError)
      .with.property('field', 'books[0].spreadTicks');
    expect(() => setup({ seed: 1, initialPrice: 100, stepMs: 1000, volatilityPerYear: 0, books: [{ ...quietSpot, depthDecay: 1.5 }] }))
      .to.throw(ValidationError)
      .with.property('field', 'books[0].depthDecay');
  });
});
