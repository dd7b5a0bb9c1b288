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
   * Reads `symbols` in turn from the venue (`fundingSince`, from each symbol's `since`) and answers the payments
   * not booked yet, oldest first per symbol, as events of each leg's owner (none when ownership is
   * ambiguous); they count as booked from now on, so the caller must publish every one it is given.
   * Undefined when there is no symbol or the venue lists no payments (`fundingSince` absent).
   * A failed read stops the pass and is answered as `failure` together with what the symbols before it
   * gave: those are booked, and dropping them here would lose them for good (the next read skips what
   * is booked). The failed symbol and those after it are read again next time.
   * A venue may answer with a promise (a gateway) or at once (a venue in this process: ImmediateAccountReads);
   * answers at hand are taken in a plain loop and the result comes back at once, so a backtest's
   * reconciliation tick (one a bar) awaits nothing here. Promise callbacks, not async functions, for the rest.
   */
  read(
    symbols: readonly InstrumentSymbol[],
    venue: FundingVenue,
    ownerOf: (symbol: InstrumentSymbol, leg: PositionLeg) => StrategyId | undefined,
  ): Promise<FundingRead> | FundingRead | undefined {
    if (symbols.length === 0 || venue.fundingSince === undefined) return undefined;
    return this.readFrom(symbols, 0, NONE, venue as Required<FundingVenue>, ownerOf);
  }

  private readFrom(
    symbols: readonly InstrumentSymbol[],
    from: number,
    booked: readonly FundingSettled[],
    venue: Required<FundingVenue>,
    ownerOf: (symbol: InstrumentSymbol, leg: PositionLeg) => StrategyId | undefined,
  ): Promise<FundingRead> | FundingRead {
    for (let i = from; i < symbols.length; i++) {
      const symbol = symbols[i]!;
      let answer: readonly FundingPayment[] | Promise<readonly FundingPayment[]>;
      try {
        answer = venue.fundingSince(symbol, this.since(symbol));
      } catch (e) {
        return { booked, failure: e ?? new Error('funding read failed') };
      }
      // A gateway's answer is a promise (or another thenable); a venue in this process answers the list itself.
      if (!Array.isArray(answer))
        return Promise.resolve(answer).then(
          (payments) => {
            const next = this.taken(symbol, payments, booked, ownerOf);
            return next instanceof Array ? this.readFrom(symbols, i + 1, next, venue, ownerOf) : next;
          },
          (e: unknown) => ({ booked, failure: e ?? new Error('funding read failed') }),
        );
      const next = this.taken(symbol, answer, booked, ownerOf);
      if (!(next instanceof Array)) return next;
      booked = next;
    }
    return booked === NONE ? NOTHING_READ : { booked, failure: undefined };
  }

  /** `booked` with what `payments` of `symbol` add (take), or the pass's answer when taking them failed. */
  private taken(
    symbol: InstrumentSymbol,
    payments: readonly FundingPayment[],
    booked: readonly FundingSettled[],
    ownerOf: (symbol: InstrumentSymbol, leg: PositionLeg) => StrategyId | undefined,
  ): readonly FundingSettled[] | FundingRead {
    try {
      const taken = this.take(symbol, payments, ownerOf);
      return taken.length === 0 ? booked : booked.length === 0 ? taken : [...booked, ...taken];
    } catch (e) {
      return { booked, failure: e ?? new Error('funding records could not be taken') };
    }
  }

  /**
   * The payments of a read of `symbol` not booked yet, oldest first, as events of the leg's owner (none
   * when ownership is ambiguous); they count as booked from now on. All or nothing: the events are built
   * before any payment is marked booked, so a failure here books none of this read.
   */
  take(
    symbol: InstrumentSymbol,
    payments: readonly FundingPayment[],
    ownerOf: (symbol: InstrumentSymbol, leg: PositionLeg) => StrategyId | undefined,
  ): FundingSettled[] {
    if (payments.length === 0) return NONE;
    let out: FundingSettled[] = NONE;
    for (let k = 0; k < payments.length; k++) {
      const p = payments[k]!;
      if (this.seen.has(p.id) || p.time < this.historyStart || (out !== NONE && listed(out, p.id))) continue;
      const strategyId = ownerOf(p.symbol, p.leg);
      if (out === NONE) out = [];
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
    for (let k = 0; k < out.length; k++) {
      const e = out[k]!;
      this.seen.add(e.fundingId!);
      if (e.settledAt! > (this.newest.get(symbol) ?? -Infinity)) this.newest.set(symbol, e.settledAt!);
    }
    return out;
  }
}

/** Where funding records are read: a gateway (promises) or a venue in this process (answers at hand). */
export interface FundingVenue {
  fundingSince?(symbol: InstrumentSymbol, since: number): readonly FundingPayment[] | Promise<readonly FundingPayment[]>;
}

/** What a pass over the symbols booked, and the read that failed (the pass stopped there), if one did. */
export interface FundingRead {
  readonly booked: readonly FundingSettled[];
  readonly failure: unknown;
}

/** A payment id already among a read's events (a venue listing one record twice books it once). */
function listed(out: readonly FundingSettled[], id: string): boolean {
  for (let k = 0; k < out.length; k++) if (out[k]!.fundingId === id) return true;
  return false;
}

/** What a read without payments books (the read of nearly every reconciliation). */
const NONE: FundingSettled[] = [];
const NOTHING_READ: FundingRead = Object.freeze({ booked: NONE, failure: undefined });
