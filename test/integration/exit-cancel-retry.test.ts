/**
 * Cancel on exit against the emulator over real HTTP. The chaos suite twice found a market-maker quote
 * still resting after a clean stop with cancel-on-exit: once because one failed cancel at shutdown was
 * never tried again (the venue refusing the first cancels, 5xx before the effect: the order stays), once
 * because a restarted bot inherited a quote its killed predecessor had journaled pending-cancel and never
 * cancelled it (nothing asked the venue about it, and the exit cancels skip orders being cancelled).
 */
import { expect } from 'chai';
import { join } from 'node:path';
import type { RunningEmulator } from '../../src/emulator/start-emulator.js';
import { SqliteJournal } from '../../src/persistence/sqlite-journal.js';
import { IT_ACCOUNT, runDoc, startRun, startTestEmulator, STILL_QUOTES_MM, tempDir, waitFor } from './support/paper-harness.js';

describe('integration: cancel on exit retries a refused cancel', function () {
  this.timeout(60_000);
  let emu: RunningEmulator;
  const tmp = tempDir('exit-cancel');

  before(async () => {
    emu = await startTestEmulator({ seed: 31 });
  });
  after(async () => {
    await emu.stop();
    tmp.remove();
  });

  // Quotes that never move: what the test does to the cancels lands on the exit cancels alone.
  const stillQuotes = (journalPath: string) => runDoc(emu.url, journalPath, { instruments: ['BTCUSDT'], strategies: [STILL_QUOTES_MM] });

  it('leaves_no_order_resting_when_the_first_cancels_at_shutdown_get_a_503', async () => {
    const run = await startRun(stillQuotes(join(tmp.dir, 'exit.sqlite')));
    try {
      await waitFor(() => emu.spot.reader.openOrders(IT_ACCOUNT.name, 'BTCUSDT').length === 2, 20_000, 'a bid and an ask resting');
      // Both exit cancels (spot cancels one order per request) are refused before they take effect.
      emu.faults.inject({ match: 'spot.cancelOrder', kind: 'error5xx', phase: 'before', status: 503, times: 2 });
      const summary = await run.stop('test over');
      expect(emu.faults.firedByKind.error5xx, 'refusals injected').to.equal(2);
      expect(
        emu.spot.reader.openOrders(IT_ACCOUNT.name, 'BTCUSDT').map((o) => o.clientOrderId),
        'orders resting at the venue after the stop',
      ).to.deep.equal([]);
      expect(summary.openOrdersLeft.map((o) => o.clientOrderId)).to.deep.equal([]);
      expect(run.journal.orders().filter((o) => o.status !== 'cancelled')).to.have.length(0);
    } finally {
      await run.stop('test over');
      run.dispose();
    }
  });
  it('cancels_on_exit_a_quote_the_killed_run_left_pending_a_cancel', async () => {
    const path = join(tmp.dir, 'killed-mid-cancel.sqlite');
    const first = await startRun(stillQuotes(path));
    const resting = await waitFor(
      () => {
        const open = emu.spot.reader.openOrders(IT_ACCOUNT.name, 'BTCUSDT');
        return open.length === 2 && open;
      },
      20_000,
      'a bid and an ask resting',
    );
    await first.kill();
    // What the journal holds after a SIGKILL between journaling OrderCancelRequested for the bid and
    // sending its cancel: the order pending-cancel, the venue still resting it.
    const bidId = resting.find((o) => o.side === 'BUY')!.clientOrderId!;
    const journal = new SqliteJournal({ path });
    const bid = journal.order(bidId)!;
    expect(bid.status, 'the bid as the first run left it').to.equal('accepted');
    journal.recordOrder({ ...bid, status: 'pending-cancel', statusBeforePending: bid.status });
    journal.close();

    const second = await startRun(stillQuotes(path));
    try {
      const summary = await second.stop('test over');
      expect(
        emu.spot.reader.openOrders(IT_ACCOUNT.name, 'BTCUSDT').map((o) => o.clientOrderId),
        'orders resting at the venue after the stop',
      ).to.deep.equal([]);
      expect(summary.openOrdersLeft.map((o) => o.clientOrderId)).to.deep.equal([]);
      expect(second.journal.order(bidId)!.status).to.equal('cancelled');
    } finally {
      await second.stop('test over');
      second.dispose();
    }
  });
});
