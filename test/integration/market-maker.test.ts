/**
 * The reference market maker through the whole pipeline — pollers, strategy, risk, order manager,
 * spot gateway, SQLite journal — against the emulator over real HTTP.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { decodeClientId } from '../../src/domain/client-id-codec.js';
import type { ExecutionEvent } from '../../src/domain/execution-event.js';
import type { RunningEmulator } from '../../src/emulator/start-emulator.js';
import { fillProblems, IT_ACCOUNT, journalFills, runDoc, startRun, startTestEmulator, tempDir, waitFor } from './support/paper-harness.js';

const count = (events: readonly ExecutionEvent[], type: ExecutionEvent['type']): number => events.filter((e) => e.type === type).length;

describe('integration: spot market maker against the emulator', function () {
  this.timeout(120_000);
  let emu: RunningEmulator;
  const tmp = tempDir('mm');

  before(async () => {
    emu = await startTestEmulator();
  });
  after(async () => {
    await emu.stop();
    tmp.remove();
  });

  it('quotes_amends_chases_gets_filled_and_cancels_on_exit', async () => {
    const run = await startRun(
      runDoc(emu.url, join(tmp.dir, 'mm.sqlite'), {
        instruments: ['BTCUSDT'],
        strategies: [
          {
            id: 'mm1',
            name: 'spot-market-maker',
            instruments: ['BTCUSDT'],
            // One net fill (0.001) reaches half of maxInventory: the unwind (a chased order) starts early.
            params: {
              spreadBps: 1.2,
              orderSize: '0.001',
              maxInventory: '0.002',
              skewBps: 1,
              requoteBps: 0.4,
              unwind: { atFraction: 0.5, resumeFraction: 0.25, maxReprices: 6, capBps: 30 },
            },
          },
        ],
      }),
    );
    const events = (): ExecutionEvent[] => run.journal.events();
    const chased = (): boolean => run.journal.orders().some((o) => decodeClientId(o.clientOrderId)?.kind === 'chase');
    try {
      await waitFor(() => count(events(), 'OrderSubmitted') > 0, 15_000, 'the first quotes');
      await waitFor(() => count(events(), 'OrderFilled') + count(events(), 'OrderPartiallyFilled') >= 2, 45_000, 'fills');
      await waitFor(
        () => run.journal.orders().some((o) => decodeClientId(o.clientOrderId)?.kind === 'amend'),
        45_000,
        'an amend (spot cancel-and-place)',
      );
      await waitFor(chased, 75_000, 'a chase reprice of the unwind order');
      await waitFor(() => run.runtime.state.openOrders('mm1' as never).length > 0, 15_000, 'resting quotes to cancel on exit');
    } catch (e) {
      await run.stop('test failed');
      const seen = run.journal.orders().map((o) => o.clientOrderId);
      run.dispose();
      throw new Error(`${(e as Error).message}; orders seen: ${seen.join(' ')}`);
    }
    const summary = await run.stop('test over');

    // Quotes came from the DesiredQuotes intent (client-id kind q), amends replaced them (kind a).
    const kinds = new Set(run.journal.orders().map((o) => decodeClientId(o.clientOrderId)?.kind));
    expect([...kinds]).to.include.members(['quote', 'amend', 'chase']);
    // Cancelled on exit: nothing of ours rests at the venue, and the journal agrees.
    expect(summary.cancelledOnExit).to.be.greaterThan(0);
    expect(emu.spot.reader.openOrders(IT_ACCOUNT.name, 'BTCUSDT')).to.have.length(0);
    expect(run.journal.orders().filter((o) => !['filled', 'cancelled', 'rejected', 'expired'].includes(o.status))).to.have.length(0);
    // Every fill the venue made for us is in the journal once, and no other.
    expect(fillProblems(journalFills(events()), emu, IT_ACCOUNT.name, 'BTCUSDT')).to.deep.equal([]);
    expect(run.journal.fillCount()).to.equal(journalFills(events()).length);
    run.dispose();
  });
});
