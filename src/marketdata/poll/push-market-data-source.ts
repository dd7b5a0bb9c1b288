/**
 * A MarketDataSource fed by hand: `push(snapshot)` delivers synchronously to every subscriber of the
 * symbol and of the all-symbols stream. For the runtime latency bench (snapshot → intent → request
 * without HTTP in the way) and for tests of anything downstream of the pollers.
 */
import { Observable, Subject, filter, share } from 'rxjs';
import { ValidationError } from '../../core/errors.js';
import type { InstrumentSymbol } from '../../core/ids.js';
import type { MarketSnapshot } from '../../domain/snapshot.js';
import type { MarketDataSource } from '../market-data-source.js';

export class PushMarketDataSource<S extends MarketSnapshot = MarketSnapshot> implements MarketDataSource {
  private readonly subject = new Subject<S>();
  private readonly all$: Observable<S> = this.subject.pipe(share());
  private readonly perSymbol = new Map<string, Observable<S>>();
  private running = false;
  private stopped = false;

  constructor(readonly symbols: readonly InstrumentSymbol[]) {
    for (const s of symbols)
      this.perSymbol.set(
        s,
        this.all$.pipe(
          filter((x) => x.symbol === s),
          share(),
        ),
      );
  }

  snapshots(symbol?: InstrumentSymbol): Observable<S> {
    if (symbol === undefined) return this.all$;
    const s = this.perSymbol.get(symbol);
    if (!s) throw new ValidationError('symbol', `one of ${this.symbols.join(', ')}`, symbol);
    return s;
  }

  async start(): Promise<void> {
    if (!this.stopped) this.running = true;
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.running = false;
    this.subject.complete();
  }

  /** Delivers a snapshot now (synchronously); refused before start() and after stop(). */
  push(snapshot: S): void {
    if (!this.running) throw new ValidationError('source', 'a started source (call start() before push())');
    if (!this.perSymbol.has(snapshot.symbol))
      throw new ValidationError('snapshot.symbol', `one of ${this.symbols.join(', ')}`, snapshot.symbol);
    this.subject.next(snapshot);
  }
}
