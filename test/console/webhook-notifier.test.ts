/**
 * The webhook notifier against a real HTTP receiver on 127.0.0.1: retries a 5xx with a doubling
 * delay (on a virtual clock), gives up a 4xx at once, keeps order, sends only the configured kinds,
 * and never puts a registered secret in a body or a log line.
 */
import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { Subject } from 'rxjs';
import { VirtualClock } from '../../src/core/clock.js';
import { D } from '../../src/core/decimal.js';
import { globalRedactor } from '../../src/core/redact.js';
import type { ExecutionEvent } from '../../src/domain/execution-event.js';
import { webhookSchema } from '../../src/runtime/config/console-config.js';
import { WebhookNotifier } from '../../src/console/webhook-notifier.js';

interface Received {
  readonly body: Record<string, unknown>;
  readonly at: number;
}

describe('console/webhook-notifier', () => {
  let server: Server;
  let url: string;
  let answers: number[];
  let received: Received[];
  let clock: VirtualClock;
  const warnings: string[] = [];
  const logger = { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error: (m: string) => warnings.push(m) };
  const SECRET = 'webhook-test-secret-value-42';

  before(async () => {
    server = createServer((req: IncomingMessage, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => {
        received.push({ body: JSON.parse(text) as Record<string, unknown>, at: clock.now() });
        res.writeHead(answers.shift() ?? 200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const a = server.address();
    url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}/hook?key=in-the-url`;
    globalRedactor.register(SECRET);
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    answers = [];
    received = [];
    warnings.length = 0;
    clock = new VirtualClock(1_000_000);
  });

  /** Lets the notifier's real I/O run, moving the virtual clock past each retry wait. */
  async function settle(n: WebhookNotifier): Promise<void> {
    let done = false;
    void n.idle().then(() => (done = true));
    for (let i = 0; i < 200 && !done; i++) {
      await new Promise((r) => setImmediate(r));
      clock.advanceTo(clock.now() + 100);
    }
    expect(done, 'notifier settled').to.equal(true);
  }

  it('retries_a_server_error_with_a_doubling_delay_then_delivers', async () => {
    // The notifier's clock, with its waits recorded.
    const waits: number[] = [];
    const c = {
      now: () => clock.now(),
      setTimer: (at: number, fn: () => void) => clock.setTimer(at, fn),
      setInterval: (ms: number, fn: () => void) => clock.setInterval(ms, fn),
      clearTimer: (h: Parameters<VirtualClock['clearTimer']>[0]) => clock.clearTimer(h),
      sleep: (ms: number) => (waits.push(ms), clock.sleep(ms)),
    };
    const n = new WebhookNotifier(webhookSchema.parse({ url, retryDelayMs: 1000, maxAttempts: 4 }), c, logger);
    answers = [503, 500];
    n.notify('start', 'run started', { mode: 'paper' });
    await settle(n);
    expect(received).to.have.length(3);
    // Waits of 1000 then 2000 ms between the attempts, each on the clock before the next POST.
    expect(waits).to.deep.equal([1000, 2000]);
    expect(received[1]!.at - received[0]!.at).to.be.at.least(1000);
    expect(received[2]!.at - received[1]!.at).to.be.at.least(2000);
    expect(received[2]!.body).to.deep.include({ source: 'perpetua', kind: 'start', text: 'run started' });
    expect(n.stats).to.deep.equal({ sent: 1, failed: 0, attempts: 3 });
    // The console's webhook section: one delivery after 3 attempts, the target by host only.
    const view = n.view();
    expect(view).to.deep.include({ configured: true, host: new URL(url).host, maxAttempts: 4, retryDelayMs: 1000, queued: 0 });
    expect(view.deliveries.map((d) => [d.kind, d.delivered, d.attempts, d.error])).to.deep.equal([['start', true, 3, null]]);
    expect(JSON.stringify(view)).to.not.include('in-the-url');
  });

  it('gives_up_a_refused_notice_at_once_and_logs_only_the_host', async () => {
    const n = new WebhookNotifier(webhookSchema.parse({ url, maxAttempts: 5 }), clock, logger);
    answers = [400];
    n.notify('stop', 'run stopped');
    await settle(n);
    expect(received).to.have.length(1);
    expect(n.stats.failed).to.equal(1);
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.match(/^webhook 127\.0\.0\.1:\d+: stop notice not delivered \(HTTP 400\)$/);
    expect(warnings[0]).to.not.include('in-the-url');
    // Listed as a failure with its reason, after its one attempt.
    expect(n.view().deliveries.map((d) => [d.kind, d.delivered, d.attempts, d.error])).to.deep.equal([['stop', false, 1, 'HTTP 400']]);
    expect(JSON.stringify(n.view())).to.not.include('in-the-url');
  });

  it('sends_fills_kill_switches_and_drifts_in_order_only_of_the_kinds_asked_and_masks_secrets', async () => {
    const n = new WebhookNotifier(webhookSchema.parse({ url, events: ['fill', 'kill-switch'] }), clock, logger);
    const events = new Subject<ExecutionEvent>();
    n.attach(events);
    const fill = { tradeId: 't1', symbol: 'BTCUSDT', kind: 'spot', side: 'buy', price: D('87500.5'), quantity: D('0.001') };
    const send = (e: Record<string, unknown>): void => events.next(e as unknown as ExecutionEvent);
    const filled = { ...fill, fee: D(0), feeAsset: 'BTC', time: 5 };
    send({ type: 'OrderFilled', ts: 5, strategyId: 'mm1', clientOrderId: 'c1', symbol: 'BTCUSDT', fill: filled });
    send({ type: 'PositionDrift', ts: 6, symbol: 'BTC_USDT', leg: 'net', localQuantity: D(1), venueQuantity: D(2) });
    send({ type: 'KillSwitchTripped', ts: 7, rule: 'kill-switch', reason: `max drawdown; key ${SECRET}` });
    await settle(n);
    n.detach();
    expect(received.map((r) => r.body.kind)).to.deep.equal(['fill', 'kill-switch']);
    const expected = { strategyId: 'mm1', symbol: 'BTCUSDT', side: 'buy', price: '87500.5', quantity: '0.001', tradeId: 't1' };
    expect(received[0]!.body.data).to.deep.include(expected);
    const all = JSON.stringify(received);
    expect(all).to.not.include(SECRET);
    expect(all).to.include('webh…42');
  });
});
