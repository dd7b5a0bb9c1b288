/**
 * Where snapshots come from: the REST pollers (live, paper) or the replay reader (backtest). The
 * container binds one of them to TOKENS.MarketDataSource; nothing downstream knows which.
 */
import type { Observable } from 'rxjs';
import type { InstrumentSymbol } from '../core/ids.js';
import type { MarketSnapshot } from '../domain/snapshot.js';

export interface MarketDataSource {
  /** Instruments this source produces snapshots for. */
  readonly symbols: readonly InstrumentSymbol[];
  /**
   * One shared (multicast) stream per instrument, or of all instruments when `symbol` is absent, in
   * poll order. Failed polls back off inside the source and never complete or error the stream;
   * completion means the source stopped (end of replay, shutdown).
   */
  snapshots(symbol?: InstrumentSymbol): Observable<MarketSnapshot>;
  /** Begins polling / replaying. */
  start(): Promise<void>;
  /** Stops polling and completes the streams. */
  stop(): Promise<void>;
}
