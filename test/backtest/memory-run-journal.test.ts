import { expect } from 'chai';
import { MemoryRunJournal } from '../../src/backtest/memory-run-journal.js';
import { transitionOrder } from '../../src/domain/order.js';
import { BTCUSDT, order, S1 } from '../domain/support/builders.js';

describe('MemoryRunJournal', () => {
  const live = order({ symbol: BTCUSDT });
  const done = transitionOrder(order({ symbol: BTCUSDT, clientOrderId: 'ppmm1_q_2' as never }), 'cancelled', 2);

  it('keeps_every_order_and_event_by_default', () => {
    const j = new MemoryRunJournal();
    j.recordOrder(live);
    j.recordOrder(done);
    j.recordEvent({
      type: 'OrderCancelled',
      ts: 2,
      strategyId: S1,
      clientOrderId: done.clientOrderId,
      symbol: BTCUSDT,
      reason: 'test',
    } as never);
    expect(j.orders().map((o) => o.clientOrderId)).to.deep.equal([live.clientOrderId, done.clientOrderId]);
    expect(j.events()).to.have.length(1);
  });

  it('keeps_only_what_a_run_reads_back_without_history_and_refuses_to_answer_with_a_part', () => {
    // A backtest's journal: a closed order leaves memory (the run record is built from the order
    // managers' events); a live one stays for restore().
    const j = new MemoryRunJournal({ history: false });
    j.recordOrder(live);
    j.recordOrder(done);
    j.recordEvent({
      type: 'OrderCancelled',
      ts: 2,
      strategyId: S1,
      clientOrderId: done.clientOrderId,
      symbol: BTCUSDT,
      reason: 'test',
    } as never);
    expect(j.restore().orders.map((o) => o.clientOrderId)).to.deep.equal([live.clientOrderId]);
    expect(j.order(done.clientOrderId)).to.equal(undefined);
    expect(() => j.events()).to.throw(/keeps no history/);
    expect(() => j.orders()).to.throw(/keeps no history/);
  });
});
