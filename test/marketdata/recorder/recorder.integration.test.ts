/**
 * The recorder against the in-process emulator over real HTTP, on the emulator's virtual clock: record
 * N poll cycles, read the store back, and compare with the venue's own tape (every trade printed once,
 * every closed bar once, nothing of an open bar), check the two clocks are kept apart, continue the
 * same store with a second session, and replay what was recorded.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { VirtualClock } from '../../../src/core/clock.js';
import type { ContractInstrument, SpotInstrument } from '../../../src/domain/instrument.js';
import { parseRecordConfig, type RecordConfig, type RecordConfigInput } from '../../../src/marketdata/recorder/record-config.js';
import { Recorder, type RecorderSummary } from '../../../src/marketdata/recorder/recorder.js';
import { ReplayMarketSource } from '../../../src/marketdata/record/replay-market-source.js';
import type { DataRecord, RecordStream } from '../../../src/marketdata/record/record.js';
import { RecordStoreReader } from '../../../src/marketdata/store/record-store-reader.js';
import { OrderBookLiquidityPort } from '../../../src/venue/market/order-book-liquidity-port.js';
import type { TapeAggregator } from '../../../src/venue/market/tape-aggregator.js';
import { multiset, SkewedClock, startRecorderRig, T0, TempDirs, until, type RecorderRig } from './support/recorder-rig.js';

/** Our clock runs this far ahead of the venue's: lt − et of a record stamped by the venue at receipt. */
const SKEW = 250;
const CYCLE = 1000;

const configInput = (out: string): RecordConfigInput => ({
  out,
  venue: { rateLimit: false },
  instruments: [
    {
      symbol: 'BTCUSDT',
      cycleMs: CYCLE,
      streams: {
        depth: { limit: 5 },
        bookTicker: {},
        trades: { everyMs: 2000, limit: 200 },
        klines: { intervals: ['1m'], limit: 5 },
        ticker24h: { everyMs: 5000 },
      },
    },
    {
      symbol: 'BTC_USDT',
      cycleMs: CYCLE,
      streams: {
        depth: { limit: 5 },
        ticker: {},
        fundingRate: { everyMs: 5000 },
        fairPrice: {},
        indexPrice: {},
        deals: { everyMs: 2000, limit: 100 },
        klines: { intervals: ['Min1'], limit: 5 },
      },
    },
  ],
  store: { flushMs: 5000 },
});

/**
 * Runs one recording session of `cycles` poll cycles: the first at start, then one per CYCLE of
 * virtual time. Returns the inner (venue) time of the last cycle.
 */
async function recordSession(
  rig: RecorderRig,
  config: RecordConfig,
  cycles: number,
): Promise<{ recorder: Recorder; summary: RecorderSummary; lastCycleAt: number }> {
  const clock = new SkewedClock(rig.venueClock, SKEW);
  const recorder = new Recorder({ clock, config, spot: rig.spot, contract: rig.contractFetcher(clock), store: { fsync: 'never' } });
  await recorder.start();
  await until(() => recorder.stats().snapshots === 2);
  for (let k = 1; k < cycles; k++) {
    rig.venueClock.advanceBy(CYCLE);
    await until(() => recorder.stats().snapshots === 2 * (k + 1));
  }
  const lastCycleAt = rig.venueClock.now();
  return { recorder, summary: await recorder.stop('test'), lastCycleAt };
}

function readAll(dir: string): DataRecord[] {
  const reader = RecordStoreReader.open(dir);
  try {
    expect(reader.warnings).to.deep.equal([]);
    return [...reader.records({ order: 'receive' })];
  } finally {
    reader.close();
  }
}

const of = <S extends RecordStream>(records: readonly DataRecord[], symbol: string, s: S): Extract<DataRecord, { s: S }>[] =>
  records.filter((r): r is Extract<DataRecord, { s: S }> => r.i === symbol && r.s === s);

const tradeKey = (t: { et: number; p: string; q: string; ts: string }): string => `${t.et}|${t.p}|${t.q}|${t.ts}`;

