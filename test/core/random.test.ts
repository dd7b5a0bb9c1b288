import { expect } from 'chai';
import { SeededRandom } from '../../src/core/random.js';

describe('SeededRandom', () => {
  it('same_seed_gives_same_sequence_and_different_seeds_differ', () => {
    const a = new SeededRandom(42);
    const b = new SeededRandom(42);
    const c = new SeededRandom(43);
    const sa = Array.from({ length: 20 }, () => a.nextUint32());
    const sb = Array.from({ length: 20 }, () => b.nextUint32());
    const sc = Array.from({ length: 20 }, () => c.nextUint32());
    expect(sa).to.deep.equal(sb);
    expect(sa).to.not.deep.equal(sc);
  });

  it('uniform_mean_and_normal_moments_are_close_to_theory', () => {
    const r = new SeededRandom('moments');
    const n = 200_000;
    let su = 0;
    let sn = 0;
    let sn2 = 0;
    for (let i = 0; i < n; i++) {
      su += r.next();
      const z = r.normal();
      sn += z;
      sn2 += z * z;
    }
    // Standard errors: uniform mean 0.29/sqrt(n) ≈ 0.00065, normal mean 1/sqrt(n) ≈ 0.0022.
    expect(su / n).to.be.closeTo(0.5, 0.004);
    expect(sn / n).to.be.closeTo(0, 0.012);
    expect(sn2 / n).to.be.closeTo(1, 0.02);
  });
});
