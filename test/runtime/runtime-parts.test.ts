import { expect } from 'chai';
import { D, ZERO } from '../../src/core/decimal.js';
import { clientOrderId, contractSymbol } from '../../src/core/ids.js';
import { type Position, positionKey } from '../../src/domain/position.js';
import type { PositionDrift } from '../../src/domain/execution-event.js';
import { DriftWatch } from '../../src/runtime/drift-watch.js';
import { KindJournal } from '../../src/runtime/kind-journal.js';
import { RunStats } from '../../src/runtime/run-stats.js';
import { MemoryOrderJournal } from '../../src/execution/order-journal.js';
import { BTC_USDT, BTCUSDT, fill, order, position, S1 } from '../domain/support/builders.js';
import fc from 'fast-check';

const ETH_USDT = contractSymbol('ETH_USDT');

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

    it('confirms_the_same_drifts_as_the_general_pass_over_random_sequences', () => {
      // check() skips its maps when nothing differs now or last time: the reference below is the
      // general pass alone (the code before that shortcut), run side by side on random passes.
      const reference = (): ((local: readonly Position[], venue: readonly Position[], now: number) => PositionDrift[]) => {
        let previous = new Map<string, string>();
        return (local, venue, now) => {
          const mine = new Map(local.map((p) => [positionKey(p.symbol, p.leg), p]));
          const theirs = new Map(venue.map((p) => [positionKey(p.symbol, p.leg), p]));
          const seen = new Map<string, string>();
          const out: PositionDrift[] = [];
          for (const key of [...new Set([...mine.keys(), ...theirs.keys()])].sort()) {
            const a = mine.get(key);
            const b = theirs.get(key);
            const lq = a?.quantity ?? ZERO;
            const vq = b?.quantity ?? ZERO;
            if (lq.eq(vq)) continue;
            const signature = `${lq.toFixed()}|${vq.toFixed()}`;
            seen.set(key, signature);
            if (previous.get(key) === signature) {
              const p = (a ?? b)!;
              out.push({ type: 'PositionDrift', ts: now, symbol: p.symbol, leg: p.leg, localQuantity: lq, venueQuantity: vq });
              seen.delete(key);
            }
          }
          previous = seen;
          return out;
        };
      };
      const legs = ['net', 'long', 'short'] as const;
      const pos = fc
        .record({ symbol: fc.constantFrom(BTC_USDT, ETH_USDT), leg: fc.constantFrom(...legs), qty: fc.integer({ min: -2, max: 2 }) })
        .map((x) => position(x.symbol, x.qty, 100, x.leg));
      const pass = fc.record({ local: fc.array(pos, { maxLength: 4 }), venue: fc.array(pos, { maxLength: 4 }) });
      fc.assert(
        fc.property(fc.array(pass, { minLength: 1, maxLength: 12 }), (passes) => {
          const w = new DriftWatch();
          const ref = reference();
          passes.forEach(({ local, venue }, t) => expect(w.check(local, venue, t)).to.deep.equal(ref(local, venue, t)));
        }),
        { numRuns: 300 },
      );
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
