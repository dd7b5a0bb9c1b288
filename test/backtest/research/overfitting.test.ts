import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ValidationError } from '../../../src/core/errors.js';
import {
  deflatedSharpe,
  deflatedSharpeOfTrials,
  expectedMaxSharpe,
  type DeflatedSharpeInput,
} from '../../../src/backtest/research/deflated-sharpe.js';
import { normCdf, normInv } from '../../../src/backtest/research/normal.js';
import { combinations, probabilityOfOverfitting } from '../../../src/backtest/research/pbo.js';
import { PROJECT_ROOT } from '../../support/project-root.js';

/**
 * Expected values come from test/fixtures/research/overfitting_reference.py, an independent numpy /
 * scipy implementation written from the papers (it shares no code with src/backtest/research), and
 * for the small cases from the hand computations in the comments.
 */
interface Cases {
  dsr: { name: string; input: DeflatedSharpeInput; expected: { dsr: number; expectedMaxSharpe: number } | null }[];
  dsrSeries: { name: string; trials: number[][]; winner: number; expected: { dsr: number; expectedMaxSharpe: number; sharpe: number } }[];
  pbo: { name: string; matrix: number[][]; blocks: number; expected: { pbo: number; logits: number[]; splits: number } }[];
}
const cases = JSON.parse(readFileSync(join(PROJECT_ROOT, 'test', 'fixtures', 'research', 'overfitting-cases.json'), 'utf8')) as Cases;

