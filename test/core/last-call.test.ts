import { expect } from 'chai';
import { lastCall, lastCall2 } from '../../src/core/last-call.js';

describe('lastCall', () => {
  it('computes_again_only_when_the_argument_is_another_object', () => {
    let calls = 0;
    const f = lastCall((x: { v: number }) => (calls++, x.v * 2));
    const a = { v: 1 };
    expect([f(a), f(a), calls]).to.deep.equal([2, 2, 1]);
    expect([f({ v: 1 }), calls]).to.deep.equal([2, 2]);
  });

  it('keeps_the_answer_of_the_last_pair_and_computes_again_when_either_argument_changes', () => {
    const seen: string[] = [];
    const f = lastCall2((a: { n: string }, b: { n: string }) => (seen.push(a.n + b.n), a.n + b.n));
    const x = { n: 'x' };
    const y = { n: 'y' };
    expect([f(x, y), f(x, y)]).to.deep.equal(['xy', 'xy']);
    expect(f(y, y)).to.equal('yy');
    expect(f(y, x)).to.equal('yx');
    expect(f(y, x)).to.equal('yx');
    // An equal but distinct object is another argument: identity, not value.
    expect(f({ n: 'y' }, x)).to.equal('yx');
    expect(seen).to.deep.equal(['xy', 'yy', 'yx', 'yx']);
  });
});
