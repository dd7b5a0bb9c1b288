/**
 * Shutdown (Ctrl-C, SIGTERM, --duration; the job loop has already stopped): market data stops, the
 * strategies' onStop intents run, execution algorithms stop (their resting children cancelled), then each strategy's own orders are cancelled (unless cancelOnExit is
 * off) in rounds until none is live, a last reconciliation picks up late fills, and the run is closed in
 * the journal with its reason.
 */
import type { Order } from '../domain/order.js';
import type { Pending } from './event-flow.js';
import { messageOf } from '../core/message-of.js';
import type { RuntimeParts } from './runtime-parts.js';
import type { RunSummary, RuntimeStatus } from './runtime-status.js';

/** Cancel → ask the venue → cancel rounds on exit (a venue refusing every cancel must not hang the stop). */
const EXIT_CANCEL_ROUNDS = 5;

export async function shutdownSequence(p: RuntimeParts, reason: string, runId: number, status: () => RuntimeStatus): Promise<RunSummary> {
  const o = p.o;
  try {
    await o.market.stop();
  } catch (e) {
    o.logger.warn('market data did not stop cleanly', { error: messageOf(e) });
  }
  const items: Pending[] = [];
  for (const r of p.runners) {
    try {
      for (const intent of await r.stop()) items.push({ runner: r, intent });
    } catch (e) {
      o.logger.error(`strategy ${r.strategyId} failed to stop`, { error: messageOf(e) });
    }
  }
  await p.pipeline.process(items);
  // Execution algorithms stop on every stop, cancelOnExit or not: nothing would manage their children.
  for (const v of o.venues) {
    try {
      await v.orders.stopAlgos(`runtime stop: ${reason}`);
    } catch (e) {
      o.logger.warn('stopping the execution algorithms failed', { error: messageOf(e) });
    }
  }
  p.events.drainQuietly();

  let cancelledOnExit = 0;
  if (o.policy.cancelOnExit) {
    const before = p.stats.total().cancels;
    await cancelOwnOrders(p);
    cancelledOnExit = p.stats.total().cancels - before;
  }
  // Late fills and the venue's final word on what was cancelled.
  try {
    await p.reconciler.reconcile(false);
  } catch (e) {
    o.logger.warn('final reconciliation failed', { error: messageOf(e) });
  }
  p.events.drainQuietly();
  for (const s of p.subscriptions.splice(0)) s.unsubscribe();
  p.state.updateEquity(o.clock.now());
  const last = status();
  const openOrdersLeft = ourLiveOrders(p);
  o.journal.endRun(o.clock.now(), reason);
  return { ...last, reason, runId, cancelledOnExit, openOrdersLeft };
}

/**
 * Cancel on exit: every live order of our strategies is cancelled; while some are still live (a cancel
 * met a 5xx, a reset or a lost answer), the venue is asked what became of them (unknown outcomes
 * resolved, closed ones closed, resting ones listed) and the rest cancelled again, at most
 * EXIT_CANCEL_ROUNDS times. One failed cancel used to leave the order resting after a "clean" stop
 * (the chaos suite's orphan market-maker quote).
 */
async function cancelOwnOrders(p: RuntimeParts): Promise<void> {
  const o = p.o;
  for (let round = 1; ; round++) {
    for (const r of p.runners) {
      for (const v of o.venues) {
        if (v.orders.liveOrders({ strategyId: r.strategyId }).length === 0) continue;
        await p.pipeline.execute(v, r.context.intents.cancelAll(undefined, 'strategy'));
      }
    }
    p.events.drainQuietly();
    const left = ourLiveOrders(p);
    if (left.length === 0) return;
    if (round === EXIT_CANCEL_ROUNDS) {
      o.logger.warn(`${left.length} order(s) still live after ${round} rounds of cancel on exit`, {
        orders: left.map((x) => x.clientOrderId),
      });
      return;
    }
    try {
      await p.reconciler.reconcile(false);
    } catch (e) {
      o.logger.warn('reconciliation between exit cancels failed', { error: messageOf(e) });
    }
    p.events.drainQuietly();
  }
}

/** Live orders of this run's strategies, on every venue. */
function ourLiveOrders(p: RuntimeParts): Order[] {
  return p.o.venues.flatMap((v) => v.orders.liveOrders({}).filter((ord) => p.runners.some((r) => r.strategyId === ord.strategyId)));
}
