/**
 * The space a sweep searches and the three ways to walk it, all deterministic for a seed:
 * - grid: every combination, in a fixed order (names sorted, values as listed);
 * - random: independent uniform draws (log-uniform for `log: true`);
 * - tpe: the Tree-structured Parzen Estimator of Bergstra, Bardenet, Bengio & Kégl, "Algorithms for
 *   Hyper-Parameter Optimization" (NeurIPS 2011), after `startupRuns` random draws.
 *
 * A parameter is either a list of values (a categorical choice) or a numeric range
 * `{ min, max, step?, log?, integer? }`. Proposals come in batches whose content depends only on the
 * trials finished before the batch, never on how many workers run it, so a sweep gives the same
 * trials on one core or forty.
 */
import { ConfigError } from '../../core/errors.js';
import { SeededRandom } from '../../core/random.js';
import { canonicalJson } from '../report/backtest-run.js';
import { normCdf } from './normal.js';

export type ParamSpec =
  | readonly unknown[]
  | {
      readonly min: number;
      readonly max: number;
      readonly step?: number | undefined;
      readonly log?: boolean | undefined;
      readonly integer?: boolean | undefined;
    };

export type Dimension =
  | { readonly name: string; readonly kind: 'choice'; readonly values: readonly unknown[] }
  | {
      readonly name: string;
      readonly kind: 'range';
      readonly min: number;
      readonly max: number;
      readonly step?: number;
      readonly log: boolean;
      readonly integer: boolean;
    };

export type Point = Readonly<Record<string, unknown>>;

export const pointKey = (p: Point): string => JSON.stringify(canonicalJson(p));

export function dimensionsOf(parameters: Readonly<Record<string, ParamSpec>>): Dimension[] {
  const names = Object.keys(parameters).sort();
  if (names.length === 0) throw new ConfigError('sweep.parameters', 'expected at least one parameter with values to try');
  return names.map((name): Dimension => {
    const spec = parameters[name]!;
    const path = `sweep.parameters.${name}`;
    if (Array.isArray(spec)) {
      if (spec.length === 0) throw new ConfigError(path, 'expected at least one value');
      return { name, kind: 'choice', values: spec };
    }
    const r = spec as Exclude<ParamSpec, readonly unknown[]>;
    if (!(r.max >= r.min)) throw new ConfigError(`${path}.max`, `expected at least min (${r.min})`);
    if (r.log && !(r.min > 0)) throw new ConfigError(`${path}.min`, 'expected a positive min for a log range');
    if (r.step !== undefined && !(r.step > 0)) throw new ConfigError(`${path}.step`, 'expected a positive step');
    return {
      name,
      kind: 'range',
      min: r.min,
      max: r.max,
      ...(r.step !== undefined ? { step: r.step } : {}),
      log: r.log === true,
      integer: r.integer === true,
    };
  });
}

/** Values of a range on its step (integers step 1 by default); null when continuous. */
function rangeValues(d: Extract<Dimension, { kind: 'range' }>): number[] | null {
  const step = d.step ?? (d.integer ? 1 : undefined);
  if (step === undefined) return null;
  const n = Math.floor((d.max - d.min) / step + 1e-9);
  // Round to the step's decimals so 0.1 · 3 is 0.3, not 0.30000000000000004.
  return Array.from({ length: n + 1 }, (_, i) => snap(d.min + i * step, step));
}

const snap = (x: number, step: number): number => {
  const decimals = Math.max(0, -Math.floor(Math.log10(step)) + 2);
  return Number(x.toFixed(Math.min(decimals, 12)));
};

/** Every combination (ranges need a step or `integer`); throws past maxRuns. */
export function gridOf(dims: readonly Dimension[], maxRuns = Infinity): Point[] {
  let points: Record<string, unknown>[] = [{}];
  for (const d of dims) {
    const values = d.kind === 'choice' ? d.values : rangeValues(d);
    if (values === null)
      throw new ConfigError(
        `sweep.parameters.${d.name}`,
        'expected a step (or integer: true) for a grid search; or use search.method random or tpe',
      );
    const next: Record<string, unknown>[] = [];
    for (const p of points) for (const v of values) next.push({ ...p, [d.name]: v });
    points = next;
    if (points.length > maxRuns)
      throw new ConfigError(
        'sweep.parameters',
        `the grid has more than ${maxRuns} points (sweep.maxRuns); narrow it or use search.method random or tpe with search.runs`,
      );
  }
  return points;
}

