import { expect } from 'chai';
import { D } from '../../src/core/decimal.js';
import { clientOrderId } from '../../src/core/ids.js';
import { DriftWatch } from '../../src/runtime/drift-watch.js';
import { KindJournal } from '../../src/runtime/kind-journal.js';
import { RunStats } from '../../src/runtime/run-stats.js';
import { MemoryOrderJournal } from '../../src/execution/order-journal.js';
import { BTC_USDT, BTCUSDT, fill, order, position, S1 } from '../domain/support/builders.js';

describe('runtime parts', () => {
  describe('DriftWatch', () => {
    it('reports_a_difference_only_when_seen_in_two_passes_in_a_row', () => {
      const w = new DriftWatch();
      const venue = [position(BTC_USDT, 20, 100)];
      // pass 1: a fill may still be on its way
      expect(w.check([], venue, 1)).to.deep.equal([]);
      const [d] = w.check([], venue, 2);
      expect(d).to.include({ type: 'PositionDrift', leg: 'net' });
      expect([d!.localQuantity.toFixed(), d!.venueQuantity.toFixed()]).to.deep.equal(['0', '20']);
    });

    it('forgets_a_difference_explained_by_the_next_pass', () => {
      const w = new DriftWatch();
      const venue = [position(BTC_USDT, 20, 100)];
      w.check([], venue, 1);
      expect(w.check([position(BTC_USDT, 20, 100)], venue, 2)).to.deep.equal([]);
      expect(w.check([], venue, 3)).to.deep.equal([]);
    });
  });

  describe('RunStats', () => {
    it('counts_contract_volume_in_quote_with_the_contract_size', () => {
      const stats = new RunStats((s) => (s === BTC_USDT ? D('0.0001') : undefined));
      const perp = order({ symbol: BTC_USDT });
      const spot = order({ symbol: BTCUSDT });
      stats.onEvent({
        type: 'OrderFilled',
        ts: 0,
        strategyId: S1,
        clientOrderId: perp.clientOrderId,
        symbol: BTC_USDT,
        fill: fill(perp, 20, 87500),
      });
      stats.onEvent({
        type: 'OrderPartiallyFilled',
        ts: 0,
        strategyId: S1,
        clientOrderId: spot.clientOrderId,
        symbol: BTCUSDT,
        fill: fill(spot, '0.001', 87000),
      });
      // 20 × 87500 × 0.0001 = 175; 0.001 × 87000 = 87
      expect(stats.of(S1).volume.toFixed()).to.equal('262');
      expect(stats.of(S1).fills).to.equal(2);
    });

    it('counts_a_spot_cancel_and_place_as_one_amend', () => {
      const stats = new RunStats();
      const base = { ts: 0, strategyId: S1, clientOrderId: clientOrderId('a'), symbol: BTCUSDT };
      stats.onEvent({ ...base, type: 'OrderCancelled', reason: 'replaced' });
      stats.onEvent({ ...base, type: 'OrderReplaced', newClientOrderId: clientOrderId('b') });
      stats.onEvent({ ...base, type: 'OrderCancelled', reason: 'user' });
      stats.onEvent({
        type: 'IntentDenied',
        ts: 0,
        strategyId: S1,
        intent: { kind: 'cancel-all', scope: 'strategy', intentId: 'x', strategyId: S1 },
        rule: 'kill-switch',
        reason: 'r',
      });
      const c = stats.of(S1);
      expect([c.amends, c.cancels, c.denials, c.deniedBy['kill-switch']]).to.deep.equal([1, 1, 1, 1]);
    });
  });

  describe('KindJournal', () => {
    it('restores_only_the_orders_of_its_kind', async () => {
      const j = new MemoryOrderJournal();
      j.recordOrder(order({ symbol: BTCUSDT, clientOrderId: clientOrderId('s') }));
      j.recordOrder(order({ symbol: BTC_USDT, clientOrderId: clientOrderId('c') }));
      const spot = await new KindJournal(j, 'spot').restore();
      const contract = await new KindJournal(j, 'contract').restore();
      expect(spot.orders.map((o) => o.clientOrderId)).to.deep.equal(['s']);
      expect(contract.orders.map((o) => o.clientOrderId)).to.deep.equal(['c']);
    });
  });
});
