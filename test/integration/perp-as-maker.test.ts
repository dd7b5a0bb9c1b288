/**
 * The Avellaneda–Stoikov perpetual maker through the whole pipeline against the emulator over real
 * HTTP: one-way mode and leverage at start, post-only quotes on both sides from estimates it makes
 * of the emulator's market, quotes amended in place as the market moves, fills, and nothing resting
 * after stop.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { ContractClient } from '../../src/client/contract-client.js';
import type { ExecutionEvent } from '../../src/domain/execution-event.js';
import type { RunningEmulator } from '../../src/emulator/start-emulator.js';
import type { PerpAsMaker } from '../../strategies/perp-as-maker.js';
import { clock, IT_ACCOUNT, runDoc, startRun, startTestEmulator, tempDir, waitFor } from './support/paper-harness.js';

const count = (events: readonly ExecutionEvent[], type: ExecutionEvent['type']): number => events.filter((e) => e.type === type).length;

/** One perp-as-maker on BTC_USDT against the emulator at `url`. */
function makerDoc(url: string, journalFile: string, id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return runDoc(url, join(tmp.dir, journalFile), {
    venue: { contractTrading: true },
    instruments: ['BTC_USDT'],
    marketData: {
      maxSnapshotAgeMs: 3000,
      contract: { cycleMs: 300, streams: { depth: { limit: 20 }, deals: { limit: 50 }, ticker: {}, fundingRate: {} } },
    },
    strategies: [
      {
        id,
        name: 'perp-as-maker',
        instruments: ['BTC_USDT'],
        // The emulator's crowd is 20 USDT wide around 87 500. γ small and a prior mean trade depth of 4 USDT
        // (k = 0.25) put the quotes inside it; the k estimate then follows the trades it sees.
        params: {
          size: '20',
          maxInventory: '60',
          gamma: 0.001,
          horizonSeconds: 5,
          priorK: 0.25,
          intensityHalfLifeTrades: 500,
          warmupSamples: 5,
          requoteTicks: 5,
          ...extra,
        },
      },
    ],
  });
}

const tmp = tempDir('asmm');

describe('integration: perpetual Avellaneda–Stoikov maker against the emulator', function () {
  this.timeout(120_000);
  let emu: RunningEmulator;

  before(async () => {
    emu = await startTestEmulator();
  });
  after(async () => {
    await emu.stop();
    tmp.remove();
  });

  it('quotes_post_only_from_its_estimates_amends_gets_filled_and_cancels_on_exit', async () => {
    const run = await startRun(makerDoc(emu.url, 'asmm.sqlite', 'asmm1'));
    const maker = run.runtime.strategyRunners[0]!.strategy as PerpAsMaker;
    const events = (): ExecutionEvent[] => run.journal.events();
    try {
      await waitFor(
        () => count(events(), 'PositionModeChanged') > 0 && count(events(), 'LeverageChanged') > 0,
        20_000,
        'one-way mode and leverage',
      );
      await waitFor(() => count(events(), 'OrderAccepted') >= 2, 30_000, 'both quotes resting');
      await waitFor(() => count(events(), 'OrderAmended') > 0, 60_000, 'a quote amended in place');
      await waitFor(() => count(events(), 'OrderFilled') + count(events(), 'OrderPartiallyFilled') > 0, 60_000, 'a fill');
    } catch (e) {
      await run.stop('test failed');
      const seen = `${JSON.stringify(maker.report())}; events: ${[...new Set(events().map((x) => (x.type === 'IntentDenied' || x.type === 'IntentFailed' || x.type === 'OrderRejected' ? `${x.type} ${'reason' in x ? x.reason : ''}` : x.type)))].join(' | ')}`;
      run.dispose();
      throw new Error(`${(e as Error).message}; maker: ${seen}`);
    }
    const summary = await run.stop('test over');
    const report = maker.report();

    const orders = run.journal.orders();
    // Every quote was post-only, on its side of the book (the venue refuses a crossing post-only: none was).
    expect(orders.length).to.be.greaterThan(1);
    expect(orders.every((o) => o.timeInForce === 'post-only')).to.equal(true);
    expect(count(events(), 'OrderRejected')).to.equal(0);
    // Its estimates come from the emulator's data: a volatility and trades seen on the deals stream.
    expect(Number(report['BTC_USDT.sigmaPerSqrtSec'])).to.be.greaterThan(0);
    expect(Number(report['BTC_USDT.tradesSeen'])).to.be.greaterThan(0);
    // Cancelled on exit: nothing of ours rests at the venue, and the journal agrees.
    expect(summary.cancelledOnExit).to.be.greaterThan(0);
    const venue = new ContractClient({
      baseUrl: emu.url,
      clock,
      credentials: { apiKey: IT_ACCOUNT.apiKey, secretKey: IT_ACCOUNT.secretKey },
    });
    try {
      expect(await venue.openOrders({ page_num: 1, page_size: 100 })).to.deep.equal([]);
    } finally {
      await venue.close();
    }
    expect(orders.filter((o) => !['filled', 'cancelled', 'rejected', 'expired'].includes(o.status))).to.have.length(0);
    run.dispose();
  });

  it('quotes_both_legs_in_hedged_mode_and_its_legs_agree_with_the_venue', async () => {
    // A venue of its own: the account must be flat to change position mode.
    const hedgedVenue = await startTestEmulator();
    const venue = new ContractClient({
      baseUrl: hedgedVenue.url,
      clock,
      credentials: { apiKey: IT_ACCOUNT.apiKey, secretKey: IT_ACCOUNT.secretKey },
    });
    const run = await startRun(makerDoc(hedgedVenue.url, 'asmm-hedged.sqlite', 'asmm2', { positionMode: 'hedged' }));
    const events = (): ExecutionEvent[] => run.journal.events();
    try {
      await waitFor(() => count(events(), 'OrderFilled') + count(events(), 'OrderPartiallyFilled') > 0, 60_000, 'a fill in hedged mode');
      // Hedged (1) at the venue, asked by the strategy at start.
      expect(await venue.positionMode()).to.equal(1);
      const summary = await run.stop('test over');
      expect(summary.openOrdersLeft).to.deep.equal([]);
      // Every quote named its leg, and the venue refused none (a hedged venue refuses an order without one).
      const orders = run.journal.orders();
      expect(orders.every((o) => o.positionSide === 'long' || o.positionSide === 'short')).to.equal(true);
      expect(count(events(), 'OrderRejected')).to.equal(0);
      // The strategy's legs are the venue's: long and short held apart, per leg.
      const ours = run.runtime.state.positions(run.runtime.strategyRunners[0]!.strategyId).filter((p) => !p.quantity.isZero());
      const theirs = await venue.openPositions({ symbol: 'BTC_USDT' });
      const legs = (xs: { leg: string; qty: string }[]) => xs.sort((a, b) => (a.leg < b.leg ? -1 : 1));
      expect(legs(ours.map((p) => ({ leg: p.leg, qty: p.quantity.abs().toFixed() })))).to.deep.equal(
        legs(
          theirs.filter((p) => p.holdVol.gt(0)).map((p) => ({ leg: p.positionType === 1 ? 'long' : 'short', qty: p.holdVol.toFixed() })),
        ),
      );
    } finally {
      await run.stop('test over');
      run.dispose();
      await venue.close();
      await hedgedVenue.stop();
    }
  });
});
