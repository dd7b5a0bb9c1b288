import { expect } from 'chai';
import { VirtualClock } from '../../../src/core/clock.js';
import { JsonLinesRecordWriter } from '../../../src/marketdata/record/json-lines-codec.js';
import {
  MirrorMarketSource,
  type MirrorBook,
  type MirrorFeedPort,
  type MirrorPrices,
  type MirrorTrade,
} from '../../../src/marketdata/record/mirror-market-source.js';
import { OrderBookLiquidityPort, type PrintEvent } from '../../../src/venue/market/order-book-liquidity-port.js';

/** A scripted venue: each poll pops the next depth / trades answer. */
class ScriptedFeed implements MirrorFeedPort {
  books: MirrorBook[] = [];
  tradeLists: MirrorTrade[][] = [];
  failNext = false;
  prices?: (symbol: string) => Promise<MirrorPrices>;
  calls: string[] = [];

  async depth(symbol: string, limit: number): Promise<MirrorBook> {
    this.calls.push(`depth ${symbol} ${limit}`);
    if (this.failNext) {
      this.failNext = false;
      throw new Error('venue down');
    }
    return this.books.length > 1 ? this.books.shift()! : this.books[0]!;
  }

  async trades(symbol: string, limit: number): Promise<readonly MirrorTrade[]> {
    this.calls.push(`trades ${symbol} ${limit}`);
    return this.tradeLists.length > 1 ? this.tradeLists.shift()! : (this.tradeLists[0] ?? []);
  }
}

const inst = { market: 'spot', symbol: 'BTCUSDT', tick: '0.01', step: '0.001', depthLevels: 10 } as const;
const book = (version: number, bids: [string, string][], asks: [string, string][]): MirrorBook => ({
  version,
  time: 5000 + version,
  bids,
  asks,
});
const tr = (time: number, price: string, qty: string, takerSide: 'buy' | 'sell', id?: string): MirrorTrade => ({
  time,
  price,
  qty,
  takerSide,
  ...(id ? { id } : {}),
});

function setup(feed: ScriptedFeed, recorded: string[] = []) {
  const clock = new VirtualClock(100_000);
  const prints: PrintEvent[] = [];
  const port = new OrderBookLiquidityPort(clock, ['BTCUSDT'], (e) => prints.push(e));
  const source = new MirrorMarketSource({
    feeds: { spot: feed },
    instruments: [inst],
    clock,
    port,
    pollMs: 1000,
    depthLimit: 50,
    tradeLimit: 20,
    recorder: new JsonLinesRecordWriter({ write: (c: string) => recorded.push(c) }),
  });
  return { clock, port, prints, source };
}

