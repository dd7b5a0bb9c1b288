/**
 * Protection of contract positions at the venue — TP/SL stop orders, and reduce-only trailing and plan
 * orders closing the position (the gateway's protectiveStops lists all three): read before the
 * strategies start (so a restarted strategy sees the stops it already has, and does not place a second
 * trailing order) and checked at every reconciliation tick (a strategy holding a position nothing
 * protects any more is told, once per position size).
 */
import type { InstrumentSymbol, StrategyId } from '../core/ids.js';
import type { ExecutionEvent, ProtectionMissing } from '../domain/execution-event.js';
import type { Position } from '../domain/position.js';
import type { ExchangeGateway, ProtectiveStop } from '../execution/exchange-gateway.js';
import { type ExecutionVenue, symbolsOfKind, type TradingRuntimeOptions, venueOfKind } from './runtime-options.js';
import type { TradingState } from './trading-state.js';

interface Held {
  readonly sid: StrategyId;
  readonly p: Position;
}

const NOT_HELD: readonly Held[] = Object.freeze([]);

export class ProtectionWatch {
  /** Unprotected positions already told (strategy|symbol|leg|quantity), so each is told once. */
  private readonly toldUnprotected = new Set<string>();
  /** strategy|symbol pairs that have put TP/SL, trailing or plan orders on (journal or this run): only they are told it is gone. */
  private readonly tpslUsers = new Set<string>();

  constructor(
    private readonly o: TradingRuntimeOptions,
    private readonly state: TradingState,
  ) {}

  /** Remembers which strategies use TP/SL on which symbols (every event, journaled or new, passes here). */
  noteTpSl(e: ExecutionEvent): void {
    if (e.strategyId === undefined) return;
    if (e.type === 'TpSlAttached' || e.type === 'ProtectiveOrderPlaced') this.tpslUsers.add(`${e.strategyId}|${e.symbol}`);
    else if (e.type === 'OrderSubmitted' && (e.order.takeProfitPrice || e.order.stopLossPrice)) {
      this.tpslUsers.add(`${e.strategyId}|${e.order.symbol}`);
    }
  }

  /**
   * Before the strategies start: the venue's TP/SL orders on every contract symbol a strategy holds a
   * position in, for ctx.protectiveStops(). A strategy restarted on a protected position reads them and
   * keeps them; it used to arm a second stop order on its first snapshot.
   */
  async readAtStart(): Promise<void> {
    const v = venueOfKind(this.o, 'contract');
    const stops = v?.gateway.protectiveStops?.bind(v.gateway);
    if (!stops) return;
    for (const symbol of symbolsOfKind(this.o, 'contract')) {
      const held = this.o.strategies.some((s) => this.state.positions(s.id).some((p) => p.symbol === symbol && !p.quantity.isZero()));
      if (held) await this.readStops(stops, symbol);
    }
  }

  /**
   * The ProtectionMissing events to publish: each strategy holding a contract position that no open
   * TP/SL at the venue protects (once per position size; told again after it was protected and lost it
   * again). Only strategies that have put TP/SL on that symbol are asked about: a strategy that never
   * uses them has nothing to re-arm.
   */
  check(): ProtectionMissing[] | Promise<ProtectionMissing[]> {
    // No strategy has put protection on anything (checked at every tick): nobody to ask about.
    if (this.tpslUsers.size === 0) return [];
    const v = venueOfKind(this.o, 'contract');
    if (!v || !v.gateway.protectiveStops) return [];
    const venue = this.state.venuePositionsOf('contract');
    const symbols = symbolsOfKind(this.o, 'contract');
    // Not an async function while no symbol has a held position to ask about (a flat tick): the caller's
    // `await` of the list takes the one microtask turn that awaiting the async function's settled promise took.
    for (let i = 0; i < symbols.length; i++) {
      const held = this.held(symbols[i]!, venue);
      if (held.length > 0) return this.checkFrom(v, venue, symbols, i, held);
    }
    return [];
  }

  /** check() from the first symbol with a held position on: its venue reads, then the other symbols as before. */
  private async checkFrom(
    v: ExecutionVenue,
    venue: readonly Position[],
    symbols: readonly InstrumentSymbol[],
    first: number,
    heldFirst: readonly Held[],
  ): Promise<ProtectionMissing[]> {
    const out: ProtectionMissing[] = [];
    const stops = v.gateway.protectiveStops!.bind(v.gateway);
    for (let i = first; i < symbols.length; i++) {
      const symbol = symbols[i]!;
      const held = i === first ? heldFirst : this.held(symbol, venue);
      if (held.length === 0) continue;
      const protectedSides = new Set((await this.readStops(stops, symbol)).map((x) => x.positionSide));
      const sideOf = (p: Position): 'long' | 'short' => (p.leg === 'net' ? (p.quantity.gt(0) ? 'long' : 'short') : p.leg);
      let heldNow: readonly Position[] | undefined;
      if (held.some(({ p }) => !protectedSides.has(sideOf(p)))) {
        // The positions were read before the stops: a stop that fired in between is gone from the stop
        // list while its position still looks held. Read the position again, so a strategy is not told to
        // re-arm protection on a position the venue has just closed (the next pass books the close).
        heldNow = await v.gateway.positions(symbol);
      }
      for (const { sid, p } of held) {
        const side = sideOf(p);
        const key = `${sid}|${symbol}|${p.leg}`;
        const told = `${key}|${p.quantity.toFixed()}`;
        if (protectedSides.has(side)) {
          for (const k of [...this.toldUnprotected]) if (k.startsWith(`${key}|`)) this.toldUnprotected.delete(k);
          continue;
        }
        const stillHeld = (q: Position): boolean =>
          q.symbol === symbol && q.leg === p.leg && q.quantity.s === p.quantity.s && !q.quantity.isZero();
        if (heldNow && !heldNow.some(stillHeld)) continue;
        if (this.toldUnprotected.has(told)) continue;
        this.toldUnprotected.add(told);
        out.push({ type: 'ProtectionMissing', ts: this.o.clock.now(), strategyId: sid, symbol, leg: p.leg, quantity: p.quantity });
      }
    }
    return out;
  }

  /** The strategies' positions in `symbol` that could carry a stop: TP/SL users holding it the way the venue does. */
  private held(symbol: InstrumentSymbol, venue: readonly Position[]): readonly Held[] {
    let held: Held[] | undefined;
    for (const s of this.o.strategies) {
      for (const p of this.state.positions(s.id)) {
        if (p.symbol !== symbol || p.quantity.isZero()) continue;
        // The key only for a held position: a flat tick makes no string.
        if (!this.tpslUsers.has(`${s.id}|${symbol}`)) break;
        // Only a position the venue holds the same way can carry a stop order.
        const theirs = venue.find((q) => q.symbol === symbol && q.leg === p.leg);
        if (theirs && theirs.quantity.s === p.quantity.s && !theirs.quantity.isZero()) (held ??= []).push({ sid: s.id, p });
      }
    }
    return held ?? NOT_HELD;
  }

  private async readStops(
    stops: NonNullable<ExchangeGateway['protectiveStops']>,
    symbol: InstrumentSymbol,
  ): Promise<readonly ProtectiveStop[]> {
    const list = await stops(symbol);
    this.state.setProtectiveStops(symbol, list);
    return list;
  }
}
