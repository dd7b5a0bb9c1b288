import { expect } from 'chai';
import { VirtualClock } from '../../src/core/clock.js';
import { DEFAULT_RATE_LIMITS, PRIORITY, RateLimiter, type Permit } from '../../src/client/rate-limiter.js';
import type { EndpointDef } from '../../src/api/endpoint.js';

/** Lets resolved promises run their continuations. */
const flush = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

const ORDER: Permit[] = [{ bucket: 'spot-orders', weight: 1 }];

describe('client/rate-limiter', () => {
  it('grants_up_to_the_limit_at_once_then_waits_for_the_window_to_slide', async () => {
    const clock = new VirtualClock(0);
    const limiter = new RateLimiter(clock, { spotOrders: { limit: 12, windowMs: 1_000 } });
    const grantedAt: number[] = [];
    for (let i = 0; i < 14; i++) void limiter.acquire(ORDER).then(() => grantedAt.push(clock.now()));
    await flush();
    // 12 per 1000 ms: twelve at t=0, the 13th and 14th when the t=0 grants leave the window at t=1000
    expect(grantedAt).to.deep.equal(Array(12).fill(0));
    clock.advanceTo(999);
    await flush();
    expect(grantedAt.length).to.equal(12);
    clock.advanceTo(1_000);
    await flush();
    expect(grantedAt).to.deep.equal([...Array(12).fill(0), 1_000, 1_000]);
  });

  it('sends_cancels_ahead_of_new_orders_when_the_order_bucket_is_short', async () => {
    const clock = new VirtualClock(0);
    const limiter = new RateLimiter(clock, { spotOrders: { limit: 2, windowMs: 1_000 } });
    const log: string[] = [];
    const go = (name: string, priority: number): void =>
      void limiter.acquire(ORDER, priority).then(() => log.push(`${name}@${clock.now()}`));
    go('A', PRIORITY.NORMAL);
    go('B', PRIORITY.NORMAL);
    go('N1', PRIORITY.NORMAL);
    go('N2', PRIORITY.NORMAL);
    go('C1', PRIORITY.CANCEL);
    go('C2', PRIORITY.CANCEL);
    await flush();
    clock.advanceTo(1_000);
    await flush();
    clock.advanceTo(2_000);
    await flush();
    // 2 per second: A,B at 0; the two cancels (queued after N1,N2) go first at 1000; N1,N2 at 2000
    expect(log).to.deep.equal(['A@0', 'B@0', 'C1@1000', 'C2@1000', 'N1@2000', 'N2@2000']);
  });

  it('does_not_hold_up_requests_on_other_buckets', async () => {
    const clock = new VirtualClock(0);
    const limiter = new RateLimiter(clock, { spotOrders: { limit: 1, windowMs: 1_000 } });
    const log: string[] = [];
    void limiter.acquire([...ORDER, { bucket: 'ip-weight', weight: 1 }]).then(() => log.push('order1'));
    void limiter.acquire([...ORDER, { bucket: 'ip-weight', weight: 1 }]).then(() => log.push('order2'));
    void limiter.acquire([{ bucket: 'ip-weight', weight: 1 }]).then(() => log.push('depth'));
    await flush();
    expect(log).to.deep.equal(['order1', 'depth']);
    expect(limiter.pending()).to.equal(1);
  });

  it('charges_weights_against_the_ip_budget', async () => {
    const clock = new VirtualClock(0);
    const limiter = new RateLimiter(clock, { ipWeight: { limit: 50, windowMs: 10_000 } });
    const log: number[] = [];
    // 40 + 10 = 50 fits; the next 5 waits until the 40 leaves the window at t=10000
    void limiter.acquire([{ bucket: 'ip-weight', weight: 40 }]).then(() => log.push(clock.now()));
    await flush();
    clock.advanceTo(2_000);
    void limiter.acquire([{ bucket: 'ip-weight', weight: 10 }]).then(() => log.push(clock.now()));
    void limiter.acquire([{ bucket: 'ip-weight', weight: 5 }]).then(() => log.push(clock.now()));
    await flush();
    expect(log).to.deep.equal([0, 2_000]);
    clock.advanceTo(10_000);
    await flush();
    expect(log).to.deep.equal([0, 2_000, 10_000]);
    expect(limiter.inUse('ip-weight')).to.equal(15);
  });

  it('pauses_buckets_after_a_429_until_the_given_time', async () => {
    const clock = new VirtualClock(0);
    const limiter = new RateLimiter(clock);
    limiter.pause(['ip-weight'], 3_000);
    let at = -1;
    void limiter.acquire([{ bucket: 'ip-weight', weight: 1 }]).then(() => (at = clock.now()));
    clock.advanceTo(2_999);
    await flush();
    expect(at).to.equal(-1);
    clock.advanceTo(3_000);
    await flush();
    expect(at).to.equal(3_000);
  });

  it('meters_each_contract_endpoint_separately', () => {
    const clock = new VirtualClock(0);
    const limiter = new RateLimiter(clock, { contractEndpoint: { limit: 2, windowMs: 2_000 } });
    const def = (id: string): EndpointDef =>
      ({ id, clientMethod: id, buckets: ['contract-endpoint'], weight: 1, method: 'POST' }) as unknown as EndpointDef;
    const a = limiter.permitsFor(def('contract.createOrder'), {});
    const b = limiter.permitsFor(def('contract.cancelOrders'), {});
    expect(a).to.deep.equal([{ bucket: 'contract-endpoint:contract.createOrder', weight: 1 }]);
    expect([limiter.tryAcquire(a), limiter.tryAcquire(a), limiter.tryAcquire(a)]).to.deep.equal([true, true, false]);
    expect(limiter.tryAcquire(b)).to.equal(true);
    expect(limiter.priorityOf(def('contract.cancelOrders'))).to.equal(PRIORITY.CANCEL);
    expect(limiter.priorityOf(def('contract.createOrder'))).to.equal(PRIORITY.NORMAL);
  });

  it('uses_weight_functions_of_the_entry', () => {
    const limiter = new RateLimiter(new VirtualClock(0));
    const ticker = {
      id: 'spot.ticker24hr',
      clientMethod: 'ticker24hr',
      buckets: ['ip-weight'],
      weight: (p: Record<string, unknown>) => (p['symbol'] ? 1 : 40),
      method: 'GET',
    } as unknown as EndpointDef;
    expect(limiter.permitsFor(ticker, {})).to.deep.equal([{ bucket: 'ip-weight', weight: 40 }]);
    expect(limiter.permitsFor(ticker, { symbol: 'BTCUSDT' })).to.deep.equal([{ bucket: 'ip-weight', weight: 1 }]);
  });

  it('has_conservative_defaults', () => {
    expect(DEFAULT_RATE_LIMITS.spotOrders).to.deep.equal({ limit: 12, windowMs: 1_000 });
    expect(DEFAULT_RATE_LIMITS.spotAccount).to.deep.equal({ limit: 2, windowMs: 1_000 });
    expect(DEFAULT_RATE_LIMITS.contractEndpoint.limit).to.be.at.most(20);
  });
});