/** Number of distinct points, Infinity when some range is continuous. */
export function spaceSize(dims: readonly Dimension[]): number {
  return dims.reduce((n, d) => n * (d.kind === 'choice' ? d.values.length : (rangeValues(d)?.length ?? Infinity)), 1);
}

// ---------------------------------------------------------------------------------------------
// Internal coordinates: a range is sampled in [lo, hi] (log space for log ranges) and mapped back.

const lo = (d: Extract<Dimension, { kind: 'range' }>): number => (d.log ? Math.log(d.min) : d.min);
const hi = (d: Extract<Dimension, { kind: 'range' }>): number => (d.log ? Math.log(d.max) : d.max);

function toValue(d: Extract<Dimension, { kind: 'range' }>, u: number): number {
  let x = d.log ? Math.exp(u) : u;
  const step = d.step ?? (d.integer ? 1 : undefined);
  if (step !== undefined) x = snap(d.min + Math.round((x - d.min) / step) * step, step);
  return Math.min(d.max, Math.max(d.min, x));
}

const toInternal = (d: Extract<Dimension, { kind: 'range' }>, v: number): number => (d.log ? Math.log(v) : v);

function randomValue(d: Dimension, rng: SeededRandom): unknown {
  if (d.kind === 'choice') return d.values[Math.floor(rng.next() * d.values.length)];
  return toValue(d, lo(d) + rng.next() * (hi(d) - lo(d)));
}

export function randomPoint(dims: readonly Dimension[], rng: SeededRandom): Point {
  const p: Record<string, unknown> = {};
  for (const d of dims) p[d.name] = randomValue(d, rng);
  return p;
}

// ---------------------------------------------------------------------------------------------
// TPE

export interface Trial {
  readonly point: Point;
  /** Lower is better (the sweep passes −score; a run breaking a constraint or without a score: +∞). */
  readonly loss: number;
}

export interface TpeOptions {
  /** Candidates drawn from l(x) per proposal; the one maximising l(x)/g(x) is proposed. Default 24 (hyperopt). */
  readonly candidates?: number;
}

/** Size of the good set: Optuna's default γ(n) = min(⌈0.1·n⌉, 25), at least 1. */
export const goodCount = (n: number): number => Math.max(1, Math.min(Math.ceil(0.1 * n), 25));

interface Parzen {
  readonly mus: number[];
  readonly sigmas: number[];
  readonly lo: number;
  readonly hi: number;
}

/**
 * The 1-d Parzen estimator of Bergstra et al. (2011): one Gaussian per observation plus a prior
 * Gaussian at the middle of the range with σ = the range's width; each σ is the larger distance to its
 * sorted neighbours, clipped to [width / min(100, 1 + n), width]. All truncated to [lo, hi], weighted
 * equally.
 */
function parzen(obs: readonly number[], a: number, b: number): Parzen {
  const width = b - a || 1;
  const prior = (a + b) / 2;
  const mus = [...obs, prior].sort((x, y) => x - y);
  const sigmas = mus.map((m, i) => {
    const left = i > 0 ? m - mus[i - 1]! : m - a;
    const right = i < mus.length - 1 ? mus[i + 1]! - m : b - m;
    return Math.min(width, Math.max(width / Math.min(100, 1 + obs.length), left, right));
  });
  // The prior keeps its full width.
  sigmas[mus.indexOf(prior)] = width;
  return { mus, sigmas, lo: a, hi: b };
}

function parzenSample(p: Parzen, rng: SeededRandom): number {
  const i = Math.floor(rng.next() * p.mus.length);
  // Rejection from the truncated Gaussian; the mass inside is at least Φ(1) − Φ(−1) for the prior.
  for (let k = 0; k < 100; k++) {
    const x = p.mus[i]! + p.sigmas[i]! * rng.normal();
    if (x >= p.lo && x <= p.hi) return x;
  }
  return Math.min(p.hi, Math.max(p.lo, p.mus[i]!));
}

function parzenLogPdf(p: Parzen, x: number): number {
  let total = 0;
  for (let i = 0; i < p.mus.length; i++) {
    const mu = p.mus[i]!;
    const s = p.sigmas[i]!;
    const mass = normCdf((p.hi - mu) / s) - normCdf((p.lo - mu) / s);
    const z = (x - mu) / s;
    total += Math.exp(-0.5 * z * z) / (s * Math.sqrt(2 * Math.PI) * Math.max(mass, 1e-12));
  }
  return Math.log(total / p.mus.length);
}

