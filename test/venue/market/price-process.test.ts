import { expect } from 'chai';
import { SeededRandom } from '../../../src/core/random.js';
import { JumpDiffusionProcess, MeanRevertingPremium, YEAR_MS } from '../../../src/venue/market/price-process.js';

describe('price-process', () => {
  it('follows_the_drift_exactly_without_volatility_or_jumps', () => {
    // σ 0, λ 0: S' = S·e^{μτ}; one year at μ = ln 2 doubles the price.
    const p = new JumpDiffusionProcess({ initialPrice: 100, driftPerYear: Math.LN2, volatilityPerYear: 0 }, new SeededRandom(1));
    p.step(YEAR_MS / 2);
    expect(p.price).to.be.closeTo(100 * Math.SQRT2, 1e-9);
    p.step(YEAR_MS / 2);
    expect(p.price).to.be.closeTo(200, 1e-9);
  });

  it('has_log_return_variance_sigma_squared_tau', () => {
    // 20000 daily steps at σ = 0.5: variance of r ≈ 0.25/365 = 6.849e-4 (a 3 % tolerance is ~4 standard errors).
    const p = new JumpDiffusionProcess({ initialPrice: 100, volatilityPerYear: 0.5 }, new SeededRandom('var'));
    const rs: number[] = [];
    let prev = p.price;
    for (let k = 0; k < 20000; k++) {
      const next = p.step(86_400_000);
      rs.push(Math.log(next / prev));
      prev = next;
    }
    const mean = rs.reduce((a, b) => a + b, 0) / rs.length;
    const variance = rs.reduce((a, b) => a + (b - mean) ** 2, 0) / (rs.length - 1);
    expect(variance).to.be.closeTo(0.25 / 365, 0.03 * (0.25 / 365));
  });

  it('halves_a_premium_deviation_per_half_life_without_noise', () => {
    // θ 0.001, start 0.005: deviation 0.004 → 0.002 → 0.001 after one and two half-lives.
    const q = new MeanRevertingPremium({ mean: 0.001, std: 0, halfLifeMs: 60_000, initial: 0.005 }, new SeededRandom(2));
    expect(q.step(60_000)).to.be.closeTo(0.003, 1e-15);
    expect(q.step(60_000)).to.be.closeTo(0.002, 1e-15);
  });

  it('is_the_same_whatever_the_step_size_when_noise_free', () => {
    // p' = θ + (p − θ)·2^{−Δt/h}: two 30 s steps equal one 60 s step (0.004 → 0.002).
    const a = new MeanRevertingPremium({ mean: 0, std: 0, halfLifeMs: 60_000, initial: 0.004 }, new SeededRandom(3));
    const b = new MeanRevertingPremium({ mean: 0, std: 0, halfLifeMs: 60_000, initial: 0.004 }, new SeededRandom(3));
    a.step(30_000);
    a.step(30_000);
    b.step(60_000);
    expect(a.value).to.be.closeTo(0.002, 1e-15);
    expect(b.value).to.be.closeTo(0.002, 1e-15);
  });

  it('keeps_the_stationary_deviation_it_was_given', () => {
    const q = new MeanRevertingPremium({ mean: 0, std: 0.0002, halfLifeMs: 60_000 }, new SeededRandom('ou'));
    const xs: number[] = [];
    for (let k = 0; k < 20000; k++) xs.push(q.step(60_000));
    const sd = Math.sqrt(xs.reduce((s, x) => s + x * x, 0) / xs.length);
    // Samples one half-life apart are correlated (a = 0.5): 20000 samples still pin the sd to within ~2 %.
    expect(sd).to.be.closeTo(0.0002, 0.000012);
  });
});
