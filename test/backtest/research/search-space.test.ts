import { expect } from 'chai';
import { SeededRandom } from '../../../src/core/random.js';
import {
  Sampler,
  dimensionsOf,
  goodCount,
  gridOf,
  randomPoint,
  spaceSize,
  tpePoint,
  type Trial,
} from '../../../src/backtest/research/search-space.js';

describe('backtest/research/search-space', () => {
  it('enumerates_ranges_on_their_step_in_the_grid', () => {
    const dims = dimensionsOf({ b: { min: 0.1, max: 0.3, step: 0.1 }, a: ['x', 'y'], c: { min: 2, max: 4, integer: true } });
    expect(spaceSize(dims)).to.equal(2 * 3 * 3);
    const grid = gridOf(dims);
    expect(grid).to.have.length(18);
    expect(grid[0]).to.deep.equal({ a: 'x', b: 0.1, c: 2 });
    // snapped to the step's decimals: 0.1 + 2·0.1 is 0.3, not 0.30000000000000004
    expect(grid.map((p) => p['b'])).to.include(0.3);
    expect(spaceSize(dimensionsOf({ x: { min: 0, max: 1 } }))).to.equal(Infinity);
  });

  it('draws_random_points_inside_the_ranges_deterministically', () => {
    const dims = dimensionsOf({ lr: { min: 1e-4, max: 1e-1, log: true }, n: { min: 1, max: 9, integer: true }, k: ['a', 'b', 'c'] });
    const draw = (seed: number): Record<string, unknown>[] => {
      const rng = new SeededRandom(seed);
      return Array.from({ length: 200 }, () => randomPoint(dims, rng));
    };
    const a = draw(5);
    expect(draw(5)).to.deep.equal(a);
    expect(draw(6)).to.not.deep.equal(a);
    for (const p of a) {
      expect(p['lr'] as number).to.be.within(1e-4, 1e-1);
      expect(Number.isInteger(p['n'])).to.equal(true);
      expect(['a', 'b', 'c']).to.include(p['k']);
    }
    // log-uniform: about a third of the draws fall in each decade
    const low = a.filter((p) => (p['lr'] as number) < 1e-3).length;
    expect(low).to.be.within(45, 90);
  });

  it('uses_optunas_good_set_size', () => {
    expect([1, 10, 11, 100, 250, 1000].map(goodCount)).to.deep.equal([1, 1, 2, 10, 25, 25]);
  });

  it('tpe_concentrates_near_the_optimum_and_beats_random_search', () => {
    // Minimise (x − 7.3)² + (y − 0.2)² over [0, 10] × [−1, 1] plus a categorical where 'b' costs 1 less.
    const dims = dimensionsOf({ x: { min: 0, max: 10 }, y: { min: -1, max: 1 }, c: ['a', 'b', 'c'] });
    const loss = (p: Record<string, unknown>): number =>
      ((p['x'] as number) - 7.3) ** 2 + ((p['y'] as number) - 0.2) ** 2 + (p['c'] === 'b' ? 0 : 1);
    const bestOf = (method: 'random' | 'tpe', seed: number): { best: number; lastB: number } => {
      const sampler = new Sampler(dims, { method, seed, startupRuns: 10 }, Infinity);
      const trials: Trial[] = [];
      while (trials.length < 100) for (const p of sampler.next(5, trials)) trials.push({ point: p, loss: loss(p) });
      return { best: Math.min(...trials.map((t) => t.loss)), lastB: trials.slice(80).filter((t) => t.point['c'] === 'b').length };
    };
    const seeds = [1, 2, 3, 4, 5, 6, 7, 8, 9];
    const tpe = seeds.map((s) => bestOf('tpe', s));
    const rnd = seeds.map((s) => bestOf('random', s));
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[4]!;
    expect(median(tpe.map((t) => t.best))).to.be.lessThan(median(rnd.map((t) => t.best)));
    // 100 trials: TPE is no better than random in its first few dozen (the prior dominates l(x)), then pulls ahead.
    // After the start-up draws the model prefers the cheaper category: most of the last 20 picks are 'b'.
    expect(median(tpe.map((t) => t.lastB))).to.be.greaterThan(12);
  });

  it('tpe_proposals_depend_only_on_the_trials_and_the_seed', () => {
    const dims = dimensionsOf({ x: { min: 0, max: 1 } });
    const trials: Trial[] = Array.from({ length: 20 }, (_, i) => ({ point: { x: i / 20 }, loss: Math.abs(i / 20 - 0.4) }));
    const a = tpePoint(dims, trials, new SeededRandom(3));
    expect(tpePoint(dims, [...trials].reverse(), new SeededRandom(3))).to.deep.equal(a);
    expect(a['x'] as number).to.be.within(0.2, 0.6);
  });

  it('never_proposes_a_point_twice_and_stops_when_the_space_runs_out', () => {
    const dims = dimensionsOf({ a: [1, 2, 3], b: ['x', 'y'] });
    const sampler = new Sampler(dims, { method: 'random', seed: 1, startupRuns: 10 }, Infinity);
    const got = [...sampler.next(4, []), ...sampler.next(4, []), ...sampler.next(4, [])];
    expect(new Set(got.map((p) => JSON.stringify(p))).size).to.equal(6);
    expect(got).to.have.length(6);
    expect(sampler.exhausted).to.equal(true);
  });
});
