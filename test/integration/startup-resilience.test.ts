/**
 * Start-up rides out transient venue errors (issue 10, defects 3 and 4). Each case injects ONE fault
 * with the emulator's fault injector, over real HTTP, at the moment a run starts:
 *  - a 429 with Retry-After: 1 on the server-time sample (before: start-up threw "spot.serverTime: HTTP 429");
 *  - a server-time answer slower than the request timeout (before: "no complete answer within 3000 ms");
 *  - a position-mode change answered after the client gave up (before: "outcome unknown", the mode
 *    never read back, every perp-trend entry denied "hedged mode: the order must name its position side");
 *  - no venue listening yet (before: start-up threw on the refused connection).
 */
import { expect } from 'chai';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ContractClient } from '../../src/client/contract-client.js';
import type { RunningEmulator } from '../../src/emulator/start-emulator.js';
import { clock, IT_ACCOUNT, runDoc, startRun, startTestEmulator, tempDir, waitFor, type PaperRun } from './support/paper-harness.js';

const MM = {
  id: 'mm1',
  name: 'spot-market-maker',
  instruments: ['BTCUSDT'],
  params: { spreadBps: 1.2, orderSize: '0.001', maxInventory: '0.003', requoteBps: 0.4 },
};

/** A port nothing listens on (bound, then released). */
async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

describe('integration: start-up survives transient venue errors', function () {
  this.timeout(90_000);
  const tmp = tempDir('startup');
  let emu: RunningEmulator | undefined;
  let run: PaperRun | undefined;

  afterEach(async () => {
    await run?.stop('test over');
    run?.dispose();
    run = undefined;
    await emu?.stop();
    emu = undefined;
  });
  after(() => tmp.remove());

  it('starts_after_a_429_with_retry_after_on_the_server_time', async () => {
    emu = await startTestEmulator();
    emu.faults.inject({ match: 'spot.serverTime', kind: 'rateLimit', retryAfterSec: 1, times: 1 });
    const t0 = clock.now();
    run = await startRun(
      runDoc(emu.url, join(tmp.dir, '429.sqlite'), { venue: { requestTimeoutMs: 3000 }, instruments: ['BTCUSDT'], strategies: [MM] }),
    );
    expect(emu.faults.firedByKind).to.deep.equal({ rateLimit: 1 });
    // Retry-After: 1 was honoured: the second sample went out no sooner than a second after the first.
    expect(clock.now() - t0).to.be.at.least(1000);
    await waitFor(() => run!.journal.events().some((e) => e.type === 'OrderAccepted'), 20_000, 'a quote accepted after the 429');
  });

  it('starts_after_a_server_time_answer_slower_than_the_request_timeout', async () => {
    emu = await startTestEmulator();
    emu.faults.inject({ match: 'spot.serverTime', kind: 'delay', delayMs: 3500, times: 1 });
    run = await startRun(
      runDoc(emu.url, join(tmp.dir, 'slow.sqlite'), { venue: { requestTimeoutMs: 3000 }, instruments: ['BTCUSDT'], strategies: [MM] }),
    );
    expect(emu.faults.firedByKind).to.deep.equal({ delay: 1 });
    await waitFor(
      () => run!.journal.events().some((e) => e.type === 'OrderAccepted'),
      20_000,
      'a quote accepted after the slow server time',
    );
  });

  it('starts_when_the_venue_comes_up_after_the_bot', async () => {
    const port = await freePort();
    // The bot dials a port nobody listens on (connection refused) and must wait; the venue comes up 1.5 s later.
    const started = startRun(
      runDoc(`http://127.0.0.1:${port}`, join(tmp.dir, 'refused.sqlite'), {
        venue: { requestTimeoutMs: 3000 },
        instruments: ['BTCUSDT'],
        strategies: [MM],
      }),
    );
    const outcome = started.then(
      (r) => ({ ok: true as const, r }),
      (e: unknown) => ({ ok: false as const, e }),
    );
    await clock.sleep(1500);
    emu = await startTestEmulator({ port });
    const o = await outcome;
    if (!o.ok) throw o.e;
    run = o.r;
    await waitFor(() => run!.journal.events().some((e) => e.type === 'OrderAccepted'), 20_000, 'a quote accepted once the venue is up');
  });

  it('a_position_mode_change_answered_too_late_is_read_back_and_entries_are_not_denied', async () => {
    emu = await startTestEmulator();
    const venue = new ContractClient({
      baseUrl: emu.url,
      clock,
      credentials: { apiKey: IT_ACCOUNT.apiKey, secretKey: IT_ACCOUNT.secretKey },
    });
    try {
      // The emulator's accounts start hedged (1), as the venue's do: perp-trend must switch to one-way (2).
      expect(await venue.positionMode()).to.equal(1);
      // Answered 3.5 s after the change was made: the client (3 s) gives up first and the outcome is unknown.
      emu.faults.inject({ match: 'contract.changePositionMode', kind: 'delay', delayMs: 3500, times: 1 });
      run = await startRun(
        runDoc(emu.url, join(tmp.dir, 'mode.sqlite'), {
          venue: { requestTimeoutMs: 3000, contractTrading: true },
          instruments: ['BTC_USDT'],
          marketData: { maxSnapshotAgeMs: 3000, contract: { cycleMs: 300, streams: { depth: { limit: 20 }, ticker: {} } } },
          strategies: [
            {
              id: 'trend1',
              name: 'perp-trend',
              instruments: ['BTC_USDT'],
              params: {
                leverage: 5,
                marginMode: 'isolated',
                positionMode: 'one-way',
                barSeconds: 1,
                fastPeriod: 2,
                slowPeriod: 3,
                size: 20,
                takeProfitPct: 0.15,
                stopLossPct: 0.1,
              },
            },
          ],
        }),
      );
      const events = () => run!.journal.events();
      await waitFor(() => events().some((e) => e.type === 'PositionModeChanged'), 30_000, 'the position mode confirmed');
      expect(emu.faults.firedByKind).to.deep.equal({ delay: 1 });
      expect(await venue.positionMode()).to.equal(2);
      // An entry reaches the venue: the bot knows it is one-way and the orders name no position side.
      await waitFor(() => events().some((e) => e.type === 'OrderAccepted'), 40_000, 'a perp-trend entry accepted');
      const failed = events().filter(
        (e) => e.type === 'IntentFailed' || (e.type === 'IntentDenied' && /position side|position mode/.test(e.reason)),
      );
      expect(failed.map((e) => ('reason' in e ? e.reason : e.type))).to.deep.equal([]);
    } finally {
      await venue.close();
    }
  });
});
