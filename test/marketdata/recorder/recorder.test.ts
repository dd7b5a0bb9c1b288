/**
 * The Recorder on hand-written stub fetchers and a VirtualClock (no HTTP): flushing on its clock,
 * records the store refuses, failed polls, a second writer on the same store.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { VirtualClock } from '../../../src/core/clock.js';
import { D } from '../../../src/core/decimal.js';
import type { BookTicker, Kline, MarketTrade, OrderBookSnapshot, Ticker24h } from '../../../src/domain/snapshot.js';
import type { SpotMarketFetcher } from '../../../src/marketdata/poll/market-fetcher.js';
import type { AveragePrice } from '../../../src/marketdata/poll/snapshot-records.js';
import { parseRecordConfig } from '../../../src/marketdata/recorder/record-config.js';
import { Recorder } from '../../../src/marketdata/recorder/recorder.js';
import { RecordStoreReader } from '../../../src/marketdata/store/record-store-reader.js';
import { StoreLocked } from '../../../src/marketdata/store/store-error.js';
import { TempDirs, until } from './support/recorder-rig.js';

const T0 = 1_767_225_600_000;

/** Answers from the call number; `failDepth` lists depth calls (1-based) that throw. */
class StubSpot implements SpotMarketFetcher {
  depthCalls = 0;
  failDepth = new Set<number>();
  badBookTicker = false;
  constructor(private readonly clock: VirtualClock) {}
  async depth(): Promise<OrderBookSnapshot> {
    const n = ++this.depthCalls;
    if (this.failDepth.has(n)) throw new Error(`depth call ${n} failed (scripted)`);
    return {
      bids: [{ price: D(100), quantity: D(n) }],
      asks: [{ price: D(101), quantity: D(1) }],
      sequence: String(n),
      exchangeTime: this.clock.now(),
    };
  }
  async bookTicker(): Promise<BookTicker> {
    // A price the store cannot hold as a decimal string.
    return { bidPrice: this.badBookTicker ? D(Infinity) : D(100), bidQty: D(1), askPrice: D(101), askQty: D(1) };
  }
  async trades(): Promise<readonly MarketTrade[]> {
    return [];
  }
  async klines(): Promise<readonly Kline[]> {
    return [];
  }
  async ticker24h(): Promise<Ticker24h> {
    return { lastPrice: D(100) };
  }
  async avgPrice(): Promise<AveragePrice> {
    return { price: D(100), windowMinutes: 5 };
  }
}

const config = (out: string, streams: Record<string, unknown> = { depth: {} }) =>
  parseRecordConfig({ out, instruments: [{ symbol: 'BTCUSDT', cycleMs: 1000, streams }], store: { flushMs: 5000 } });

function depthInStore(dir: string): number {
  const r = RecordStoreReader.open(dir);
  try {
    return r.count({ streams: ['depth.snapshot'] });
  } finally {
    r.close();
  }
}

describe('Recorder (stub fetchers, virtual clock)', () => {
  const dirs = new TempDirs();
  after(() => dirs.cleanup());

  async function started(streams?: Record<string, unknown>) {
    const clock = new VirtualClock(T0);
    const spot = new StubSpot(clock);
    const out = join(dirs.make(), 'store');
    const recorder = new Recorder({ clock, config: config(out, streams), spot, store: { fsync: 'never' } });
    await recorder.start();
    await until(() => recorder.stats().snapshots === 1);
    return { clock, spot, out, recorder };
  }

  async function cycle(clock: VirtualClock, recorder: Recorder, snapshots: number): Promise<void> {
    clock.advanceBy(1000);
    await until(() => recorder.stats().snapshots === snapshots);
  }

  it('writes_buffered_records_to_the_file_every_flush_period_of_its_clock', async () => {
    const { clock, out, recorder } = await started();
    for (let k = 2; k <= 4; k++) await cycle(clock, recorder, k);
    // Cycles at T0 … T0+3 s: 4 depth records appended, all still buffered (flush period 5 s).
    expect(recorder.stats().byStream['depth.snapshot']).to.equal(4);
    expect(depthInStore(out)).to.equal(0);
    await cycle(clock, recorder, 5); // T0+4 s
    clock.advanceBy(1000); // T0+5 s: the flush timer fires before the sixth cycle's answer arrives
    expect(depthInStore(out)).to.equal(5);
    await until(() => recorder.stats().snapshots === 6);
    const summary = await recorder.stop('test');
    expect(depthInStore(out)).to.equal(6);
    expect(summary.reason).to.equal('test');
  });

  it('counts_a_record_the_store_refuses_and_keeps_recording', async () => {
    const { clock, spot, out, recorder } = await started({ depth: {}, bookTicker: {} });
    spot.badBookTicker = true;
    await cycle(clock, recorder, 2);
    await cycle(clock, recorder, 3);
    const summary = await recorder.stop();
    // Cycle 1 had a good book ticker; cycles 2 and 3 were refused, their depth records were not.
    expect([summary.rejected, summary.byStream.bookTicker, summary.byStream['depth.snapshot']]).to.deep.equal([2, 1, 3]);
    expect(depthInStore(out)).to.equal(3);
    expect(summary.error).to.equal(undefined);
  });

  it('counts_failed_polls_and_records_again_after_the_backoff', async () => {
    const { clock, spot, recorder } = await started();
    spot.failDepth.add(2);
    clock.advanceBy(1000); // T0+1 s fails → retry after the default 500 ms backoff
    await until(() => recorder.stats().pollFailures === 1);
    clock.advanceBy(500);
    await until(() => recorder.stats().snapshots === 2);
    const summary = await recorder.stop();
    expect([summary.pollFailures, summary.snapshots, summary.byStream['depth.snapshot']]).to.deep.equal([1, 2, 2]);
  });

  it('refuses_to_record_into_a_store_another_recorder_is_writing', async () => {
    const { clock, out, recorder } = await started();
    const second = new Recorder({ clock, config: config(out), spot: new StubSpot(clock), store: { fsync: 'never' } });
    let err: unknown;
    try {
      await second.start();
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(StoreLocked);
    expect(recorder.running).to.equal(true);
    await recorder.stop();
    await second.stop();
  });
});
