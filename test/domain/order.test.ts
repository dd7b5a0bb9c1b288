import { expect } from 'chai';
import { D } from '../../src/core/decimal.js';
import { IllegalTransition, ValidationError } from '../../src/core/errors.js';
import { clientOrderId } from '../../src/core/ids.js';
import {
  applyFillToOrder,
  canTransition,
  createOrder,
  isLive,
  isTerminal,
  ORDER_STATUSES,
  ORDER_TRANSITIONS,
  remainingQty,
  transitionOrder,
  validateOrderSpec,
} from '../../src/domain/order.js';
import { BTCUSDT, order, S1 } from './support/builders.js';

const fillOf = (qty: string, price: string, fee = '0', feeAsset = 'USDT') => ({ quantity: D(qty), price: D(price), fee: D(fee), feeAsset });

describe('Order transition table', () => {
  it('allows_every_legal_move_in_the_table', () => {
    let moves = 0;
    for (const from of ORDER_STATUSES) {
      for (const to of ORDER_TRANSITIONS[from]) {
        const next = transitionOrder(order({ status: from }), to, 5);
        expect(next.status, `${from} → ${to}`).to.equal(to);
        expect(next.updatedAt).to.equal(5);
        moves++;
      }
    }
    // initialized 2, submitted 7, accepted 7, partially-filled 6, pending-amend 7, pending-cancel 7
    expect(moves).to.equal(36);
  });

  it('throws_on_every_move_not_in_the_table', () => {
    let illegal = 0;
    for (const from of ORDER_STATUSES) {
      for (const to of ORDER_STATUSES) {
        if (canTransition(from, to)) continue;
        expect(() => transitionOrder(order({ status: from }), to, 1), `${from} → ${to}`).to.throw(IllegalTransition);
        illegal++;
      }
    }
    // 10 × 10 pairs − 36 legal
    expect(illegal).to.equal(64);
  });

  it('names_the_order_and_both_states_when_a_move_is_illegal', () => {
    const o = order({ status: 'filled', clientOrderId: clientOrderId('abc') });
    try {
      transitionOrder(o, 'accepted', 1);
      expect.fail('should throw');
    } catch (e) {
      expect(e).to.be.instanceOf(IllegalTransition);
      const t = e as IllegalTransition;
      expect([t.entity, t.from, t.to]).to.deep.equal(['order abc', 'filled', 'accepted']);
    }
  });

  it('terminal_states_have_no_way_out', () => {
    for (const s of ['filled', 'cancelled', 'rejected', 'expired'] as const) {
      expect(isTerminal(s)).to.equal(true);
      expect(ORDER_TRANSITIONS[s]).to.have.length(0);
    }
    expect(isLive('submitted')).to.equal(true);
    expect(isLive('pending-cancel')).to.equal(true);
    expect(isLive('initialized')).to.equal(false);
  });

  it('remembers_the_status_before_a_pending_move_and_forgets_it_after', () => {
    const partly = order({ status: 'partially-filled' });
    const pending = transitionOrder(partly, 'pending-cancel', 1);
    expect(pending.statusBeforePending).to.equal('partially-filled');
    const back = transitionOrder(pending, 'partially-filled', 2);
    expect(back.statusBeforePending).to.equal(undefined);
  });

  it('stamps_submitted_accepted_and_closed_times', () => {
    const o = createOrder(
      { symbol: BTCUSDT, kind: 'spot', side: 'buy', type: 'limit', timeInForce: 'gtc', price: D(1), quantity: D(1) },
      { clientOrderId: clientOrderId('x'), strategyId: S1, now: 10 },
    );
    const s = transitionOrder(o, 'submitted', 11);
    const a = transitionOrder(s, 'accepted', 12);
    const c = transitionOrder(a, 'cancelled', 13);
    expect([c.createdAt, c.submittedAt, c.acceptedAt, c.closedAt]).to.deep.equal([10, 11, 12, 13]);
  });
});

describe('Order fills', () => {
  it('averages_the_fill_price_over_partial_fills', () => {
    // 0.4 @ 100 + 0.6 @ 101 = 40 + 60.6 = 100.6 over 1.0 → avg 100.6; fees 0.02 + 0.03 = 0.05 USDT
    const o1 = applyFillToOrder(order({ status: 'accepted' }), fillOf('0.4', '100', '0.02'), 1);
    expect(o1.status).to.equal('partially-filled');
    expect(remainingQty(o1)!.toFixed()).to.equal('0.6');
    const o2 = applyFillToOrder(o1, fillOf('0.6', '101', '0.03'), 2);
    expect(o2.status).to.equal('filled');
    expect(o2.avgFillPrice!.toFixed()).to.equal('100.6');
    expect(o2.fees.USDT!.toFixed()).to.equal('0.05');
  });

  it('keeps_fees_apart_per_asset', () => {
    const o = applyFillToOrder(applyFillToOrder(order(), fillOf('0.1', '100', '0.001', 'BTC'), 1), fillOf('0.1', '100', '0.5', 'MX'), 2);
    expect(o.fees.BTC!.toFixed()).to.equal('0.001');
    expect(o.fees.MX!.toFixed()).to.equal('0.5');
  });

  it('a_fill_while_a_cancel_is_in_flight_keeps_the_order_pending_cancel', () => {
    const o = applyFillToOrder(order({ status: 'pending-cancel', statusBeforePending: 'accepted' }), fillOf('0.3', '100'), 1);
    expect(o.status).to.equal('pending-cancel');
    expect(o.filledQty.toFixed()).to.equal('0.3');
  });

  it('a_completing_fill_while_a_cancel_is_in_flight_fills_the_order', () => {
    const o = applyFillToOrder(order({ status: 'pending-cancel' }), fillOf('1', '100'), 1);
    expect(o.status).to.equal('filled');
  });

  it('rejects_a_fill_of_zero', () => {
    expect(() => applyFillToOrder(order(), fillOf('0', '100'), 1)).to.throw(ValidationError);
  });
});

describe('Order spec validation', () => {
  const base = { symbol: BTCUSDT, kind: 'spot' as const, side: 'buy' as const, timeInForce: 'gtc' as const };
  it('denies_a_limit_order_without_price_naming_the_field', () => {
    try {
      validateOrderSpec({ ...base, type: 'limit', quantity: D(1) });
      expect.fail('should throw');
    } catch (e) {
      expect((e as ValidationError).field).to.equal('order.price');
    }
  });
  it('denies_a_market_order_without_quantity_or_amount', () => {
    expect(() => validateOrderSpec({ ...base, type: 'market' })).to.throw(ValidationError);
  });
  it('accepts_a_spot_market_buy_by_quote_amount', () => {
    expect(() => validateOrderSpec({ ...base, type: 'market', timeInForce: 'ioc', quoteQuantity: D(10) })).not.to.throw();
  });
  it('denies_a_quote_amount_on_a_limit_order', () => {
    expect(() => validateOrderSpec({ ...base, type: 'limit', price: D(1), quantity: D(1), quoteQuantity: D(1) })).to.throw(ValidationError);
  });
});
