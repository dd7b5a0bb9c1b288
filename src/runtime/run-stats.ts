/** Counters of what happened during a run, per strategy: what the status line and the summary show. */
import { type Decimal, ZERO } from '../core/decimal.js';
import type { InstrumentSymbol } from '../core/ids.js';
import type { ExecutionEvent } from '../domain/execution-event.js';

export interface StrategyCounters {
  /** Orders sent (placements, replacements of amends and chases included). */
  placed: number;
  /** Fill events (partial and complete). */
  fills: number;
  /** Quote value traded: price × quantity (× contract size for contracts). */
  volume: Decimal;
  /** Amends carried out (native, or cancel-and-place on spot). */
  amends: number;
  cancels: number;
  /** Venue refusals (order rejected, cancel / amend refused). */
  rejects: number;
  /** Intents the risk engine denied. */
  denials: number;
  /** Settings or requests that failed (leverage, TP/SL …). */
  failures: number;
  /** Denials by rule name. */
  readonly deniedBy: Record<string, number>;
}

const empty = (): StrategyCounters => ({
  placed: 0,
  fills: 0,
  volume: ZERO,
  amends: 0,
  cancels: 0,
  rejects: 0,
  denials: 0,
  failures: 0,
  deniedBy: {},
});

export class RunStats {
  private readonly byStrategy = new Map<string, StrategyCounters>();
  killSwitch: string | undefined;
  /** The newest denial, `rule: reason`, for the status line. */
  lastDenial: string | undefined;
  staleSnapshots = 0;
  snapshots = 0;
  reconciles = 0;
  reconcileFailures = 0;
  strategyErrors = 0;

  /** `multiplier`: base units per contract of a contract symbol (undefined: 1). */
  constructor(private readonly multiplier: (symbol: InstrumentSymbol) => Decimal | undefined = () => undefined) {}

  onEvent(e: ExecutionEvent): void {
    const c = this.of(e.strategyId ?? '(none)');
    switch (e.type) {
      case 'OrderSubmitted':
        c.placed++;
        break;
      case 'OrderFilled':
      case 'OrderPartiallyFilled':
      case 'VenueFill':
        c.fills++;
        c.volume = c.volume.plus(e.fill.price.mul(e.fill.quantity).mul(this.multiplier(e.fill.symbol) ?? 1));
        break;
      case 'OrderAmended':
        c.amends++;
        break;
      case 'OrderCancelled':
        // A cancel that is the first half of a spot amend is counted as the amend (OrderReplaced).
        if (e.reason !== 'replaced') c.cancels++;
        break;
      case 'OrderReplaced':
        c.amends++;
        break;
      case 'OrderRejected':
      case 'OrderCancelRejected':
      case 'OrderAmendRejected':
        c.rejects++;
        break;
      case 'IntentDenied':
        c.denials++;
        c.deniedBy[e.rule] = (c.deniedBy[e.rule] ?? 0) + 1;
        this.lastDenial = `${e.rule}: ${e.reason}`;
        break;
      case 'IntentFailed':
        c.failures++;
        break;
      case 'KillSwitchTripped':
        this.killSwitch = `${e.rule}: ${e.reason}`;
        break;
      default:
        break;
    }
  }

  of(strategyId: string): StrategyCounters {
    let c = this.byStrategy.get(strategyId);
    if (!c) this.byStrategy.set(strategyId, (c = empty()));
    return c;
  }

  /** Sum over strategies. */
  total(): StrategyCounters {
    const t = empty();
    for (const c of this.byStrategy.values()) {
      t.placed += c.placed;
      t.fills += c.fills;
      t.volume = t.volume.plus(c.volume);
      t.amends += c.amends;
      t.cancels += c.cancels;
      t.rejects += c.rejects;
      t.denials += c.denials;
      t.failures += c.failures;
      for (const [k, v] of Object.entries(c.deniedBy)) t.deniedBy[k] = (t.deniedBy[k] ?? 0) + v;
    }
    return t;
  }
}