/** One dimension's TPE proposal: the draw from l(x) with the largest log l(x) − log g(x). */
function tpeValue(d: Dimension, good: readonly Point[], bad: readonly Point[], rng: SeededRandom, candidates: number): unknown {
  if (d.kind === 'choice') {
    // Categorical: counts with a prior weight of 1 per value (hyperopt's pseudo-count).
    const keys = d.values.map((v) => JSON.stringify(canonicalJson(v)));
    const weights = (set: readonly Point[]): number[] =>
      keys.map((k) => 1 + set.filter((p) => JSON.stringify(canonicalJson(p[d.name])) === k).length);
    const l = weights(good);
    const g = weights(bad);
    const lSum = l.reduce((a, b) => a + b, 0);
    const gSum = g.reduce((a, b) => a + b, 0);
    let best = -1;
    let bestRatio = -Infinity;
    for (let c = 0; c < candidates; c++) {
      let u = rng.next() * lSum;
      let i = 0;
      while (u >= l[i]! && i < l.length - 1) u -= l[i++]!;
      const ratio = Math.log(l[i]! / lSum) - Math.log(g[i]! / gSum);
      if (ratio > bestRatio) {
        bestRatio = ratio;
        best = i;
      }
    }
    return d.values[best];
  }
  const a = lo(d);
  const b = hi(d);
  const internal = (set: readonly Point[]): number[] => set.map((p) => toInternal(d, p[d.name] as number));
  const l = parzen(internal(good), a, b);
  const g = parzen(internal(bad), a, b);
  let best = l.mus[0]!;
  let bestRatio = -Infinity;
  for (let c = 0; c < candidates; c++) {
    const x = parzenSample(l, rng);
    const ratio = parzenLogPdf(l, x) - parzenLogPdf(g, x);
    if (ratio > bestRatio) {
      bestRatio = ratio;
      best = x;
    }
  }
  return toValue(d, best);
}

/** A TPE proposal from the trials so far (each dimension independently, as in the paper). */
export function tpePoint(dims: readonly Dimension[], trials: readonly Trial[], rng: SeededRandom, options: TpeOptions = {}): Point {
  const sorted = [...trials].sort((x, y) => x.loss - y.loss || (pointKey(x.point) < pointKey(y.point) ? -1 : 1));
  const n = goodCount(sorted.length);
  const good = sorted.slice(0, n).map((t) => t.point);
  const bad = sorted.slice(n).map((t) => t.point);
  const p: Record<string, unknown> = {};
  for (const d of dims) p[d.name] = tpeValue(d, good, bad, rng, options.candidates ?? 24);
  return p;
}

export type SearchMethod = 'grid' | 'random' | 'tpe';

export interface SearchSettings {
  readonly method: SearchMethod;
  readonly seed: number;
  /** TPE: random draws before the model takes over. */
  readonly startupRuns: number;
}

/**
 * Proposes the next batch of distinct, untried points (fewer when the space runs out). Grid ignores
 * the trials and walks the grid in order. A point already tried is drawn again (up to 50 times),
 * then skipped.
 */
export class Sampler {
  private readonly rng: SeededRandom;
  private readonly grid: Point[] | undefined;
  private gridAt = 0;
  private readonly tried = new Set<string>();

  constructor(
    private readonly dims: readonly Dimension[],
    private readonly settings: SearchSettings,
    maxRuns: number,
  ) {
    this.rng = new SeededRandom(`sweep:${settings.method}:${settings.seed}`);
    if (settings.method === 'grid') this.grid = gridOf(dims, maxRuns);
  }

  get exhausted(): boolean {
    return this.grid ? this.gridAt >= this.grid.length : this.tried.size >= spaceSize(this.dims);
  }

  next(count: number, trials: readonly Trial[]): Point[] {
    if (this.grid) {
      const out = this.grid.slice(this.gridAt, this.gridAt + count);
      this.gridAt += out.length;
      return out;
    }
    const out: Point[] = [];
    for (let i = 0; i < count && !this.exhausted; i++) {
      const modelled = this.settings.method === 'tpe' && trials.length >= this.settings.startupRuns;
      for (let attempt = 0; attempt < 50; attempt++) {
        const p = modelled ? tpePoint(this.dims, trials, this.rng) : randomPoint(this.dims, this.rng);
        const k = pointKey(p);
        if (this.tried.has(k)) continue;
        this.tried.add(k);
        out.push(p);
        break;
      }
    }
    return out;
  }
}
