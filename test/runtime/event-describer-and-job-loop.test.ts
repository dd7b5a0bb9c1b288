import { expect } from 'chai';
import { D } from '../../src/core/decimal.js';
import { describeEvent } from '../../src/runtime/event-describer.js';
import { JobLoop } from '../../src/runtime/job-loop.js';
import { BTC_USDT, BTCUSDT, fill, order, S1 } from '../domain/support/builders.js';

describe('runtime: event describer and job loop', () => {
  describe('describeEvent', () => {
    it('tells_a_fill_with_side_quantity_and_price_and_keeps_ids_in_the_meta', () => {
      const o = order({ symbol: BTCUSDT });
      const f = fill(o, '0.002', '87000.5');
      const line = describeEvent({ type: 'OrderFilled', ts: 0, strategyId: S1, clientOrderId: o.clientOrderId, symbol: BTCUSDT, fill: f });
      expect(line).to.deep.equal({
        level: 'info',
        message: `filled mm1 BTCUSDT ${f.side} 0.002 @ 87000.5`,
        meta: { clientOrderId: o.clientOrderId, tradeId: f.tradeId },
      });
    });

    it('says_nothing_for_the_cancel_half_of_a_replace_and_tells_other_cancels', () => {
      const o = order({ symbol: BTCUSDT });
      const base = { type: 'OrderCancelled', ts: 0, strategyId: S1, clientOrderId: o.clientOrderId, symbol: BTCUSDT } as const;
      expect(describeEvent({ ...base, reason: 'replaced' } as never)).to.equal(undefined);
      expect(describeEvent({ ...base, reason: 'user' } as never)).to.deep.include({
        level: 'info',
        message: 'cancelled mm1 BTCUSDT (user)',
      });
    });

    it('logs_a_benign_order_known_denial_at_debug_and_other_denials_at_info', () => {
      const intent = { kind: 'cancel', strategyId: S1, clientOrderId: 'x' } as never;
      const denied = (rule: string) => describeEvent({ type: 'IntentDenied', ts: 0, strategyId: S1, intent, rule, reason: 'r' } as never);
      expect(denied('order-known')?.level).to.equal('debug');
      expect(denied('max-position')).to.deep.equal({ level: 'info', message: 'denied mm1 cancel by max-position: r' });
    });

    it('warns_of_a_venue_fill_no_strategy_owns', () => {
      const f = { ...fill(order({ symbol: BTC_USDT }), 20, 87000), venueOrderId: '42', fee: D('0.5') };
      const line = describeEvent({ type: 'VenueFill', ts: 0, symbol: BTC_USDT, fill: f } as never);
      expect(line?.level).to.equal('warn');
      expect(line?.message).to.match(
        /^venue fill - BTC_USDT \w+ 20 @ 87000 fee 0\.5 \(order 42, not placed by the bot\): no single strategy owns/,
      );
    });
  });

  describe('JobLoop', () => {
    it('runs_jobs_one_at_a_time_in_arrival_order_each_to_completion', async () => {
      const trace: string[] = [];
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const loop = new JobLoop<string>(async (job) => {
        trace.push(`start ${job}`);
        if (job === 'a') await gate;
        trace.push(`end ${job}`);
      });
      loop.enqueue('a');
      loop.enqueue('b');
      loop.enqueue('c');
      // 'a' started synchronously (as concatMap would) and holds the loop; b and c wait.
      expect(trace).to.deep.equal(['start a']);
      expect(loop.queued).to.equal(2);
      release();
      await loop.idle();
      expect(trace).to.deep.equal(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    });

    it('picks_up_jobs_queued_while_it_drains_and_starts_again_after_going_idle', async () => {
      const seen: number[] = [];
      const loop = new JobLoop<number>(async (n) => {
        seen.push(n);
        if (n === 1) loop.enqueue(2);
      });
      loop.enqueue(1);
      await loop.idle();
      loop.enqueue(3);
      await loop.idle();
      expect(seen).to.deep.equal([1, 2, 3]);
    });
  });
});
