/**
 * Execution algorithms through the whole pipeline — pollers, target-position strategy, risk (every
 * child), order manager, spot gateway, SQLite journal — against the emulator over real HTTP:
 *  - a TWAP buy of IOC children completes, and the journal's fills are exactly the venue's trades;
 *  - a stop in the middle of a passive TWAP leaves nothing resting and journals how much was done;
 *  - a process killed mid-TWAP: the restart cancels the parent (its resting child cancelled at the
 *    venue), counts what the venue filled, and the strategy asks again for the rest only;
 *  - a perpetual TWAP (BTC_USDT, contracts, leverage on every child) completes, its journaled fills
 *    the venue's deals one for one, and the venue holds the position the parent says it filled;
 *  - a strategy paused from the console places no further child: the children are denied (rule
 *    `paused`) and the parent stops.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { type Decimal, ZERO } from '../../src/core/decimal.js';
import type { StrategyId } from '../../src/core/ids.js';
import type { AlgoUpdated, ExecutionEvent } from '../../src/domain/execution-event.js';
import type { RunningEmulator } from '../../src/emulator/start-emulator.js';
import { parentOfClientId } from '../../src/domain/client-id-codec.js';
import {
  clock,
  fillProblems,
  IT_ACCOUNT,
  journalFills,
  type PaperRun,
  runDoc,
  startRun,
  startTestEmulator,
  tempDir,
  waitFor,
} from './support/paper-harness.js';

const algoUpdates = (events: readonly ExecutionEvent[]): AlgoUpdated[] => events.filter((e): e is AlgoUpdated => e.type === 'AlgoUpdated');
/** The first journaled end of a parent of the run. */
const ended = (run: PaperRun, what: string): Promise<AlgoUpdated> =>
  waitFor(() => algoUpdates(run.journal.events()).find((u) => u.parent.state !== 'working'), 30_000, what);

