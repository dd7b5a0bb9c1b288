import { expect } from 'chai';
import { VirtualClock } from '../../src/core/clock.js';
import { TimeSync, median, type TimeSample } from '../../src/client/time-sync.js';

describe('client/time-sync', () => {
  it('takes_the_median_of_round_trip_midpoint_offsets', async () => {
    const clock = new VirtualClock(1_000_000);
    // offsets: 1250-(1000+1100)/2 = 200; 2600-(2000+2400)/2 = 400; 3190-(3000+3020)/2 = 180 → median 200
    const samples: TimeSample[] = [
      { serverTime: 1250, sentAt: 1000, receivedAt: 1100 },
      { serverTime: 2600, sentAt: 2000, receivedAt: 2400 },
      { serverTime: 3190, sentAt: 3000, receivedAt: 3020 },
    ];
    let i = 0;
    const sync = new TimeSync({ clock, fetchSample: async () => samples[i++]!, samplesPerSync: 3 });
    await sync.sync();
    expect(sync.offset()).to.equal(200);
    expect(sync.now()).to.equal(1_000_200);
  });

  it('keeps_only_the_recent_window', () => {
    const sync = new TimeSync({
      clock: new VirtualClock(0),
      fetchSample: async () => ({ serverTime: 0, sentAt: 0, receivedAt: 0 }),
      windowSize: 3,
    });
    for (const off of [1000, 1000, 1000, 5, 6, 7]) sync.addSample({ serverTime: off, sentAt: 0, receivedAt: 0 });
    // last three: 5, 6, 7 → 6
    expect(sync.offset()).to.equal(6);
  });

  it('refreshes_a_stale_offset_in_the_background_and_a_rejected_one_in_the_foreground', async () => {
    const clock = new VirtualClock(0);
    let serverSkew = 100;
    let calls = 0;
    const sync = new TimeSync({
      clock,
      fetchSample: async () => {
        calls++;
        return { serverTime: clock.now() + serverSkew, sentAt: clock.now(), receivedAt: clock.now() };
      },
      samplesPerSync: 1,
      resyncIntervalMs: 60_000,
    });
    await sync.ensureFresh();
    expect([calls, sync.offset()]).to.deep.equal([1, 100]);
    await sync.ensureFresh();
    expect(calls).to.equal(1);
    serverSkew = 300;
    clock.advanceTo(60_000);
    await sync.ensureFresh();
    await Promise.resolve();
    // background sample added: window [100, 300] → median 200
    expect(calls).to.equal(2);
    expect(sync.offset()).to.equal(200);
    sync.invalidate();
    await sync.ensureFresh();
    // invalidation dropped the old samples: only 300 remains
    expect([calls, sync.offset()]).to.deep.equal([3, 300]);
  });

  it('computes_medians', () => {
    expect(median([])).to.equal(0);
    expect(median([3, 1, 2])).to.equal(2);
    expect(median([4, 1, 3, 2])).to.equal(2.5);
  });
});
