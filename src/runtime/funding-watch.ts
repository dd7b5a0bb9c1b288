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
import type { ExchangeGateway, FundingPayment } from '../execution/exchange-gateway.js';

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
   * is booked). The failed symbol and those after it are read again next time. Promise callbacks, not async functions: this runs on every reconciliation tick (a bar,
   * in a backtest), where nested async frames cost a turn each.
   */
  read(
    symbols: readonly InstrumentSymbol[],
    venue: Pick<ExchangeGateway, 'fundingSince'>,
    ownerOf: (symbol: InstrumentSymbol, leg: PositionLeg) => StrategyId | undefined,
  ): Promise<FundingRead> | undefined {
    const fetch = venue.fundingSince;
    if (symbols.length === 0 || fetch === undefined) return undefined;
    const r = this.readFrom(symbols, 0, NONE, venue, fetch, ownerOf);
    return r instanceof Promise ? r : Promise.resolve(r);
  }

  /**
   * read() from a venue that answers at once (ImmediateAccountReads): the same payments, the same stop
   * at a failed read or take with what the symbols before it gave, and nothing awaited.
   */
  readNow(
    symbols: readonly InstrumentSymbol[],
    venue: { fundingSince(symbol: InstrumentSymbol, since: number): readonly FundingPayment[] },
    ownerOf: (symbol: InstrumentSymbol, leg: PositionLeg) => StrategyId | undefined,
  ): FundingRead {
    let booked: readonly FundingSettled[] = NONE;
    for (let i = 0; i < symbols.length; i++) {
      const symbol = symbols[i]!;
      let payments: readonly FundingPayment[];
      try {
        payments = venue.fundingSince(symbol, this.since(symbol));
      } catch (e) {
        return { booked, failure: e ?? new Error('funding read failed') };
      }
      try {
        const taken = this.take(symbol, payments, ownerOf);
        if (taken.length > 0) booked = booked.length === 0 ? taken : [...booked, ...taken];
      } catch (e) {
        return { booked, failure: e ?? new Error('funding records could not be taken') };
      }
    }
    return booked === NONE ? NOTHING_READ : { booked, failure: undefined };
  }

  private readFrom(
    symbols: readonly InstrumentSymbol[],
    i: number,
    booked: readonly FundingSettled[],
    venue: Pick<ExchangeGateway, 'fundingSince'>,
    fetch: NonNullable<ExchangeGateway['fundingSince']>,
    ownerOf: (symbol: InstrumentSymbol, leg: PositionLeg) => StrategyId | undefined,
  ): Promise<FundingRead> | FundingRead {
    if (i >= symbols.length) return booked === NONE ? NOTHING_READ : { booked, failure: undefined };
    const symbol = symbols[i]!;
    let read: Promise<readonly FundingPayment[]>;
    try {
      read = fetch.call(venue, symbol, this.since(symbol));
    } catch (e) {
      return { booked, failure: e ?? new Error('funding read failed') };
    }
    return read.then(
      (payments) => {
        let next = booked;
        try {
          const taken = this.take(symbol, payments, ownerOf);
          if (taken.length > 0) next = booked.length === 0 ? taken : [...booked, ...taken];
        } catch (e) {
          return { booked, failure: e ?? new Error('funding records could not be taken') };
        }
        return this.readFrom(symbols, i + 1, next, venue, fetch, ownerOf);
      },
      (e: unknown) => ({ booked, failure: e ?? new Error('funding read failed') }),
    );
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
