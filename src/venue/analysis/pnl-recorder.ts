/**
 * The account history the profit-and-loss analysis is computed from, recorded from the contract
 * venue's own events (so it is the account's REAL history, never a model of it):
 *
 *   OrderFilled         close PnL of the fill and its fee          (per day, symbol)
 *   FundingSettled      funding paid or received per position      (per day, symbol)
 *   PositionLiquidated  realised − liquidation fee + insurance cover (per day, symbol)
 *   FundsTransferred    deposits and withdrawals                   (per day, currency)
 *
 * Realised PnL of a day = Σ close PnL − Σ fees + Σ funding + liquidation effects, exactly (Decimal,
 * never rounded), bucketed by the UTC day of the event time.
 *
 * Equity snapshots: at every 00:00 UTC on the venue's clock (a Clock timer, so a VirtualClock run
 * takes them as it crosses midnight) the equity per settle coin and the unrealised PnL per contract of
 * every tracked account are stored, with the index and fair prices of every contract. An account also
 * gets a baseline snapshot when it is first seen (after its first funding), which stands in for the
 * day-start equity until the first midnight. An owner that must rebuild the snapshots after a restart
 * (the emulator journals each one) switches the timer off (`midnightTimer: false`) and calls
 * takeMidnightSnapshot itself.
 */
import type { Clock, TimerHandle } from '../../core/clock.js';
import { Decimal } from '../../core/decimal.js';
import type { ContractInstrument } from '../../domain/instrument.js';
import type { ContractVenueEvent, ContractVenueEventType } from '../contract/contract-events.js';
import type { ContractAssetView, ContractPositionView } from '../contract/contract-views.js';
import { DAY_MS, dayStart } from './utc-calendar.js';

const ZERO = new Decimal(0);

/** What the recorder reads from the contract venue (ContractVenue fits). */
/** The events `observe` reads: only these are built for it. */
const PNL_EVENTS: readonly ContractVenueEventType[] = ['OrderFilled', 'FundingSettled', 'PositionLiquidated', 'FundsTransferred'];

export interface PnlVenue {
  on(listener: (event: ContractVenueEvent) => void, types: readonly ContractVenueEventType[]): () => void;
  assets(accountId: string): readonly ContractAssetView[];
  openPositions(accountId: string): readonly ContractPositionView[];
  instrument(symbol: string): ContractInstrument | undefined;
  instruments(): readonly ContractInstrument[];
  indexPrice(symbol: string): Decimal | undefined;
  fairPrice(symbol: string): Decimal | undefined;
}

export interface PnlParts {
  realised: Decimal;
  fee: Decimal;
  funding: Decimal;
  liquidation: Decimal;
}

export interface SymbolDay {
  readonly symbol: string;
  readonly currency: string;
  readonly parts: PnlParts;
}

export interface DayRecord {
  readonly day: number;
  readonly bySymbol: Map<string, SymbolDay>;
  /** Net transfers (IN positive) per currency with their times, for rate denominators. */
  readonly transfers: { readonly time: number; readonly currency: string; readonly amount: Decimal }[];
}

export interface EquitySnapshot {
  readonly time: number;
  /** true for a 00:00 UTC snapshot, false for the first-seen baseline. */
  readonly midnight: boolean;
  readonly equity: ReadonlyMap<string, Decimal>;
  readonly unrealised: ReadonlyMap<string, { readonly currency: string; readonly value: Decimal }>;
}

export interface PnlRecorderOptions {
  readonly clock: Clock;
  readonly venue: PnlVenue;
  /** Accounts whose history is kept (the configured ones; never the crowd or the insurance fund). */
  readonly accounts: () => readonly string[];
  /** false: no timer; the owner calls takeMidnightSnapshot at each 00:00 UTC. Default true. */
  readonly midnightTimer?: boolean;
}

export const netOf = (p: PnlParts): Decimal => p.realised.sub(p.fee).add(p.funding).add(p.liquidation);