function tapeTrades(tape: TapeAggregator, upTo: number): { key: string; id: string }[] {
  const all = tape.recentTrades(1000);
  // The tape keeps the last 1000 prints: fewer means every print since the start is here.
  expect(all.length).to.be.lessThan(1000);
  return all
    .filter((t) => t.time <= upTo)
    .map((t) => ({ key: `${t.time}|${t.price.toFixed()}|${t.qty.toFixed()}|${t.takerSide}`, id: String(t.id) }));
}

describe('Recorder over HTTP (emulator, virtual clock)', function () {
  this.timeout(120_000);
  const dirs = new TempDirs();
  let rig: RecorderRig;
  let out: string;
  let records: DataRecord[];
  let summary: RecorderSummary;
  let lastCycleAt: number;
  // 130 cycles: venue times T0, T0+1 s, …, T0+129 s.
  const N = 130;

  before(async () => {
    rig = await startRecorderRig();
    out = join(dirs.make(), 'store');
    ({ summary, lastCycleAt } = await recordSession(rig, parseRecordConfig(configInput(out)), N));
    records = readAll(out);
  });
  after(async () => {
    await rig?.close();
    dirs.cleanup();
  });

  it('writes_one_record_per_fetch_of_each_stream_and_none_for_carried_over_streams', () => {
    expect(lastCycleAt).to.equal(T0 + (N - 1) * CYCLE);
    const count = (symbol: string, s: RecordStream): number => records.filter((r) => r.i === symbol && r.s === s).length;
    // depth / bookTicker / contract ticker / fair / index every cycle: 130 each.
    // ticker24h and funding every 5 s: cycles 0, 5, …, 125 → 26.
    expect({
      depth: count('BTCUSDT', 'depth.snapshot'),
      bookTicker: count('BTCUSDT', 'bookTicker'),
      ticker: count('BTCUSDT', 'ticker'),
    }).to.deep.equal({ depth: 130, bookTicker: 130, ticker: 26 });
    expect({
      depth: count('BTC_USDT', 'depth.snapshot'),
      ticker: count('BTC_USDT', 'ticker'),
      fair: count('BTC_USDT', 'fair'),
      index: count('BTC_USDT', 'index'),
      funding: count('BTC_USDT', 'funding'),
    }).to.deep.equal({ depth: 130, ticker: 130, fair: 130, index: 130, funding: 26 });
    expect(summary.snapshots).to.equal(2 * N);
    expect(summary.records).to.equal(records.length);
    expect(summary.byStream['depth.snapshot']).to.equal(260);
    expect(summary.pollFailures).to.equal(0);
  });

  it('records_every_spot_print_of_the_tape_exactly_once', () => {
    // Trades are fetched at even cycles (everyMs 2000); the last at cycle 128.
    const lastTradeFetch = T0 + 128 * CYCLE;
    const truth = tapeTrades(rig.emu.spot.tapes.get('BTCUSDT')!, lastTradeFetch);
    const recorded = of(records, 'BTCUSDT', 'trade');
    expect(truth.length).to.be.greaterThan(50);
    expect(multiset(recorded.map(tradeKey))).to.deep.equal(multiset(truth.map((t) => t.key)));
    // MEXC spot sends no trade id: the key is (time, price, qty, side), counted.
    expect(recorded.every((t) => t.id === undefined)).to.equal(true);
    expect(summary.tradeGaps).to.equal(0);
  });

  it('records_every_contract_deal_once_by_its_id', () => {
    const lastTradeFetch = T0 + 128 * CYCLE;
    const truth = tapeTrades(rig.emu.contract.tapes.get('BTC_USDT')!, lastTradeFetch);
    const recorded = of(records, 'BTC_USDT', 'trade');
    expect(truth.length).to.be.greaterThan(50);
    const ids = recorded.map((t) => t.id!);
    expect(new Set(ids).size).to.equal(ids.length);
    expect(multiset(ids)).to.deep.equal(multiset(truth.map((t) => t.id)));
    expect(multiset(recorded.map(tradeKey))).to.deep.equal(multiset(truth.map((t) => t.key)));
  });

  it('records_only_closed_bars_each_once_with_the_venue_values', () => {
    // Bars closed by the last kline fetch (cycle 129, T0+129 s): [T0, T0+60 s) and [T0+60 s, T0+120 s).
    const spotTape = rig.emu.spot.tapes.get('BTCUSDT')!;
    const spotTruth = spotTape.klineBars('1m', { limit: 1000 }, lastCycleAt).filter((b) => b.closeTime <= lastCycleAt);
    expect(spotTruth.map((b) => b.openTime)).to.deep.equal([T0, T0 + 60_000]);
    const spotBars = of(records, 'BTCUSDT', 'kline');
    expect(spotBars.map((b) => [b.o, b.h, b.l, b.c, b.v])).to.deep.equal(
      spotTruth.map((b) =>
        [spotTape.price(b.open), spotTape.price(b.high), spotTape.price(b.low), spotTape.price(b.close), spotTape.qty(b.volume)].map((d) =>
          d.toFixed(),
        ),
      ),
    );
    // Contract candles as the venue serves them (open = previous close), seconds → ms.
    const c = rig.emu.contract.tapes.get('BTC_USDT')!.contractCandles('1m', {}, lastCycleAt);
    const closed = c.time.map((_t, k) => k).filter((k) => c.time[k]! * 1000 + 60_000 <= lastCycleAt);
    expect(closed.map((k) => c.time[k]! * 1000)).to.deep.equal([T0, T0 + 60_000]);
    const contractBars = of(records, 'BTC_USDT', 'kline');
    expect(contractBars.map((b) => [b.o, b.h, b.l, b.c, b.v].map(Number))).to.deep.equal(
      closed.map((k) => [c.open[k], c.high[k], c.low[k], c.close[k], c.vol[k]]),
    );
    for (const [bars, iv] of [
      [spotBars, '1m'],
      [contractBars, '1m'],
    ] as const) {
      expect(bars.map((b) => [b.iv, b.ot, b.et, b.x])).to.deep.equal([
        [iv, T0, T0 + 60_000, true],
        [iv, T0 + 60_000, T0 + 120_000, true],
      ]);
      // Written by the first poll after the close (the response then holds the next bar): lt = that poll's time.
      expect(bars.map((b) => b.lt)).to.deep.equal([T0 + 60_000 + SKEW, T0 + 120_000 + SKEW]);
    }
  });

  it('keeps_exchange_time_and_local_receive_time_apart', () => {
    const pollTimes = new Set(Array.from({ length: N }, (_, k) => T0 + k * CYCLE + SKEW));
    // Every record's lt is the poll time of its cycle on OUR clock.
    expect(records.every((r) => pollTimes.has(r.lt))).to.equal(true);
    // Records the venue stamps when it answers: et is the venue's clock, SKEW behind ours.
    for (const [symbol, s] of [
      ['BTCUSDT', 'depth.snapshot'],
      ['BTC_USDT', 'depth.snapshot'],
      ['BTC_USDT', 'ticker'],
      ['BTC_USDT', 'fair'],
      ['BTC_USDT', 'index'],
    ] as const) {
      const rs = records.filter((r) => r.i === symbol && r.s === s);
      expect(
        rs.map((r) => r.lt - r.et),
        `${symbol} ${s}`,
      ).to.deep.equal(rs.map(() => SKEW));
    }
    // The spot book ticker carries no venue time: et falls back to lt.
    expect(of(records, 'BTCUSDT', 'bookTicker').every((r) => r.et === r.lt)).to.equal(true);
    // Trades keep their print time: at or before the venue time of the poll that found them.
    for (const t of [...of(records, 'BTCUSDT', 'trade'), ...of(records, 'BTC_USDT', 'trade')]) expect(t.et).to.be.at.most(t.lt - SKEW);
  });

  it('feeds_the_recording_to_the_replay_source_without_errors', () => {
    const spot = rig.emu.context.spotInstruments.get('BTCUSDT') as SpotInstrument;
    const contract = rig.emu.context.contractInstruments.get('BTC_USDT') as ContractInstrument;
    const reader = RecordStoreReader.open(out);
    try {
      const clock = new VirtualClock(0);
      const port = new OrderBookLiquidityPort(clock, ['BTCUSDT', 'BTC_USDT'], () => undefined);
      const replay = new ReplayMarketSource({
        records: reader.query(),
        instruments: [
          { market: 'spot', symbol: 'BTCUSDT', tick: spot.tick, step: spot.step, depthLevels: 5 },
          { market: 'contract', symbol: 'BTC_USDT', tick: contract.priceUnit, step: contract.volUnit, depthLevels: 5 },
        ],
        clock,
        port,
      });
      const lastEt = Math.max(...records.map((r) => r.et));
      const applied = replay.advanceTo(lastEt);
      expect(applied).to.equal(records.length);
      expect(replay.done).to.equal(true);
      expect(replay.stats).to.include({ records: records.length, skipped: 0, unsynced: 0 });
      expect(replay.stats.trades).to.equal(records.filter((r) => r.s === 'trade').length);
      expect(port.bestBid('BTCUSDT')).to.be.a('number');
      expect(port.bestAsk('BTC_USDT')).to.be.a('number');
      expect(replay.contractPrices('BTC_USDT')?.fair()).to.not.equal(undefined);
    } finally {
      reader.close();
    }
  });
});