describe('integration: TWAP execution against the emulator', function () {
  this.timeout(120_000);
  let emu: RunningEmulator;
  const tmp = tempDir('algos');

  // A fresh venue per test: the journal of each run must account for every trade of the account.
  beforeEach(async () => {
    emu = await startTestEmulator();
  });
  afterEach(async () => {
    await emu.stop();
  });
  after(() => tmp.remove());

  const resting = () => emu.spot.reader.openOrders(IT_ACCOUNT.name, 'BTCUSDT');
  const doc = (file: string, params: Record<string, unknown>) =>
    runDoc(emu.url, join(tmp.dir, file), {
      instruments: ['BTCUSDT'],
      strategies: [{ id: 'tp1', name: 'target-position', instruments: ['BTCUSDT'], params }],
    });

  it('a_twap_buy_of_ioc_children_completes_and_the_journal_fills_are_the_venue_trades', async () => {
    // 0.003 BTC over 3 s in 3 slices: 0.001 per slice, each an IOC at most 20 bps through the ask (the
    // crowd's asks hold ~40 000 USDT at the touch, so each fills at once).
    const run = await startRun(
      doc('twap.sqlite', { target: '0.003', durationMs: 3_000, slices: 3, childType: 'ioc', maxDeviationBps: 20 }),
    );
    try {
      const done = await ended(run, 'the TWAP parent to end');
      expect(done.parent).to.include({ state: 'completed', children: 3 });
      expect(done.parent.filledQty.toFixed()).to.equal('0.003');
      const fills = journalFills(run.journal.events());
      expect(fillProblems(fills, emu, IT_ACCOUNT.name, 'BTCUSDT')).to.deep.equal([]);
      // Every venue order is a child of the one parent, 0.001 each, IOC.
      const orders = emu.spot.reader.allOrders(IT_ACCOUNT.name, 'BTCUSDT', { limit: 100 }).map((o) => emu.spot.reader.orderView(o));
      expect(orders.map((o) => `${o.origQty.toFixed()} ${o.type}`)).to.deep.equal(Array(3).fill('0.001 IMMEDIATE_OR_CANCEL'));
      expect(new Set(orders.map((o) => parentOfClientId(o.clientOrderId!)?.parentId))).to.deep.equal(new Set([done.parent.parentId]));
      // The parent's average is the venue's: Σ price·qty of its trades / 0.003.
      const notional = orders.reduce((s, o) => s.plus(o.cummulativeQuoteQty), ZERO);
      expect(done.parent.avgPrice!.toFixed(8)).to.equal(notional.div('0.003').toFixed(8));
      expect(run.runtime.status().strategies[0]!.algos[0]!.state).to.equal('completed');
    } finally {
      await run.stop();
      run.dispose();
    }
  });

  it('a_stop_mid_twap_cancels_the_resting_child_and_says_how_much_was_done', async () => {
    // Passive children rest at the bid, 6 slices over 60 s: the run stops while the first one rests.
    const before = resting().length;
    const run = await startRun(doc('stop.sqlite', { target: '0.006', durationMs: 60_000, slices: 6, childType: 'passive' }));
    let summary;
    try {
      await waitFor(() => resting().length > before, 20_000, 'a passive child resting at the venue');
    } finally {
      summary = await run.stop('test stop');
    }
    try {
      expect(resting()).to.deep.equal([]);
      expect(summary.openOrdersLeft).to.deep.equal([]);
      const last = algoUpdates(run.journal.events()).at(-1)!;
      expect(last.parent.state).to.equal('cancelled');
      expect(last.parent.reason).to.equal('runtime stop: test stop');
      expect(last.parent.inFlight.toFixed()).to.equal('0');
      // How much was done is the venue's: the journal's fills of the children, which are the venue's trades.
      const fills = journalFills(run.journal.events());
      expect(fillProblems(fills, emu, IT_ACCOUNT.name, 'BTCUSDT')).to.deep.equal([]);
      const mine = fills.filter((f) => parentOfClientId(f.clientOrderId ?? '')?.parentId === last.parent.parentId);
      expect(last.parent.filledQty.toFixed()).to.equal(mine.reduce((s, f) => s.plus(f.quantity), ZERO).toFixed());
    } finally {
      run.dispose();
    }
  });

  it('a_paused_strategy_places_no_further_child_and_its_twap_stops', async () => {
    // IOC children, one a second (0.006 over 6 s in 6 slices). Before the fix a pause kept the snapshots
    // from the strategy but not from its TWAP: the children went on being placed for the rest of the 6 s.
    const run = await startRun(
      doc('pause.sqlite', { target: '0.006', durationMs: 6_000, slices: 6, childType: 'ioc', maxDeviationBps: 20 }),
    );
    const venueOrders = () => emu.spot.reader.allOrders(IT_ACCOUNT.name, 'BTCUSDT', { limit: 100 }).length;
    try {
      await waitFor(() => venueOrders() >= 1, 20_000, 'the first child at the venue');
      // The control runs as a job of the loop: once it answers, no child placement is in flight.
      const outcome = await run.runtime.applyControl({ action: 'pause', strategyId: 'tp1' as StrategyId });
      expect(outcome.paused).to.equal(true);
      const atPause = venueOrders();
      expect(atPause, 'children placed before the pause').to.be.lessThan(6);
      const stopped = await waitFor(
        () => algoUpdates(run.journal.events()).find((u) => u.parent.state !== 'working'),
        30_000,
        'the TWAP parent to stop',
      );
      expect(stopped.parent.state).to.equal('stopped');
      expect(stopped.parent.reason).to.match(/children denied in a row; last: paused: /);
      // A slice later still nothing new at the venue.
      await clock.sleep(1_500);
      expect(venueOrders(), 'venue orders after the pause').to.equal(atPause);
      expect(stopped.parent.children).to.equal(atPause);
    } finally {
      await run.stop();
      run.dispose();
    }
  });

  it('a_restart_cancels_the_parent_left_working_and_the_strategy_asks_only_for_the_rest', async () => {
    const file = 'restart.sqlite';
    const params = { target: '0.006', durationMs: 60_000, slices: 6, childType: 'passive' };
    const before = resting().length;
    const first = await startRun(doc(file, params));
    await waitFor(() => resting().length > before, 20_000, 'a passive child resting at the venue');
    const parentId = algoUpdates(first.journal.events())[0]!.parent.parentId;
    // SIGKILL in one process: no stop, the child keeps resting at the venue.
    await first.kill();
    const left = resting().filter((o) => parentOfClientId(o.clientOrderId ?? '')?.parentId === parentId);
    expect(left).to.have.length(1);

    const second = await startRun(doc(file, params));
    try {
      const ended = await waitFor(
        () => algoUpdates(second.journal.events()).find((u) => u.parent.parentId === parentId && u.parent.state !== 'working'),
        20_000,
        'the old parent settled',
      );
      expect(ended.parent.state).to.equal('cancelled');
      expect(ended.parent.reason).to.match(/^restart/);
      // The child the first process left is gone from the venue.
      expect(resting().some((o) => o.clientOrderId === left[0]!.clientOrderId)).to.equal(false);
      // The new parent asks for the target less what the old one filled at the venue.
      const next = await waitFor(
        () => algoUpdates(second.journal.events()).find((u) => u.parent.parentId !== parentId),
        20_000,
        'the strategy asking again',
      );
      expect(next.parent.quantity.plus(ended.parent.filledQty).toFixed()).to.equal('0.006');
      await second.stop();
      expect(resting()).to.deep.equal([]);
      expect(fillProblems(journalFills(second.journal.events()), emu, IT_ACCOUNT.name, 'BTCUSDT')).to.deep.equal([]);
    } finally {
      await second.stop();
      second.dispose();
    }
  });

  it('a_perpetual_twap_opens_the_position_in_ioc_children_and_the_journal_holds_the_venue_deals', async () => {
    // 30 contracts (0.003 BTC) long over 3 s in 3 IOC slices of 10, leverage 5, at most 20 bps through the ask.
    const run = await startRun(
      runDoc(emu.url, join(tmp.dir, 'perp.sqlite'), {
        venue: { contractTrading: true },
        instruments: ['BTC_USDT'],
        marketData: { maxSnapshotAgeMs: 3000, contract: { cycleMs: 300, streams: { depth: { limit: 20 }, ticker: {} } } },
        strategies: [
          {
            id: 'tp2',
            name: 'target-position',
            instruments: ['BTC_USDT'],
            // The emulator's accounts are in hedged mode: the children open the long leg.
            params: {
              target: '30',
              positionMode: 'hedged',
              durationMs: 3_000,
              slices: 3,
              childType: 'ioc',
              maxDeviationBps: 20,
              leverage: 5,
            },
          },
        ],
      }),
    );
    try {
      const done = await ended(run, 'the perpetual TWAP to end');
      expect(done.parent).to.include({ state: 'completed', children: 3 });
      expect(done.parent.filledQty.toFixed()).to.equal('30');
      const held = emu.contract.reader.openPositions(IT_ACCOUNT.name, { symbol: 'BTC_USDT' });
      expect(held.map((p) => `${p.positionType} ${p.holdVol.toFixed()}`)).to.deep.equal(['1 30']);
      // Journal fills = the venue's deals. The contract API lists no own trades, so the gateway books one
      // fill per order for its cumulative volume (mexc-contract-gateway.ts fillsSince): compared per order.
      const deals = emu.contract.reader.fills(IT_ACCOUNT.name, { symbol: 'BTC_USDT', pageNum: 1, pageSize: 100 }).resultList;
      const journal = journalFills(run.journal.events()).filter((f) => f.symbol === 'BTC_USDT');
      const perOrder = (xs: { order: string; vol: Decimal }[]) => {
        const m = new Map<string, Decimal>();
        for (const x of xs) m.set(x.order, (m.get(x.order) ?? ZERO).plus(x.vol));
        return [...m].map(([o, v]) => `${o} ${v.toFixed()}`).sort();
      };
      expect(perOrder(journal.map((f) => ({ order: String(f.venueOrderId), vol: f.quantity })))).to.deep.equal(
        perOrder(deals.map((d) => ({ order: String(d.orderId), vol: d.vol }))),
      );
      expect(deals.reduce((a, d) => a.plus(d.vol), ZERO).toFixed()).to.equal('30');
      for (const f of journal) expect(parentOfClientId(f.clientOrderId ?? '')?.parentId).to.equal(done.parent.parentId);
    } finally {
      await run.stop();
      run.dispose();
    }
  });
});
