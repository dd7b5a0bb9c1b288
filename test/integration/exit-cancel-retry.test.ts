/**
 * Cancel on exit against the emulator over real HTTP, with the venue refusing the first cancels (5xx
 * before the effect: the order stays). The chaos suite once found a market-maker quote still resting
 * after a clean stop with cancel-on-exit; one failed cancel at shutdown was never tried again.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import type { RunningEmulator } from '../../src/emulator/start-emulator.js';
import { IT_ACCOUNT, runDoc, startRun, startTestEmulator, tempDir, waitFor } from './support/paper-harness.js';

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

  it('leaves_no_order_resting_when_the_first_cancels_at_shutdown_get_a_503', async () => {
    const run = await startRun(
      runDoc(emu.url, join(tmp.dir, 'exit.sqlite'), {
        instruments: ['BTCUSDT'],
        // Quotes 2 % either side of the mid, never moved (requote at 50 %): nothing fills and nothing is
        // cancelled before the stop, so the injected refusals land on the exit cancels and nowhere else.
        strategies: [
          {
            id: 'mm1',
            name: 'spot-market-maker',
            instruments: ['BTCUSDT'],
            params: { spreadBps: 400, orderSize: '0.001', maxInventory: '0.003', requoteBps: 5000 },
          },
        ],
      }),
    );
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
});
