import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBacktestData, openRecordStore } from '../../src/backtest/backtest-data.js';
import { orderToJson } from '../../src/backtest/report/backtest-run.js';
import { RecordStoreWriter } from '../../src/marketdata/store/record-store-writer.js';
import { prepareReplay, replayInstrumentSpecs, runBacktest } from '../../src/backtest/backtest-runner.js';
import type { DataRecord } from '../../src/marketdata/record/record.js';
import { perpTrendConfig, spotMmConfig } from './support/backtest-fixtures.js';

describe('backtest runner', function () {
  this.timeout(60_000);
  let records: DataRecord[];

  before(async () => {
    records = (await loadBacktestData(spotMmConfig().backtest.data)).records;
  });

  it('finishes_when_the_data_ends_before_the_first_poll', async () => {
    // The first cycle at the first record's time finds no market yet (the record is applied after it),
    // so the first snapshot would come a cycle (1000 ms) later; 20 records span less than that. The
    // start-up, which waits for that snapshot, never completes: the run must end anyway.
    const config = spotMmConfig();
    const few = records.slice(0, 20);
    expect(few[few.length - 1]!.et - few[0]!.et).to.be.below(1_000);
    const result = await runBacktest({ config, records: few, fillModel: config.fillModels[0]! });
    expect(result.stats.events).to.equal(20);
    expect(result.stats.runtime.snapshots).to.equal(0);
    expect(result.run.orders).to.have.length(0);
  });

  it('replays_a_record_store_decoded_to_ticks_exactly_like_the_records_in_memory', async () => {
    const config = spotMmConfig();
    const dir = mkdtempSync(join(tmpdir(), 'perpetua-runner-test-'));
    try {
      const w = RecordStoreWriter.open(dir, { segmentPeriod: 'none', maxBufferedMs: Infinity, fsync: 'never', lock: false });
      for (const r of records) w.append(r);
      w.close();
      // The store's own decoding into ticks and lots gives the events prepareReplay() compiles.
      const store = openRecordStore(dir, { compileFor: config });
      const fromStore = [...store.records];
      store.close();
      expect(fromStore).to.deep.equal(prepareReplay(config, records).events);
      const again = openRecordStore(dir, { compileFor: config });
      const disk = await runBacktest({ config, records: again.records, streams: again.streams, fillModel: config.fillModels[0]! });
      again.close();
      const memory = await runBacktest({ config, records, fillModel: config.fillModels[0]! });
      expect(disk.run.orders.length).to.be.greaterThan(0);
      expect(JSON.stringify(disk.run.orders.map(orderToJson))).to.equal(JSON.stringify(memory.run.orders.map(orderToJson)));
      expect(disk.run.samples.at(-1)!.equity.toFixed()).to.equal(memory.run.samples.at(-1)!.equity.toFixed());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('serves_the_event_loop_during_a_run_without_taking_a_turn_at_every_settle', async () => {
    // 600 one-minute bars polled once a bar: the replay loop lets the runtime settle at least once per
    // poll. A turn of the event loop per settle cost an epoll call each (two a bar); the loop still
    // gets a turn every so often (signals, a queue worker's I/O), which the ticker below counts.
    const config = perpTrendConfig();
    const { records: bars } = await loadBacktestData(config.backtest.data);
    let turns = 0;
    let on = true;
    const tick = (): void => {
      turns++;
      if (on) setImmediate(tick);
    };
    setImmediate(tick);
    const result = await runBacktest({ config, records: bars, fillModel: config.fillModels[0]! });
    on = false;
    const polls = result.stats.runtime.snapshots;
    expect(polls).to.be.greaterThan(500);
    expect(turns).to.be.greaterThan(2);
    expect(turns).to.be.below(polls / 4);
  });

  it('keeps_only_the_tape_its_polls_read', () => {
    // spotMmConfig polls depth (limit 20) and trades (limit 20): no bars, no ticker windows, 20 prints.
    const config = spotMmConfig();
    const [spec] = replayInstrumentSpecs(config, prepareReplay(config, records).streams);
    expect(spec!.tape).to.deep.equal({ klineIntervals: [], ticker24h: false, avgPrice: false, recentTrades: 20 });
    const polled = spotMmConfig({
      marketData: {
        maxSnapshotAgeMs: 5000,
        spot: { cycleMs: 1000, streams: { klines: { intervals: ['1m', '5m'], limit: 10 }, ticker24h: {}, avgPrice: {} } },
      },
    });
    const [withBars] = replayInstrumentSpecs(polled, new Map());
    expect(withBars!.tape).to.deep.equal({ klineIntervals: ['1m', '5m'], ticker24h: true, avgPrice: true, recentTrades: 0 });
  });
});
