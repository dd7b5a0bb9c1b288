import { expect } from 'chai';
import type { InstrumentSymbol, StrategyId } from '../../src/core/ids.js';
import type { PositionAdjusted } from '../../src/domain/execution-event.js';
import type { Position, PositionLeg } from '../../src/domain/position.js';
import { type OwnerView, ownerAdjustments, positionOwner } from '../../src/runtime/position-owners.js';
import { BTC_USDT, position, S1, S2 } from '../domain/support/builders.js';

function view(strategies: { id: StrategyId; instruments: InstrumentSymbol[] }[], books: Record<string, Position[]>): OwnerView {
  const position = (sid: StrategyId, symbol: InstrumentSymbol, leg: PositionLeg) =>
    (books[sid] ?? []).find((p) => p.symbol === symbol && p.leg === leg);
  return { strategies, position };
}

const row = (a: PositionAdjusted) => [a.strategyId, a.fromQuantity.toFixed(), a.toQuantity.toFixed(), a.position.entryPrice.toFixed()];

describe('position owners', () => {
  it('owns_a_leg_by_the_single_trader_else_the_single_holder_else_nobody', () => {
    expect(positionOwner(view([{ id: S1, instruments: [BTC_USDT] }], {}), BTC_USDT, 'net')).to.equal(S1);
    const two = [
      { id: S1, instruments: [BTC_USDT] },
      { id: S2, instruments: [BTC_USDT] },
    ];
    expect(positionOwner(view(two, { [S2]: [position(BTC_USDT, -5, 100)] }), BTC_USDT, 'net')).to.equal(S2);
    expect(positionOwner(view(two, {}), BTC_USDT, 'net')).to.equal(undefined);
    const both = { [S1]: [position(BTC_USDT, 1, 100)], [S2]: [position(BTC_USDT, -5, 100)] };
    expect(positionOwner(view(two, both), BTC_USDT, 'net')).to.equal(undefined);
  });

  it('gives_the_owner_the_whole_difference_of_any_sign_with_the_venue_entry_when_it_holds_it_all', () => {
    // Journal says −20, the venue holds +20 at 88 000: the owner goes −20 → +20 and takes the venue's entry.
    const v = view([{ id: S1, instruments: [BTC_USDT] }], { [S1]: [position(BTC_USDT, -20, 87500)] });
    const r = ownerAdjustments(v, [position(BTC_USDT, 20, 88000)], [BTC_USDT], 5, 'test');
    expect(r.adjustments.map(row)).to.deep.equal([[S1, '-20', '20', '88000']]);
    // Venue flat: −20 → 0.
    expect(ownerAdjustments(v, [], [BTC_USDT], 5, 'test').adjustments.map(row)).to.deep.equal([[S1, '-20', '0', '0']]);
    // Agreeing books give nothing; legs outside `keys` are not judged.
    expect(ownerAdjustments(v, [position(BTC_USDT, -20, 87500)], [BTC_USDT], 5, 'test').adjustments).to.deep.equal([]);
    expect(ownerAdjustments(v, [], [BTC_USDT], 5, 'test', new Set(['other|net'])).adjustments).to.deep.equal([]);
  });

  it('gives_a_shared_symbol_to_its_single_holder_and_reports_an_ambiguous_difference', () => {
    const two = [
      { id: S1, instruments: [BTC_USDT] },
      { id: S2, instruments: [BTC_USDT] },
    ];
    // S2 holds −5, S1 nothing; the venue −8: S2 (the only holder) takes the −3 and, holding it all, the venue's entry.
    const r = ownerAdjustments(view(two, { [S2]: [position(BTC_USDT, -5, 100)] }), [position(BTC_USDT, -8, 101)], [BTC_USDT], 5, 'test');
    expect(r.adjustments.map(row)).to.deep.equal([[S2, '-5', '-8', '101']]);
    const both = view(two, { [S1]: [position(BTC_USDT, 2, 100)], [S2]: [position(BTC_USDT, -5, 100)] });
    const amb = ownerAdjustments(both, [], [BTC_USDT], 5, 'test');
    expect(amb.adjustments).to.deep.equal([]);
    expect(amb.unattributed).to.deep.equal([`${BTC_USDT} net: strategies hold -3, the venue 0; no single strategy owns it`]);
  });
});