describe('backtest/research: deflated Sharpe ratio and probability of backtest overfitting', () => {
  describe('normal distribution', () => {
    it('matches_table_values_of_phi_and_its_inverse', () => {
      // Standard table values: Φ(1.96) = 0.9750021048517795, Φ(−3) = 0.0013498980316301, Φ⁻¹(0.99) = 2.3263478740408408
      expect(normCdf(1.96)).to.be.closeTo(0.9750021048517795, 1e-14);
      expect(normCdf(-3)).to.be.closeTo(0.0013498980316301, 1e-15);
      expect(normCdf(0)).to.equal(0.5);
      expect(normInv(0.99)).to.be.closeTo(2.3263478740408408, 1e-12);
      expect(normInv(1e-10)).to.be.closeTo(-6.361340902404056, 1e-9);
      for (const p of [1e-8, 0.01, 0.3, 0.5, 0.77, 0.999]) expect(normCdf(normInv(p))).to.be.closeTo(p, 1e-14 + p * 1e-12);
      expect(normInv(0)).to.equal(-Infinity);
      expect(normInv(1)).to.equal(Infinity);
    });
  });

  describe('deflated Sharpe ratio', () => {
    for (const c of cases.dsr) {
      it(`agrees_with_the_reference: ${c.name}`, () => {
        const got = deflatedSharpe(c.input);
        if (c.expected === null) return void expect(got).to.equal(null);
        expect(got).to.not.equal(null);
        expect(got!.dsr).to.be.closeTo(c.expected.dsr, 1e-10);
        expect(got!.expectedMaxSharpe).to.be.closeTo(c.expected.expectedMaxSharpe, 1e-12);
      });
    }

    it('reproduces_the_papers_published_example', () => {
      // Bailey & López de Prado (2014), section 4: SR₀ ≈ 0.1132 per day and DSR ≈ 0.9004.
      const got = deflatedSharpe(cases.dsr[0]!.input)!;
      expect(got.expectedMaxSharpe).to.be.closeTo(0.1132, 5e-5);
      expect(got.dsr).to.be.closeTo(0.9004, 5e-5);
    });

    it('is_the_psr_against_zero_with_one_trial_by_hand', () => {
      // N = 1 ⇒ SR₀ = 0; SR = 0.1, T = 250, normal moments: Φ(0.1·√249 / √(1 + 2/4·0.01)) = Φ(1.574043…)
      const z = (0.1 * Math.sqrt(249)) / Math.sqrt(1 + 0.5 * 0.01);
      expect(deflatedSharpe({ sharpe: 0.1, observations: 250, skew: 0, kurtosis: 3, trials: 1, sharpeVariance: 0.01 })!.dsr).to.be.closeTo(
        normCdf(z),
        1e-15,
      );
      expect(z).to.be.closeTo(1.574043, 1e-6);
      expect(expectedMaxSharpe(1, 0.5)).to.equal(0);
      expect(expectedMaxSharpe(10, 0)).to.equal(0);
    });

    it('falls_as_trials_grow', () => {
      const base = { sharpe: 0.1, observations: 500, skew: 0, kurtosis: 3, sharpeVariance: 0.002 };
      const values = [2, 10, 100, 1000].map((trials) => deflatedSharpe({ ...base, trials })!.dsr);
      for (let i = 1; i < values.length; i++) expect(values[i]).to.be.lessThan(values[i - 1]!);
    });

    for (const c of cases.dsrSeries) {
      it(`agrees_with_the_reference_from_return_series: ${c.name}`, () => {
        const got = deflatedSharpeOfTrials(c.trials[c.winner]!, c.trials)!;
        expect(got.sharpe).to.be.closeTo(c.expected.sharpe, 1e-12);
        expect(got.expectedMaxSharpe).to.be.closeTo(c.expected.expectedMaxSharpe, 1e-12);
        expect(got.dsr).to.be.closeTo(c.expected.dsr, 1e-10);
      });
    }

    it('is_undefined_for_flat_or_too_short_returns', () => {
      expect(deflatedSharpeOfTrials([0.01, 0.01, 0.01], [[0.01, 0.01, 0.01]])).to.equal(null);
      expect(deflatedSharpeOfTrials([0.01], [[0.01]])).to.equal(null);
    });
  });

  describe('probability of backtest overfitting (CSCV)', () => {
    it('enumerates_the_symmetric_splits', () => {
      expect(combinations(4, 2)).to.deep.equal([
        [0, 1],
        [0, 2],
        [0, 3],
        [1, 2],
        [1, 3],
        [2, 3],
      ]);
      expect(combinations(16, 8)).to.have.length(12870);
    });

    it('leader_swapping_between_halves_is_certain_overfitting_by_hand', () => {
      // S = 2: split 1 trains on rows 0–3 where A (mean 1.75) beats B (mean −0.125); on rows 4–7
      // A (mean −0.125) is below B (mean 2.5): rank 1 of 2, ω̄ = 1/3, λ = ln(1/2) < 0. Split 2 is
      // the mirror image. PBO = 2/2 = 1.
      const c = cases.pbo[0]!;
      const got = probabilityOfOverfitting(c.matrix, 2)!;
      expect(got.pbo).to.equal(1);
      expect(got.logits).to.have.length(2);
      for (const l of got.logits) expect(l).to.be.closeTo(Math.log(0.5), 1e-15);
    });

    it('a_dominant_trial_is_no_overfitting_by_hand', () => {
      // A beats B in both halves: the in-sample winner is ranked 2 of 2 out of sample, ω̄ = 2/3, λ = ln 2 > 0.
      const got = probabilityOfOverfitting(cases.pbo[1]!.matrix, 2)!;
      expect(got.pbo).to.equal(0);
      for (const l of got.logits) expect(l).to.be.closeTo(Math.log(2), 1e-15);
    });

    for (const c of cases.pbo) {
      it(`agrees_with_the_reference: ${c.name}`, () => {
        const got = probabilityOfOverfitting(c.matrix, c.blocks)!;
        expect(got.splits).to.equal(c.expected.splits);
        expect(got.pbo).to.be.closeTo(c.expected.pbo, 1e-15);
        got.logits.forEach((l, i) => expect(l).to.be.closeTo(c.expected.logits[i]!, 1e-12));
      });
    }

    it('is_undefined_for_one_trial_and_refuses_bad_blocks', () => {
      expect(probabilityOfOverfitting([[1], [2], [3], [4]], 2)).to.equal(null);
      expect(() =>
        probabilityOfOverfitting(
          [
            [1, 2],
            [2, 1],
            [3, 3],
            [4, 1],
          ],
          3,
        ),
      ).to.throw(ValidationError, /even integer/);
      expect(() =>
        probabilityOfOverfitting(
          [
            [1, 2],
            [2, 1],
            [3, 3],
          ],
          4,
        ),
      ).to.throw(ValidationError, /at least 4 rows/);
      expect(() => probabilityOfOverfitting([[1, 2], [2]], 2)).to.throw(ValidationError, /equal length/);
    });
  });
});
