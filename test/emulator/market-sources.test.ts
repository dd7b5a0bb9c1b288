import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SystemClock } from '../../src/core/clock.js';
import { encodeRecordLines } from '../../src/marketdata/record/json-lines-codec.js';
import type { MarketRecord } from '../../src/marketdata/record/record.js';
import { stringify } from 'yaml';
import { emulatorCommand } from '../../src/app/cli/emulator-command.js';
import { startEmulator } from '../../src/emulator/start-emulator.js';
import { T0, raw, testConfig } from './support/emulator-kit.js';

describe('emulator market sources', () => {
  it('replays_a_recorded_book_and_its_trades', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'emu-replay-'));
    try {
      const file = join(dir, 'btc.jsonl');
      const records: MarketRecord[] = [
        {
          s: 'depth.snapshot',
          m: 'spot',
          i: 'BTCUSDT',
          et: 1000,
          lt: 1000,
          u: 1,
          b: [
            ['87000.00', '1.5'],
            ['86999.00', '2'],
          ],
          a: [
            ['87001.00', '2'],
            ['87002.00', '3'],
          ],
        },
        { s: 'trade', m: 'spot', i: 'BTCUSDT', et: 2000, lt: 2000, p: '87001.00', q: '0.5', ts: 'buy' },
      ];
      await writeFile(file, encodeRecordLines(records));
      const emu = await startEmulator(
        testConfig({ instruments: { spot: ['BTCUSDT'], contract: [] }, market: { source: 'replay', file, speed: 1 } }),
      );
      try {
        // The recording starts at the clock's time: the book at +0 s, the trade at +1 s.
        emu.advance(500);
        const depth = (await raw(emu.url, 'GET', '/api/v3/depth?symbol=BTCUSDT&limit=5')).json as { bids: string[][]; asks: string[][] };
        expect(depth.bids[0]).to.deep.equal(['87000.00', '1.50000000']);
        expect(depth.asks[0]).to.deep.equal(['87001.00', '2.00000000']);
        emu.advance(1000);
        const trades = (await raw(emu.url, 'GET', '/api/v3/trades?symbol=BTCUSDT')).json as {
          price: string;
          qty: string;
          tradeType: string;
        }[];
        expect(trades.map((t) => [t.price, t.qty, t.tradeType])).to.deep.equal([['87001', '0.5', 'BID']]);
        // The recorded buy took 0.5 of the 2 resting at the ask: 1.5 left.
        const after = (await raw(emu.url, 'GET', '/api/v3/depth?symbol=BTCUSDT&limit=1')).json as { asks: string[][] };
        expect(after.asks[0]).to.deep.equal(['87001.00', '1.50000000']);
        expect(emu.checkInvariants()).to.deep.equal([]);
      } finally {
        await emu.stop();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('replays_a_recording_named_in_a_yaml_config', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'emu-replay-yaml-'));
    try {
      const recording = join(dir, 'btc.jsonl');
      const records: MarketRecord[] = [
        { s: 'depth.snapshot', m: 'contract', i: 'BTC_USDT', et: 1000, lt: 1000, u: 1, b: [['86990.0', '100']], a: [['87010.0', '120']] },
        { s: 'trade', m: 'contract', i: 'BTC_USDT', et: 3000, lt: 3000, p: '87010.0', q: '20', ts: 'buy' },
      ];
      await writeFile(recording, encodeRecordLines(records));
      const file = join(dir, 'replay.yaml');
      await writeFile(
        file,
        stringify({
          ...testConfig({ instruments: { spot: [], contract: ['BTC_USDT'] } }),
          market: { source: 'replay', file: recording, speed: 2 },
        }),
      );
      const emu = await emulatorCommand({ config: file, port: 0, detach: true, out: () => undefined });
      try {
        // Speed 2: the book at +0 s, the trade (2 s later in the recording) at +1 s.
        emu.advance(500);
        const depth = (await raw(emu.url, 'GET', '/api/v1/contract/depth/BTC_USDT?limit=1')).json as {
          data: { bids: number[][]; asks: number[][] };
        };
        expect([depth.data.bids[0]!.slice(0, 2), depth.data.asks[0]!.slice(0, 2)]).to.deep.equal([
          [86990, 100],
          [87010, 120],
        ]);
        emu.advance(1000);
        const deals = (await raw(emu.url, 'GET', '/api/v1/contract/deals/BTC_USDT')).json as {
          data: { p: number; v: number; T: number }[];
        };
        expect(deals.data.map((d) => [d.p, d.v, d.T])).to.deep.equal([[87010, 20, 1]]);
        // 120 − 20 left at the ask.
        const after = (await raw(emu.url, 'GET', '/api/v1/contract/depth/BTC_USDT?limit=1')).json as { data: { asks: number[][] } };
        expect(after.data.asks[0]!.slice(0, 2)).to.deep.equal([87010, 100]);
        expect(emu.checkInvariants()).to.deep.equal([]);
      } finally {
        await emu.stop();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('mirrors_the_public_market_of_another_venue', async () => {
    // The "real venue" here is another emulator with its synthetic market on the system clock.
    const source = await startEmulator(
      testConfig({ clock: { mode: 'system' }, rateLimits: { enabled: false }, market: { source: 'synthetic', stepMs: 200 } }),
    );
    const mirror = await startEmulator(
      testConfig({ clock: { mode: 'system' }, market: { source: 'mirror', url: source.url, pollMs: 300 } }),
    );
    const clock = new SystemClock();
    try {
      // The mirror has polled once it shows a best bid (deadline 10 s instead of a fixed 1.5 s).
      const until = clock.now() + 10_000;
      const mirrored = async (): Promise<boolean> => {
        const depth = (await raw(mirror.url, 'GET', '/api/v3/depth?symbol=BTCUSDT&limit=1')).json as { bids?: string[][] };
        return depth.bids?.length === 1;
      };
      while (!(await mirrored()) && clock.now() < until) await clock.sleep(50);
      const theirs = (await raw(source.url, 'GET', '/api/v3/depth?symbol=BTCUSDT&limit=1')).json as { bids: string[][] };
      const ours = (await raw(mirror.url, 'GET', '/api/v3/depth?symbol=BTCUSDT&limit=1')).json as { bids: string[][] };
      expect(ours.bids).to.have.length(1);
      // Within a poll or two of each other: the best bids differ by less than 0.1 %.
      const diff = Math.abs(Number(ours.bids[0]![0]) - Number(theirs.bids[0]![0])) / Number(theirs.bids[0]![0]);
      expect(diff).to.be.below(0.001);
      const fair = (await raw(mirror.url, 'GET', '/api/v1/contract/fair_price/BTC_USDT')).json as { data: { fairPrice: number } };
      expect(fair.data.fairPrice).to.be.above(0);
    } finally {
      await mirror.stop();
      await source.stop();
      clock.unrefAll();
    }
  });

  it('starts_at_the_configured_virtual_time_and_steps_per_request', async () => {
    const emu = await startEmulator(testConfig({ clock: { mode: 'virtual', start: T0, stepMs: 100 } }), { marketStopped: true });
    try {
      const a = ((await raw(emu.url, 'GET', '/api/v3/time')).json as { serverTime: number }).serverTime;
      const b = ((await raw(emu.url, 'GET', '/api/v3/time')).json as { serverTime: number }).serverTime;
      expect([a, b]).to.deep.equal([T0 + 100, T0 + 200]);
    } finally {
      await emu.stop();
    }
  });
});
