/**
 * Faults injected by the emulator while the market maker trades: answers dropped after the order was
 * accepted (the client times out: outcome unknown), 5xx after the effect, 5xx before it, 429s and
 * reset connections. Afterwards the books must agree: every order the venue has is in the journal
 * with the same filled quantity and a final status, nothing of ours rests, no client id was placed
 * twice, and the fills are the venue's trades, each once.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import type { ExecutionEvent } from '../../src/domain/execution-event.js';
import { isTerminal } from '../../src/domain/order.js';
import type { RunningEmulator } from '../../src/emulator/start-emulator.js';
import { fillProblems, IT_ACCOUNT, journalFills, runDoc, startRun, startTestEmulator, tempDir, waitFor } from './support/paper-harness.js';

describe('integration: emulator faults leave the books consistent', function () {
  this.timeout(300_000);
  let emu: RunningEmulator;
  const tmp = tempDir('faults');

  before(async () => {
    emu = await startTestEmulator({ seed: 23 });
  });
  after(async () => {
    await emu.stop();
    tmp.remove();
  });

  it('journal_and_venue_agree_after_timeouts_5xx_429_and_dropped_answers', async () => {
    const run = await startRun(
      runDoc(emu.url, join(tmp.dir, 'faults.sqlite'), {
        venue: { requestTimeoutMs: 1200 },
        instruments: ['BTCUSDT'],
        strategies: [
          {
            id: 'mm1',
            name: 'spot-market-maker',
            instruments: ['BTCUSDT'],
            params: { spreadBps: 1.2, orderSize: '0.001', maxInventory: '0.003', requoteBps: 0.4 },
          },
        ],
        // Faults make venue refusals on purpose; the reject kill switch stays out of the way.
        risk: { killSwitch: { maxRejects: 1000 } },
        // The emulator handles a request at once, so an order not found 3 s after sending never will be.
        execution: { reconcileIntervalMs: 2000, unknownGraceMs: 3000 },
      }),
    );
    const events = (): ExecutionEvent[] => run.journal.events();
    try {
      await waitFor(() => events().some((e) => e.type === 'OrderAccepted'), 20_000, 'the first accepted quote');
      // Each rule fires a few times, spread out by `skip` so the bot gets to trade in between. The
      // quoter sends few single new orders (most go in batches or amends), so the newOrder rules skip
      // little: each skipped request there costs seconds of trading.
      const rules = [
        { match: 'spot.batchOrders', kind: 'drop' as const, times: 2, skip: 1 },
        { match: 'spot.newOrder', kind: 'drop' as const, times: 2, skip: 1 },
        { match: 'spot.cancelOrder', kind: 'error5xx' as const, phase: 'after' as const, status: 502, times: 3, skip: 1 },
        { match: 'spot.newOrder', kind: 'error5xx' as const, phase: 'before' as const, status: 503, times: 2, skip: 1 },
        { match: 'spot.batchOrders', kind: 'rateLimit' as const, retryAfterSec: 1, times: 2, skip: 5 },
        { match: 'spot.cancelOrder', kind: 'reset' as const, times: 2, skip: 6 },
      ];
      for (const r of rules) emu.faults.inject(r);
      await waitFor(
        () => events().filter((e) => e.type === 'OrderOutcomeUnknown').length >= 3,
        60_000,
        'outcomes made unknown by the faults',
      );
      // Every rule fires all its times: 4 drops, 5 5xx, 2 429s, 2 resets (13 faults). How long that
      // takes depends on how often the bot sends each request, which a loaded machine slows: the wait is
      // generous, and a timeout names the rules still waiting for traffic.
      const pending = (): string[] =>
        emu.faults.ruleCounts
          .filter((c, i) => c.fired < rules[i]!.times)
          .map((c) => `${c.match} ${c.kind} (seen ${c.seen}, fired ${c.fired})`);
      await waitFor(() => pending().length === 0, 150_000, 'every fault rule to fire all its times').catch((e: Error) => {
        throw new Error(`${e.message}; still waiting: ${pending().join('; ')}`);
      });
      // Trade on after the last fault so unknown outcomes get resolved in the normal course: three
      // reconciliation ticks of the bot (2 s apart) outlast the 3 s grace after which an order missing
      // at the venue is taken as never placed. Counted ticks, not elapsed time: a loaded machine that
      // runs fewer ticks in 6 s still gets all three.
      const ticks = run.runtime.stats.reconciles;
      await waitFor(() => run.runtime.stats.reconciles >= ticks + 3, 60_000, 'three reconciliations after the last fault');
      emu.faults.clear();
      // And one more tick with no fault at all before the stop.
      const clean = run.runtime.stats.reconciles;
      await waitFor(() => run.runtime.stats.reconciles >= clean + 1, 30_000, 'a reconciliation without faults');
    } catch (e) {
      await run.stop('test failed');
      run.dispose();
      throw e;
    }
    await run.stop('test over');

    const orders = emu.spot.reader.allOrders(IT_ACCOUNT.name, 'BTCUSDT', { limit: 1000 });
    const seen = new Map<string, number>();
    for (const o of orders) seen.set(o.clientOrderId ?? '', (seen.get(o.clientOrderId ?? '') ?? 0) + 1);
    expect(
      [...seen].filter(([, n]) => n > 1),
      'client ids placed twice',
    ).to.deep.equal([]);
    expect(emu.spot.reader.openOrders(IT_ACCOUNT.name, 'BTCUSDT'), 'orders left resting').to.have.length(0);
    for (const o of orders) {
      const mine = run.journal.order(o.clientOrderId!);
      expect(mine, `journal has ${o.clientOrderId}`).to.not.equal(undefined);
      expect(mine!.filledQty.toFixed(), `${o.clientOrderId} filled`).to.equal(emu.spot.reader.orderView(o).executedQty.toFixed());
      expect(isTerminal(mine!.status), `${o.clientOrderId} is ${mine!.status}`).to.equal(true);
    }
    // Journal orders the venue never saw were never placed: rejected — or, sent less than the grace
    // period before the stop, still unresolved (never acknowledged, nothing filled); the next start
    // resolves those by client id.
    const atVenue = new Set(orders.map((o) => o.clientOrderId));
    const history = (cid: string): string =>
      events()
        .filter((e) => ('clientOrderId' in e && e.clientOrderId === cid) || (e.type === 'OrderSubmitted' && e.order.clientOrderId === cid))
        .map((e) => `${e.type}${'reason' in e ? `(${e.reason})` : ''}${'operation' in e ? `(${e.operation})` : ''}`)
        .join(' → ');
    for (const o of run.journal.orders().filter((x) => !atVenue.has(x.clientOrderId))) {
      const unresolved = o.venueOrderId === undefined && o.filledQty.isZero() && !isTerminal(o.status);
      expect(o.status === 'rejected' || unresolved, `${o.clientOrderId} ${o.status}: ${history(o.clientOrderId)}`).to.equal(true);
    }
    expect(fillProblems(journalFills(events()), emu, IT_ACCOUNT.name, 'BTCUSDT')).to.deep.equal([]);
    run.dispose();
  });
});