describe('MirrorMarketSource', () => {
  it('copies_the_venue_book_and_prints_only_trades_after_the_first_poll', async () => {
    const feed = new ScriptedFeed();
    feed.books = [book(10, [['100.00', '0.005']], [['100.02', '0.004']]), book(11, [['100.00', '0.005']], [['100.02', '0.004']])];
    feed.tradeLists = [
      [tr(1000, '100.02', '0.001', 'buy'), tr(900, '100.00', '0.001', 'sell')],
      [tr(1200, '100.01', '0.002', 'buy'), tr(1000, '100.02', '0.001', 'buy'), tr(900, '100.00', '0.001', 'sell')],
    ];
    const { port, prints, source } = setup(feed);
    await source.pollOnce();
    expect(port.book('BTCUSDT').depth('BUY', 5)).to.deep.equal([[10000, 5, 1]]);
    expect(prints).to.deep.equal([]);
    // Our ask inside the venue's spread; the venue then prints a buy of 2 at 100.01: ours.
    const ours = port.placeAs('us', 'BTCUSDT', 'sell', 10001, 2, 'limit').id!;
    await source.pollOnce();
    expect(prints.map((p) => [p.makerOwner, p.trade.priceTicks, p.trade.lots, p.trade.takerSide])).to.deep.equal([['us', 10001, 2, 'buy']]);
    expect(port.remaining('BTCUSDT', ours)).to.equal(0);
    expect(source.mirrorStats).to.include({ polls: 2, newTrades: 1, errors: 0, possiblyMissed: 0 });
    expect(feed.calls).to.include.members(['depth BTCUSDT 50', 'trades BTCUSDT 20']);
  });

  it('prints_the_first_trade_after_a_first_poll_with_an_empty_tape', async () => {
    // A venue that had not traded yet when mirroring began: its first trade is new, not history.
    const feed = new ScriptedFeed();
    feed.books = [book(1, [['99.00', '1']], [['101.00', '1']])];
    feed.tradeLists = [[], [tr(1000, '100.00', '0.001', 'buy')]];
    const { source } = setup(feed);
    await source.pollOnce();
    await source.pollOnce();
    expect(source.mirrorStats).to.include({ newTrades: 1, possiblyMissed: 0 });
  });

  it('tells_repeated_id_less_trades_at_the_same_time_apart_by_count', async () => {
    const feed = new ScriptedFeed();
    feed.books = [book(1, [['99.00', '1']], [['101.00', '1']])];
    const a = tr(1000, '100.00', '0.001', 'buy');
    feed.tradeLists = [
      [a],
      // The same print again plus an identical second one at the same ms: exactly one is new.
      [a, { ...a }],
      // Nothing new.
      [a, { ...a }],
    ];
    const { source } = setup(feed);
    await source.pollOnce();
    await source.pollOnce();
    await source.pollOnce();
    expect(source.mirrorStats.newTrades).to.equal(1);
    expect(source.stats.trades).to.equal(1);
  });

  it('flags_possibly_missed_trades_when_a_poll_does_not_reach_back', async () => {
    const feed = new ScriptedFeed();
    feed.books = [book(1, [['99.00', '1']], [['101.00', '1']])];
    feed.tradeLists = [
      [tr(1000, '100.00', '0.001', 'buy', '1')],
      [tr(3000, '100.00', '0.001', 'buy', '3'), tr(2000, '100.00', '0.001', 'buy', '2')],
    ];
    const { source } = setup(feed);
    await source.pollOnce();
    await source.pollOnce();
    expect(source.mirrorStats).to.include({ newTrades: 2, possiblyMissed: 1 });
  });

  it('counts_a_failed_poll_and_keeps_the_book_and_records_what_it_applied', async () => {
    const feed = new ScriptedFeed();
    feed.books = [book(1, [['99.00', '0.003']], [['101.00', '0.002']])];
    feed.tradeLists = [[tr(1000, '100.00', '0.001', 'buy', '1')]];
    const lines: string[] = [];
    const { port, source } = setup(feed, lines);
    await source.pollOnce();
    feed.failNext = true;
    await source.pollOnce();
    expect(source.mirrorStats.errors).to.equal(1);
    expect((source.mirrorStats.lastError as Error).message).to.equal('venue down');
    expect(port.book('BTCUSDT').depth('SELL', 5)).to.deep.equal([[10100, 2, 1]]);
    // The first poll was recorded: the depth snapshot stamped with the venue time and our clock.
    expect(lines.map((l) => JSON.parse(l).s)).to.deep.equal(['depth.snapshot']);
    expect(JSON.parse(lines[0]!)).to.include({ m: 'spot', i: 'BTCUSDT', et: 5001, lt: 100_000, u: 1 });
  });

  it('polls_on_the_clock_and_stops', async () => {
    const feed = new ScriptedFeed();
    feed.books = [book(1, [['99.00', '1']], [['101.00', '1']])];
    const { clock, source } = setup(feed);
    source.start();
    await source.pollOnce();
    clock.advanceBy(1000);
    await source.pollOnce();
    clock.advanceBy(1000);
    await source.pollOnce();
    source.stop();
    clock.advanceBy(5000);
    await Promise.resolve();
    expect(source.mirrorStats.polls).to.equal(3);
    expect(clock.pendingTimers()).to.equal(0);
  });

  it('mirrors_index_fair_and_funding_of_a_perpetual', async () => {
    const feed = new ScriptedFeed();
    feed.books = [{ version: 1, time: 1, bids: [['87631.4', '11742']], asks: [['87631.5', '11008']] }];
    feed.prices = async () => ({
      index: { price: '87812.39', time: 1767206846103 },
      fair: { price: '87790.2', time: 1767208306192 },
      funding: { rate: '0.0001', min: '-0.0018', max: '0.0018', nextSettleTime: 1767225600000, collectCycleHours: 8, time: 1767211289574 },
    });
    const clock = new VirtualClock(100_000);
    const port = new OrderBookLiquidityPort(clock, ['BTC_USDT'], () => {});
    const source = new MirrorMarketSource({
      feeds: { contract: feed },
      instruments: [{ market: 'contract', symbol: 'BTC_USDT', tick: '0.1', step: '1', indexTick: '0.01' }],
      clock,
      port,
    });
    await source.pollOnce();
    const board = source.contractPrices('BTC_USDT')!;
    expect([
      board.index()!.price.toString(),
      board.fair()!.price.toString(),
      board.funding()!.rate.toString(),
      board.funding()!.nextSettleTime,
    ]).to.deep.equal(['87812.39', '87790.2', '0.0001', 1767225600000]);
    expect(port.book('BTC_USDT').depth('BUY', 1)).to.deep.equal([[876314, 11742, 1]]);
  });
});
