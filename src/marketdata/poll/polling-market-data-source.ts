/**
 * The live MarketDataSource: REST pollers per instrument behind shared RxJS streams.
 *
 * One poller per instrument, shared by every subscriber (`share` with a 1-element replay and refCount):
 * two strategies on BTCUSDT cost one depth request per cycle, a late subscriber gets the latest
 * snapshot at once (downstream stale guards judge its age), and when the last subscriber leaves the
 * poller stops. Polling happens only between start() and stop() AND while someone listens; stop()
 * completes every stream.
 *
 * Configuration is checked when the source is built: bad cadences and a steady request rate over the
 * budget are ConfigErrors naming the stream (poll-budget.ts).
 */
import { BehaviorSubject, merge, Observable, ReplaySubject, share, Subject } from 'rxjs';
import type { Clock } from '../../core/clock.js';
import { ConfigError } from '../../core/errors.js';
import type { InstrumentSymbol } from '../../core/ids.js';
import type { MarketDataSource } from '../market-data-source.js';
import { Backoff } from './backoff.js';
import { InstrumentPoller } from './instrument-poller.js';
import type { ContractMarketFetcher, SpotMarketFetcher } from './market-fetcher.js';
import type { InstrumentPollStats, MarketDataEvent, PolledSnapshot } from './market-data-events.js';
import { assertPollBudget, DEFAULT_POLL_BUDGET, type BucketUsage } from './poll-budget.js';
import { resolvePollConfig, type MarketPollConfig, type ResolvedInstrumentPoll } from './poll-config.js';

export interface PollingMarketDataSourceOptions {
  readonly clock: Clock;
  readonly config: MarketPollConfig;
  /** Required when a spot instrument is configured. */
  readonly spot?: SpotMarketFetcher;
  /** Required when a contract instrument is configured. */
  readonly contract?: ContractMarketFetcher;
  /** Root of the config paths in error messages. Default `marketData`. */
  readonly configPath?: string;
}

type State = 'idle' | 'running' | 'stopped';

export class PollingMarketDataSource implements MarketDataSource {
  readonly symbols: readonly InstrumentSymbol[];
  /** Steady cost of the configured cadences per rate bucket (for the start-up log). */
  readonly usage: readonly BucketUsage[];
  /** Poll failures and recoveries (stale events come from the guard, see stale-guard.ts). */
  readonly events$: Observable<MarketDataEvent>;

  private readonly instruments: readonly ResolvedInstrumentPoll[];
  private readonly state$ = new BehaviorSubject<State>('idle');
  private readonly eventSubject = new Subject<MarketDataEvent>();
  private readonly perSymbol = new Map<string, Observable<PolledSnapshot>>();
  private readonly all$: Observable<PolledSnapshot>;
  private readonly lastStats = new Map<string, InstrumentPollStats>();
  private readonly backoff: Backoff;

  constructor(private readonly options: PollingMarketDataSourceOptions) {
    const root = options.configPath ?? 'marketData';
    this.instruments = resolvePollConfig(options.config, root);
    this.backoff = new Backoff(options.config.backoff, `${root}.backoff`);
    this.usage = assertPollBudget(this.instruments, options.config.budget ?? DEFAULT_POLL_BUDGET);
    this.instruments.forEach((inst, i) => {
      if (inst.kind === 'spot' && !options.spot)
        throw new ConfigError(`${root}.instruments[${i}]`, 'a spot instrument needs a spot market fetcher (SpotClient)');
      if (inst.kind === 'contract' && !options.contract)
        throw new ConfigError(`${root}.instruments[${i}]`, 'a contract instrument needs a contract market fetcher (ContractClient)');
    });
    this.symbols = this.instruments.map((i) => i.symbol);
    this.events$ = this.eventSubject.asObservable();
    for (const inst of this.instruments) this.perSymbol.set(inst.symbol, this.sharedStream(inst));
    this.all$ = merge(...this.perSymbol.values()).pipe(share());
  }

  snapshots(symbol?: InstrumentSymbol): Observable<PolledSnapshot> {
    if (symbol === undefined) return this.all$;
    const s = this.perSymbol.get(symbol);
    if (!s) throw new ConfigError('marketData.instruments', `${symbol} is not polled (polled: ${this.symbols.join(', ') || 'none'})`);
    return s;
  }

  async start(): Promise<void> {
    if (this.state$.value === 'stopped')
      throw new ConfigError('marketData', 'a stopped market data source cannot be restarted; build a new one');
    if (this.state$.value === 'idle') this.state$.next('running');
  }

  async stop(): Promise<void> {
    if (this.state$.value === 'stopped') return;
    this.state$.next('stopped');
    this.eventSubject.complete();
  }

  /** Counters of the instruments polled so far (the latest of each). */
  stats(): InstrumentPollStats[] {
    return [...this.lastStats.values()];
  }

  private sharedStream(inst: ResolvedInstrumentPoll): Observable<PolledSnapshot> {
    const poll$ = new Observable<PolledSnapshot>((subscriber) => {
      const poller = new InstrumentPoller(inst, {
        clock: this.options.clock,
        ...(this.options.spot ? { spot: this.options.spot } : {}),
        ...(this.options.contract ? { contract: this.options.contract } : {}),
        backoff: this.backoff,
        onEvent: (e) => this.eventSubject.next(e),
        onStats: (s) => this.lastStats.set(s.symbol, s),
      });
      const stateSub = this.state$.subscribe((state) => {
        if (state === 'running') poller.start((s) => subscriber.next(s));
        else if (state === 'stopped') {
          poller.stop();
          subscriber.complete();
        }
      });
      return () => {
        stateSub.unsubscribe();
        poller.stop();
      };
    });
    return poll$.pipe(
      share({
        connector: () => new ReplaySubject<PolledSnapshot>(1),
        resetOnError: true,
        resetOnComplete: false,
        resetOnRefCountZero: true,
      }),
    );
  }
}
