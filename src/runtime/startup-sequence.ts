/**
 * Start-up (nothing trades before it succeeds; the journal run is already open):
 *   1. every order manager's events flow into the runtime, and venue fills of orders the bot did not
 *      place are attributed to the position's owner (contract) or to the account only (spot);
 *   2. restore every order manager from the journal (orders, counted trade ids) and every strategy's
 *      book from its journaled fills and position adjustments;
 *   3. RECONCILE with the exchange (open orders, fills since the journal's watermark, positions) and
 *      read balances — a venue that cannot be read aborts the start. A position the fills still do not
 *      explain, of any sign and size, is set to the venue's with a journaled PositionAdjusted;
 *   4. read the venue's TP/SL orders on held contract positions (protection-watch.ts);
 *   5. market data first, strategies second: equity (and so the kill switches) and the first prices are
 *      known before any strategy acts; then the reconciliation timer.
 * The last step runs through the job loop, which the runtime owns (StartupLoop).
 */
import type { InstrumentSymbol } from '../core/ids.js';
import type { RunInfo } from '../persistence/run-journal.js';
import { StrategyRunner } from '../strategy/strategy-runner.js';
import { positionOwner } from './position-owners.js';
import type { RuntimeParts } from './runtime-parts.js';

export interface StartInfo {
  readonly run: RunInfo;
  /** The previous run, when it did not end cleanly (crash, kill). */
  readonly uncleanRun?: RunInfo;
  /** Orders restored from the journal that were still live. */
  readonly restoredLive: number;
  /** Events the start-up reconciliation produced (fills learned, orders closed or adopted). */
  readonly reconciled: number;
}

/** What the runtime's job loop does for the last step of start-up. */
export interface StartupLoop {
  /** Subscribes the loop to market data and starts the source. */
  openMarketData(): Promise<void>;
  /** Resolves when every polled symbol has a snapshot, or at the timeout; returns the symbols still missing. */
  firstSnapshots(timeoutMs: number): Promise<InstrumentSymbol[]>;
  /** Runs the strategies' onStart (their intents go through risk like any other) as a job of the loop. */
  startStrategies(): Promise<void>;
  startReconcileTimer(): void;
}

/** Steps 1–5; `firstRunStartedAt` is the journal's first run (or this one). Throws when a venue cannot be read. */
export async function startupSequence(
  p: RuntimeParts,
  firstRunStartedAt: number,
  loop: StartupLoop,
): Promise<Pick<StartInfo, 'restoredLive' | 'reconciled'>> {
  const o = p.o;
  for (const v of o.venues) {
    p.subscriptions.push(v.orders.events$.subscribe((e) => p.events.enqueue(e)));
    p.subscriptions.push(v.orders.warnings$.subscribe((w) => o.logger.warn(w.message, { error: w.error })));
    // Every child of an execution algorithm is judged by the same risk engine as a strategy's intents.
    v.orders.setAlgoGate((child) => p.pipeline.gateChild(child));
    // Fills from before the journal's first run are not the bot's: the start-up adjustment covers them.
    if (v.kind === 'contract') {
      v.orders.attributeVenueFills((symbol, leg) => positionOwner(p.owners, symbol, leg), firstRunStartedAt);
      if (v.gateway.fundingSince) p.reconciler.watchFunding(firstRunStartedAt);
    }
    // Spot trades of orders not placed by the bot (by hand, another program): journaled and reported on
    // the account, never silently ignored. No strategy's inventory takes them: it did not trade them.
    // (This `else` once hung on the funding test: a contract gateway without fundingSince — the backtest's —
    // had its venue fills, a trailing or plan order firing, booked to nobody.)
    else v.orders.attributeVenueFills(() => undefined, firstRunStartedAt);
  }

  let restoredLive = 0;
  if (o.resume) {
    for (const v of o.venues) await v.orders.restore();
    restoredLive = o.venues.reduce((n, v) => n + v.orders.liveOrders().length, 0);
    // Each strategy's book is rebuilt from its own journaled fills (deduped by trade id), the venue's
    // fills attributed to it and its position adjustments, in journal order.
    for (const e of o.journal.events()) {
      if (e.type === 'OrderFilled' || e.type === 'OrderPartiallyFilled' || e.type === 'VenueFill') {
        const sid = e.strategyId ?? e.fill.strategyId;
        if (sid) p.state.applyStrategyFill(sid, e.fill);
      } else if (e.type === 'PositionAdjusted') p.state.apply(e);
      else if (e.type === 'FundingSettled') {
        // The strategy's book only: the account's balances come from the venue, which paid it already.
        if (e.strategyId !== undefined)
          p.state.strategyBook(e.strategyId).applyFunding(e.symbol, e.leg, e.amount, e.asset, e.settledAt ?? e.ts);
        p.reconciler.noteFunding(e);
      }
      p.protection.noteTpSl(e);
    }
  }
  await p.reconciler.reconcile(true);
  const reconciled = p.events.backlog;
  // No strategy exists yet: the events reach the caches only.
  p.events.drainQuietly();
  await p.valuation.poll();
  await p.protection.readAtStart();

  for (const s of o.strategies) p.runners.push(new StrategyRunner(s.id, s.strategy, p.state, o.clock));
  await loop.openMarketData();
  const missing = await loop.firstSnapshots(o.policy.firstSnapshotTimeoutMs);
  if (missing.length > 0)
    o.logger.warn(
      `no market data yet for ${missing.join(', ')}; starting the strategies anyway (orders on them are denied until it arrives)`,
    );
  await loop.startStrategies();
  loop.startReconcileTimer();
  return { restoredLive, reconciled };
}
