/**
 * Funding payments of the account's contract positions, learned from the venue and booked once each
 * (paper and live; a backtest's simulated venue books its own). Each payment becomes a journaled
 * FundingSettled of the leg's owner (the one strategy trading the symbol, or the one holding the leg),
 * so a strategy's PnL carries the funding its positions paid or received — what funding-carry lives on.
 *
 * The first read of a symbol goes back to its newest journaled payment (or the journal's first run):
 * payments settled while the bot was down are booked on restart, those from before its history are not.
 * Reads overlap the last one by an hour (a record the venue lists late is still found); record ids
 * keep each payment once.
 */
import type { Clock } from '../core/clock.js';
import type { InstrumentSymbol, StrategyId } from '../core/ids.js';
import type { FundingSettled } from '../domain/execution-event.js';
import type { PositionLeg } from '../domain/position.js';
import type { FundingPayment } from '../execution/exchange-gateway.js';

const OVERLAP_MS = 3_600_000;

export class FundingWatch {
  private readonly seen = new Set<string>();
  private readonly newest = new Map<string, number>();

  /** `historyStart`: the journal's first run (venue ms); nothing settled before it is the bot's. */
  constructor(
    private readonly clock: Pick<Clock, 'now'>,
    private readonly historyStart: number,
  ) {}

  /** A payment the journal already holds (restart). */
  note(e: FundingSettled): void {
    if (e.fundingId === undefined) return;
    this.seen.add(e.fundingId);
    const t = e.settledAt ?? e.ts;
    if (t > (this.newest.get(e.symbol) ?? -Infinity)) this.newest.set(e.symbol, t);
  }

  /** Where the next read of `symbol` starts: its newest payment (or the history's start) less the overlap. */
  since(symbol: InstrumentSymbol): number {
    return Math.max(this.historyStart, (this.newest.get(symbol) ?? this.historyStart) - OVERLAP_MS);
  }

  /**
   * The payments of a read of `symbol` not booked yet, oldest first, as events of the leg's owner (none
   * when ownership is ambiguous); they count as booked from now on.
   */
  take(
    symbol: InstrumentSymbol,
    payments: readonly FundingPayment[],
    ownerOf: (symbol: InstrumentSymbol, leg: PositionLeg) => StrategyId | undefined,
  ): FundingSettled[] {
    if (payments.length === 0) return NONE;
    const out: FundingSettled[] = [];
    for (let k = 0; k < payments.length; k++) {
      const p = payments[k]!;
      if (this.seen.has(p.id) || p.time < this.historyStart) continue;
      this.seen.add(p.id);
      if (p.time > (this.newest.get(symbol) ?? -Infinity)) this.newest.set(symbol, p.time);
      const strategyId = ownerOf(p.symbol, p.leg);
      out.push({
        type: 'FundingSettled',
        ts: this.clock.now(),
        ...(strategyId !== undefined ? { strategyId } : {}),
        symbol: p.symbol,
        leg: p.leg,
        amount: p.amount,
        asset: p.asset,
        ...(p.rate !== undefined ? { rate: p.rate } : {}),
        fundingId: p.id,
        settledAt: p.time,
      });
    }
    return out;
  }
}

/** What a read without payments books (the read of nearly every reconciliation). */
const NONE: FundingSettled[] = [];
