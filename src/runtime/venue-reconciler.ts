/**
 * The runtime's reconciliation pass over every venue (start-up, each reconcile tick, between exit
 * cancels, and the last one at shutdown): orders and fills, then balances and positions. At start-up a
 * position the fills do not explain is adopted from the venue with the owner's PositionAdjusted; while
 * running, only a drift confirmed by two passes in a row is (drift-watch.ts).
 */
import type { InstrumentSymbol, StrategyId } from '../core/ids.js';
import type { FundingSettled } from '../domain/execution-event.js';
import { type Position, type PositionLeg, positionKey } from '../domain/position.js';
import { DriftWatch } from './drift-watch.js';
import type { EventFlow } from './event-flow.js';
import { type FundingRead, type FundingVenue, FundingWatch } from './funding-watch.js';
import { messageOf } from '../core/message-of.js';
import { type OwnerView, ownerAdjustments, positionOwner } from './position-owners.js';
import { symbolsOfKind, type TradingRuntimeOptions } from './runtime-options.js';
import type { TradingState } from './trading-state.js';

const UNEXPLAINED_AT_START = 'start-up: the venue position differs from the journal and no venue fill since explains it';
const UNEXPLAINED_DRIFT = 'drift confirmed by two reconciliations and no venue fill explains it';

/** No position to adopt (the pass of nearly every tick: no confirmed drift). */
const NO_KEYS: ReadonlySet<string> = new Set();

export class VenueReconciler {
  private readonly drifts = new DriftWatch();
  /** Funding payments booked (contract venues that list them). */
  private funding: FundingWatch | undefined;

  constructor(
    private readonly o: TradingRuntimeOptions,
    private readonly state: TradingState,
    private readonly events: EventFlow,
    private readonly owners: OwnerView,
  ) {}

  /** Books the contract venue's funding payments from now on; `historyStart`: the journal's first run. */
  watchFunding(historyStart: number): void {
    this.funding = new FundingWatch(this.o.clock, historyStart);
  }

  /** A funding payment the journal already holds (restart): not booked again. */
  noteFunding(e: FundingSettled): void {
    this.funding?.note(e);
  }

  /** Orders and fills, then balances and positions, per venue. Throws when the venue cannot be read. */
  async reconcile(startup: boolean): Promise<void> {
    const venues = this.o.venues;
    for (let i = 0; i < venues.length; i++) {
      const v = venues[i]!;
      const symbols = symbolsOfKind(this.o, v.kind);
      const contract = v.kind === 'contract';
      // Positions are compared below, after this pass's fills are applied (the order manager would
      // compare them before, and call every fill it learns here a drift).
      await v.orders.reconcile(symbols);
      const resolving = startup ? undefined : v.orders.resolvePending();
      if (resolving) await resolving;
      const reads = v.reads;
      if (contract) {
        const funded = this.bookFunding(reads?.fundingSince !== undefined ? reads : v.gateway, symbols);
        if (funded) await funded;
      }
      // Fills (and funding) are applied to the books before the venue's balances replace them (no double count).
      this.events.applyPending();
      this.state.setAccount(reads !== undefined ? reads.balances() : await v.gateway.balances());
      if (contract) {
        let venuePositions = reads !== undefined ? reads.positions() : await v.gateway.positions();
        if (startup && this.differs(venuePositions, symbols)) {
          // A fill landing between the fill query and the position query shows as a difference once:
          // fills are read again before a difference is taken as unexplained.
          await v.orders.reconcile(symbols);
          this.events.applyPending();
          venuePositions = reads !== undefined ? reads.positions() : await v.gateway.positions();
        }
        if (startup) {
          this.state.setVenuePositions('contract', venuePositions, 'all');
          this.alignOwners(venuePositions, symbols, UNEXPLAINED_AT_START);
        } else {
          const drifts = this.drifts.check(this.state.accountBook('contract').positions(), venuePositions, this.o.clock.now());
          for (const d of drifts) this.events.publishLocal(d);
          const keys = drifts.length === 0 ? NO_KEYS : new Set(drifts.map((d) => positionKey(d.symbol, d.leg)));
          this.state.setVenuePositions('contract', venuePositions, keys);
          if (keys.size > 0) this.alignOwners(venuePositions, symbols, UNEXPLAINED_DRIFT, keys);
        }
      }
    }
  }

  /**
   * Funding payments the venue settled since the last read, journaled for each leg's owner once the
   * symbols are read; a failed read is warned about and retried next pass, and what the symbols read
   * before it gave is journaled all the same (FundingWatch counts it as booked). Undefined where there
   * is nothing to read.
   */
  private bookFunding(venue: FundingVenue, symbols: readonly InstrumentSymbol[]): Promise<void> | undefined {
    const read = this.funding?.read(symbols, venue, this.ownerOfLeg);
    if (read instanceof Promise) return read.then(this.publishFunding);
    if (read !== undefined) this.publishFunding(read);
    return undefined;
  }

  private readonly publishFunding = (r: FundingRead): void => {
    for (const e of r.booked) this.events.publishLocal(e);
    if (r.failure !== undefined) this.fundingFailed(r.failure);
  };

  private fundingFailed(e: unknown): void {
    this.o.logger.warn('funding records could not be read; asked again at the next reconciliation', { error: messageOf(e) });
  }

  private readonly ownerOfLeg = (symbol: InstrumentSymbol, leg: PositionLeg): StrategyId | undefined =>
    positionOwner(this.owners, symbol, leg);

  /** Whether the strategies' books do not add up to the venue's positions somewhere. */
  private differs(venue: readonly Position[], symbols: readonly InstrumentSymbol[]): boolean {
    const found = ownerAdjustments(this.owners, venue, symbols, this.o.clock.now(), '');
    return found.adjustments.length + found.unattributed.length > 0;
  }

  /** Journals the owners' adjustments where the strategies' books do not add up to the venue. */
  private alignOwners(venue: readonly Position[], symbols: readonly InstrumentSymbol[], reason: string, keys?: ReadonlySet<string>): void {
    const found = ownerAdjustments(this.owners, venue, symbols, this.o.clock.now(), reason, keys);
    for (const a of found.adjustments) this.events.publishLocal(a);
    for (const u of found.unattributed) this.o.logger.warn(`position difference not attributed: ${u}`);
    this.events.applyPending();
  }
}