export class PnlRecorder {
  private readonly days = new Map<string, Map<number, DayRecord>>();
  private readonly snapshots = new Map<string, EquitySnapshot[]>();
  private readonly prices = new Map<number, ReadonlyMap<string, { index?: Decimal | undefined; fair?: Decimal | undefined }>>();
  private readonly firstSeen = new Map<string, number>();
  private readonly tracked: Set<string>;
  private timer: TimerHandle | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly opts: PnlRecorderOptions) {
    this.tracked = new Set(opts.accounts());
  }

  /** Subscribes to the venue and schedules the 00:00 UTC snapshots. */
  start(): void {
    if (this.unsubscribe) return;
    this.unsubscribe = this.opts.venue.on(this.observe, PNL_EVENTS);
    // Accounts funded before the recorder started get their baseline now.
    const now = this.opts.clock.now();
    for (const a of this.tracked)
      if (!this.firstSeen.has(a) && this.opts.venue.assets(a).some((x) => !x.equity.isZero())) this.baseline(a, now);
    if (this.opts.midnightTimer !== false) this.scheduleMidnight();
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.opts.clock.clearTimer(this.timer);
    this.timer = undefined;
  }

  readonly observe = (e: ContractVenueEvent): void => {
    switch (e.type) {
      case 'OrderFilled': {
        const f = e.fill;
        const p = this.parts(f.accountId, e.time, f.symbol);
        if (!p) return;
        p.realised = p.realised.add(f.profit);
        p.fee = p.fee.add(f.fee);
        break;
      }
      case 'FundingSettled':
        for (const r of e.records) {
          const p = this.parts(r.accountId, r.settleTime, r.symbol);
          if (p) p.funding = p.funding.add(r.funding);
        }
        break;
      case 'PositionLiquidated': {
        const l = e.liquidation;
        const p = this.parts(l.accountId, e.time, l.symbol);
        if (!p) return;
        p.realised = p.realised.add(l.realised);
        p.liquidation = p.liquidation.sub(l.liquidationFee).add(l.insuranceCover);
        break;
      }
      case 'FundsTransferred': {
        const t = e.transfer;
        if (!this.tracked.has(t.accountId) || t.state !== 'SUCCESS') return;
        this.day(t.accountId, e.time).transfers.push({
          time: e.time,
          currency: t.currency,
          amount: t.type === 'IN' ? t.amount : t.amount.neg(),
        });
        if (!this.firstSeen.has(t.accountId)) this.baseline(t.accountId, e.time);
        break;
      }
      default:
        return;
    }
  };

  isTracked(accountId: string): boolean {
    return this.tracked.has(accountId);
  }

  trackedAccounts(): string[] {
    return [...this.tracked];
  }

  /** Day start of the account's first recorded activity. */
  firstDay(accountId: string): number | undefined {
    const t = this.firstSeen.get(accountId);
    return t === undefined ? undefined : dayStart(t);
  }

  dayRecord(accountId: string, day: number): DayRecord | undefined {
    return this.days.get(accountId)?.get(day);
  }

  /** Recorded days of an account, oldest first. */
  recordedDays(accountId: string): number[] {
    return [...(this.days.get(accountId)?.keys() ?? [])].sort((a, b) => a - b);
  }

  /** Snapshots of an account, oldest first. */
  snapshotsOf(accountId: string): readonly EquitySnapshot[] {
    return this.snapshots.get(accountId) ?? [];
  }

  /** The latest snapshot taken at or before `t` (the baseline when `t` precedes every midnight one). */
  snapshotAt(accountId: string, t: number): EquitySnapshot | undefined {
    const list = this.snapshots.get(accountId);
    if (!list || list.length === 0) return undefined;
    let best: EquitySnapshot | undefined;
    for (const s of list) {
      if (s.time <= t) best = s;
      else break;
    }
    return best ?? list[0];
  }

  /** The midnight snapshot taken exactly at `t`, if any. */
  midnightAt(accountId: string, t: number): EquitySnapshot | undefined {
    return this.snapshots.get(accountId)?.find((s) => s.midnight && s.time === t);
  }

  /** Index and fair prices stored at a midnight. */
  pricesAt(t: number): ReadonlyMap<string, { index?: Decimal | undefined; fair?: Decimal | undefined }> | undefined {
    return this.prices.get(t);
  }

  /** The account's equity and unrealised PnL as they stand now. */
  live(accountId: string): EquitySnapshot {
    return this.capture(accountId, this.opts.clock.now(), false);
  }

  /** Takes the 00:00 UTC snapshot of every tracked account now (the timer calls it). */
  takeMidnightSnapshot(time = this.opts.clock.now()): void {
    const prices = new Map<string, { index?: Decimal | undefined; fair?: Decimal | undefined }>();
    for (const i of this.opts.venue.instruments())
      prices.set(i.symbol, { index: this.opts.venue.indexPrice(i.symbol), fair: this.opts.venue.fairPrice(i.symbol) });
    this.prices.set(time, prices);
    for (const a of this.tracked) {
      if (!this.firstSeen.has(a)) continue;
      this.push(a, this.capture(a, time, true));
    }
  }

  private scheduleMidnight(): void {
    const next = dayStart(this.opts.clock.now()) + DAY_MS;
    this.timer = this.opts.clock.setTimer(next, () => {
      this.takeMidnightSnapshot(next);
      this.scheduleMidnight();
    });
  }

  private baseline(accountId: string, time: number): void {
    this.firstSeen.set(accountId, time);
    this.push(accountId, this.capture(accountId, time, false));
  }

  private push(accountId: string, s: EquitySnapshot): void {
    let list = this.snapshots.get(accountId);
    if (!list) this.snapshots.set(accountId, (list = []));
    list.push(s);
  }

  private capture(accountId: string, time: number, midnight: boolean): EquitySnapshot {
    const equity = new Map<string, Decimal>();
    for (const a of this.opts.venue.assets(accountId)) equity.set(a.currency, a.equity);
    const unrealised = new Map<string, { currency: string; value: Decimal }>();
    for (const p of this.opts.venue.openPositions(accountId)) {
      const currency = this.opts.venue.instrument(p.symbol)?.settleCoin ?? 'USDT';
      const prev = unrealised.get(p.symbol)?.value ?? ZERO;
      unrealised.set(p.symbol, { currency, value: prev.add(p.unrealised) });
    }
    return { time, midnight, equity, unrealised };
  }

  private day(accountId: string, time: number): DayRecord {
    let m = this.days.get(accountId);
    if (!m) this.days.set(accountId, (m = new Map()));
    const d = dayStart(time);
    let r = m.get(d);
    if (!r) m.set(d, (r = { day: d, bySymbol: new Map(), transfers: [] }));
    return r;
  }

  private parts(accountId: string, time: number, symbol: string): PnlParts | undefined {
    if (!this.tracked.has(accountId)) return undefined;
    if (!this.firstSeen.has(accountId)) this.baseline(accountId, time);
    const r = this.day(accountId, time);
    let s = r.bySymbol.get(symbol);
    if (!s) {
      const currency = this.opts.venue.instrument(symbol)?.settleCoin ?? 'USDT';
      r.bySymbol.set(symbol, (s = { symbol, currency, parts: { realised: ZERO, fee: ZERO, funding: ZERO, liquidation: ZERO } }));
    }
    return s.parts;
  }
}