describe('Recorder resuming a store (emulator, virtual clock)', function () {
  this.timeout(120_000);
  const dirs = new TempDirs();
  let rig: RecorderRig;

  before(async () => {
    rig = await startRecorderRig();
  });
  after(async () => {
    await rig?.close();
    dirs.cleanup();
  });

  it('continues_the_same_store_without_writing_stored_trades_or_bars_again', async () => {
    const out = join(dirs.make(), 'store');
    const config = parseRecordConfig(configInput(out));
    // Session 1: cycles at T0 … T0+69 s; session 2 starts one cycle later: T0+70 s … T0+129 s.
    const first = await recordSession(rig, config, 70);
    rig.venueClock.advanceBy(CYCLE);
    const second = await recordSession(rig, config, 60);
    expect(second.lastCycleAt).to.equal(T0 + 129 * CYCLE);

    expect(first.summary.seeded).to.deep.equal({ trades: 0, klineIntervals: 0 });
    expect(second.summary.seeded!.trades).to.be.greaterThan(0);
    // Both instruments had stored bars ([T0, T0+60 s) closed in session 1).
    expect(second.summary.seeded!.klineIntervals).to.equal(2);
    expect(second.summary.recovery).to.deep.equal([]);

    const records = readAll(out);
    const reader = RecordStoreReader.open(out);
    expect(reader.meta()).to.have.length(2);
    reader.close();
    // Session 2 fetches trades at its even cycles (T0+70 s, …, T0+128 s).
    const lastTradeFetch = T0 + 128 * CYCLE;
    const spotTruth = tapeTrades(rig.emu.spot.tapes.get('BTCUSDT')!, lastTradeFetch);
    expect(multiset(of(records, 'BTCUSDT', 'trade').map(tradeKey))).to.deep.equal(multiset(spotTruth.map((t) => t.key)));
    const contractIds = of(records, 'BTC_USDT', 'trade').map((t) => t.id!);
    expect(multiset(contractIds)).to.deep.equal(
      multiset(tapeTrades(rig.emu.contract.tapes.get('BTC_USDT')!, lastTradeFetch).map((t) => t.id)),
    );
    for (const symbol of ['BTCUSDT', 'BTC_USDT']) {
      expect(of(records, symbol, 'kline').map((b) => b.ot)).to.deep.equal([T0, T0 + 60_000]);
    }
    // 70 + 60 cycles of depth per instrument, nothing lost or doubled at the seam.
    expect(of(records, 'BTCUSDT', 'depth.snapshot')).to.have.length(130);
  });
});
