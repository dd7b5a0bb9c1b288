/**
 * Exponential, capped retry delay: initial · multiplier^(n−1) for the n-th consecutive failure, never
 * above max. No jitter: one poller per instrument, so there is no herd to spread, and a fixed ladder
 * keeps virtual-clock tests exact.
 */
import { ConfigError } from '../../core/errors.js';
import { DEFAULT_BACKOFF, type BackoffOptions } from './poll-config.js';

export class Backoff {
  readonly initialMs: number;
  readonly multiplier: number;
  readonly maxMs: number;

  constructor(options: BackoffOptions = {}, path = 'marketData.backoff') {
    const o = { ...DEFAULT_BACKOFF, ...options };
    if (!(o.initialMs > 0)) throw new ConfigError(`${path}.initialMs`, `expected a delay > 0 ms, got ${o.initialMs}`);
    if (!(o.multiplier >= 1)) throw new ConfigError(`${path}.multiplier`, `expected a factor >= 1, got ${o.multiplier}`);
    if (!(o.maxMs >= o.initialMs)) throw new ConfigError(`${path}.maxMs`, `expected at least initialMs (${o.initialMs}), got ${o.maxMs}`);
    this.initialMs = o.initialMs;
    this.multiplier = o.multiplier;
    this.maxMs = o.maxMs;
  }

  /** Delay after the `failures`-th consecutive failure (1-based). */
  delay(failures: number): number {
    const n = Math.max(1, failures);
    return Math.min(this.maxMs, Math.round(this.initialMs * this.multiplier ** (n - 1)));
  }
}
