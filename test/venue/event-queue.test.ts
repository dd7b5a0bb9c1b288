/**
 * The one event delivery of both venues (src/venue/event-queue.ts, issue 12): order, a throwing
 * listener, re-entrant pushes from a listener, and listeners added or removed during delivery. The
 * expected sequences are written out by hand from the rule in the module's comment; the last test runs
 * the same rule through the contract venue (a listener that runs a command).
 */
import { expect } from 'chai';
import { PositionMode } from '../../src/domain/contract-enums.js';
import { DeliveryQueue, EventQueue, Listeners } from '../../src/venue/event-queue.js';
import { makeKit, placed, S } from './contract/contract-test-kit.js';

describe('EventQueue (both venues)', () => {
  it('delivers_in_push_order_to_every_listener_and_only_on_flush', () => {
    const q = new EventQueue<number>();
    const seen: string[] = [];
    q.subscribe((n) => seen.push(`a${n}`));
    q.subscribe((n) => seen.push(`b${n}`));
    q.push(1);
    q.push(2);
    expect(seen).to.deep.equal([]);
    q.flush();
    expect(seen).to.deep.equal(['a1', 'b1', 'a2', 'b2']);
    q.flush();
    expect(seen).to.have.length(4);
  });

  it('delivers_each_item_once_in_order_over_flushes_of_every_size_and_forgets_what_it_delivered', () => {
    // Batches of 0..9 items (a listener re-queues every 7th once), flushed one after another: the queue
    // reuses its slots, so a stale count or slot would repeat or lose an item here.
    const q = new DeliveryQueue<{ n: number }>((item) => {
      seen.push(item.n);
      if (item.n % 7 === 0 && item.n < 1000) q.push({ n: item.n + 1000 });
    });
    const seen: number[] = [];
    const expected: number[] = [];
    let next = 1;
    for (let batch = 0; batch < 40; batch++) {
      const size = (batch * 5) % 10;
      for (let k = 0; k < size; k++) {
        const n = next++;
        q.push({ n });
        expected.push(n);
      }
      for (const n of expected.slice(expected.length - size)) if (n % 7 === 0) expected.push(n + 1000);
      q.flush();
      expect(seen).to.deep.equal(expected);
    }
    // No delivered item is still held by the queue's slots.
    const slots = (q as unknown as { items: unknown[] }).items;
    expect(slots.every((x) => x === undefined)).to.equal(true);
  });

  it('keeps_delivering_past_a_throwing_listener_and_rethrows_the_first_error_once_empty', () => {
    const q = new EventQueue<number>();
    const seen: string[] = [];
    q.subscribe((n) => {
      seen.push(`x${n}`);
      throw new Error(`x failed on ${n}`);
    });
    q.subscribe((n) => seen.push(`b${n}`));
    q.push(1);
    q.push(2);
    expect(() => q.flush()).to.throw('x failed on 1');
    // Nothing lost, nothing reordered for b; x itself was still called for the second item.
    expect(seen).to.deep.equal(['x1', 'b1', 'x2', 'b2']);
    // The error was reported once: the next flush delivers only its own items.
    q.push(3);
    expect(() => q.flush()).to.throw('x failed on 3');
    expect(seen.slice(4)).to.deep.equal(['x3', 'b3']);
  });

  it('delivers_what_a_listener_pushes_after_everything_queued_before_it', () => {
    const q = new EventQueue<string>();
    const seen: string[] = [];
    q.subscribe((e) => {
      seen.push(`a:${e}`);
      if (e === 'one') {
        q.push('one.child');
        q.flush(); // a nested flush returns at once: the child waits its turn
      }
    });
    q.subscribe((e) => seen.push(`b:${e}`));
    q.push('one');
    q.push('two');
    q.flush();
    expect(seen).to.deep.equal(['a:one', 'b:one', 'a:two', 'b:two', 'a:one.child', 'b:one.child']);
  });

  it('gives_each_item_to_the_listeners_subscribed_when_its_delivery_starts', () => {
    const q = new EventQueue<number>();
    const seen: string[] = [];
    let offB: () => void = () => undefined;
    q.subscribe((n) => {
      seen.push(`a${n}`);
      if (n === 1) {
        offB();
        q.subscribe((m) => seen.push(`c${m}`));
      }
    });
    offB = q.subscribe((n) => seen.push(`b${n}`));
    q.push(1);
    q.push(2);
    q.flush();
    // b still gets item 1 (its delivery had started), not item 2; c joins from item 2.
    expect(seen).to.deep.equal(['a1', 'b1', 'a2', 'c2']);
  });

  it('removes_one_subscription_per_unsubscribe_call', () => {
    const l = new Listeners<number>();
    const f = (): void => undefined;
    const off1 = l.add(f);
    l.add(f);
    off1();
    off1();
    expect(l.size).to.equal(1);
  });

  it('runs_a_deferred_task_in_queue_order_and_records_its_failure_like_a_listeners', () => {
    const seen: string[] = [];
    const q = new DeliveryQueue<string | (() => void)>((item, failures) => {
      if (typeof item === 'function') failures.run(item);
      else seen.push(item);
    });
    q.push('first');
    q.push(() => {
      seen.push('task');
      throw new Error('task failed');
    });
    q.push('last');
    expect(() => q.flush()).to.throw('task failed');
    expect(seen).to.deep.equal(['first', 'task', 'last']);
  });

  it('delivers_a_command_a_contract_listener_runs_after_the_events_of_the_command_that_caused_it', () => {
    const kit = makeKit();
    for (const a of ['maker', 'taker']) {
      kit.venue.openAccount(a, PositionMode.HEDGED);
      kit.venue.deposit(a, 'USDT', 100_000);
    }
    placed(kit.venue, 'maker', { side: S.OPEN_SHORT, price: 50000, vol: 5 });
    const types: string[] = [];
    let reacted = false;
    kit.venue.on((e) => {
      types.push(e.type);
      // The first fill makes this listener deposit: its transfer event must come after the whole trade.
      if (e.type === 'OrderFilled' && !reacted) {
        reacted = true;
        kit.venue.deposit('taker', 'USDT', 1);
      }
    });
    placed(kit.venue, 'taker', { side: S.OPEN_LONG, price: 50000, vol: 5 });
    const transfer = types.indexOf('FundsTransferred');
    expect(transfer, types.join(',')).to.equal(types.length - 1);
    expect(types.slice(0, transfer)).to.include.members(['OrderAccepted', 'TradeExecuted', 'OrderFilled', 'PositionChanged']);
  });
});
