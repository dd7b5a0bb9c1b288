/**
 * The console's HTTP API as one table: each route's zod schemas validate its requests and describe it
 * in the OpenAPI document (openapi.ts), so the two cannot disagree.
 */
import { z } from 'zod';
import type { ControlOutcome } from '../runtime/run-control.js';
import type { ConsoleReadModel } from './read-model.js';
import type { WebhookView } from './webhook-notifier.js';

export const strategyParams = z.strictObject({
  id: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/)
    .describe('A strategy id of the run config.'),
});

export const limitQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(1000).optional().describe('At most this many entries, newest last (default: all kept).'),
});

export const confirmBody = z
  .strictObject({ confirm: z.literal(true).describe('Must be true: a control action is never taken by accident.') })
  .describe('Confirmation of a control action.');

export const stopBody = z
  .strictObject({
    confirm: z.literal(true).describe('Must be true.'),
    reason: z.string().min(1).max(200).optional().describe('Recorded in the journal as the reason the run ended.'),
  })
  .describe('Stops the whole run (strategies stop, their orders are cancelled unless cancelOnExit is off).');

const anyObject = z.record(z.string(), z.unknown());

export const controlAnswer = z
  .strictObject({
    action: z.string(),
    strategyId: z.string(),
    paused: z.boolean().describe('Whether the strategy is paused after the action.'),
    done: z.array(z.string()).describe('What was done, one line per intent sent and event it produced (denials with their rule).'),
    intents: z.array(anyObject),
    events: z.array(anyObject),
  })
  .describe('What a control action did.');

export const errorAnswer = z.strictObject({ error: z.string(), message: z.string() });

export interface RouteContext {
  readonly model: ConsoleReadModel;
  /** The run's webhook, when the config has one. */
  webhook?(): WebhookView;
  control(action: 'pause' | 'resume' | 'cancel-orders' | 'flatten', strategyId: string): Promise<ControlOutcome>;
  stop(reason: string): Promise<void>;
}

export interface ApiRoute {
  readonly method: 'GET' | 'POST';
  /** OpenAPI style: `/api/strategies/{id}/pause`. */
  readonly path: string;
  readonly summary: string;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly response: z.ZodType;
  handle(ctx: RouteContext, input: { params: never; query: never; body: never }): unknown;
}

const list = z.array(anyObject);

function control(action: 'pause' | 'resume' | 'cancel-orders' | 'flatten', summary: string): ApiRoute {
  return {
    method: 'POST',
    path: `/api/strategies/{id}/${action}`,
    summary,
    params: strategyParams,
    body: confirmBody,
    response: controlAnswer,
    handle: async (ctx, { params }: { params: z.output<typeof strategyParams> }) => describeOutcome(await ctx.control(action, params.id)),
  };
}

export const API_ROUTES: readonly ApiRoute[] = [
  {
    method: 'GET',
    path: '/api/status',
    summary: 'Mode, venue, uptime, equity, drawdown, kill-switch state, marks and run totals.',
    response: anyObject,
    handle: (c) => c.model.status(),
  },
  {
    method: 'GET',
    path: '/api/strategies',
    summary: 'Each strategy: parameters, running or paused, positions, PnL and counters.',
    response: list,
    handle: (c) => c.model.strategies(),
  },
  {
    method: 'GET',
    path: '/api/positions',
    summary: "Account positions (the venue's word after each reconciliation) and each strategy's share.",
    response: anyObject,
    handle: (c) => c.model.positions(),
  },
  {
    method: 'GET',
    path: '/api/orders',
    summary: "Open orders of the run's strategies.",
    response: list,
    handle: (c) => c.model.openOrders(),
  },
  { method: 'GET', path: '/api/balances', summary: 'Account balances per asset.', response: list, handle: (c) => c.model.balances() },
  {
    method: 'GET',
    path: '/api/fills',
    summary: 'Recent fills (the last 500 at most).',
    query: limitQuery,
    response: list,
    handle: (c, { query }: { query: z.output<typeof limitQuery> }) => c.model.fills(query.limit),
  },
  {
    method: 'GET',
    path: '/api/denials',
    summary: 'Recent risk denials with their rule and reason (the last 200 at most).',
    query: limitQuery,
    response: list,
    handle: (c, { query }: { query: z.output<typeof limitQuery> }) => c.model.denials(query.limit),
  },
  {
    method: 'GET',
    path: '/api/series',
    summary: 'Equity, drawdown and mid prices, one sample a second (the last hour at most).',
    query: limitQuery,
    response: list,
    handle: (c, { query }: { query: z.output<typeof limitQuery> }) => c.model.samples(query.limit),
  },
  {
    method: 'GET',
    path: '/api/logs',
    summary: 'Recent log lines (the last 300 at most), secrets masked.',
    query: limitQuery,
    response: list,
    handle: (c, { query }: { query: z.output<typeof limitQuery> }) => c.model.logs(query.limit),
  },
  {
    method: 'GET',
    path: '/api/webhook',
    summary:
      'The webhook: configured (false when the config has none), its host (never the URL: it often carries a token), ' +
      'which notices it sends, delivery counts and the last 50 deliveries with their attempts and failures.',
    response: anyObject,
    handle: (c) => c.webhook?.() ?? { configured: false },
  },
  control('pause', 'Pauses a strategy: it hears no snapshots and what it still asks is denied (cancels excepted). Its orders stay.'),
  control('resume', 'Resumes a paused strategy.'),
  control('cancel-orders', "Cancels the strategy's open orders, through risk and the order manager."),
  control(
    'flatten',
    "Cancels the strategy's orders and closes its positions with market orders (reduce-only, or the closing side of a hedged leg). " +
      'Pause it first to keep it flat.',
  ),
  {
    method: 'POST',
    path: '/api/stop',
    summary: 'Stops the run as Ctrl-C would; answers once the shutdown has been started.',
    body: stopBody,
    response: z.strictObject({ stopping: z.literal(true), reason: z.string() }),
    handle: async (c, { body }: { body: z.output<typeof stopBody> }) => {
      const reason = `console: ${body.reason ?? 'stop requested'}`;
      await c.stop(reason);
      return { stopping: true, reason };
    },
  },
];

const fmt = (d: { toFixed(): string }): string => d.toFixed();

/** Plain-JSON answer of a control action, with one human line per thing done. */
export function describeOutcome(o: ControlOutcome): z.output<typeof controlAnswer> {
  const done: string[] = [];
  if (o.action === 'pause' || o.action === 'resume') done.push(`${o.strategyId} ${o.paused ? 'paused' : 'running'}`);
  for (const i of o.intents) {
    if (i.kind === 'cancel-all') done.push(`asked to cancel every open order of ${o.strategyId}`);
    else if (i.kind === 'place') {
      const x = i.order;
      done.push(`asked ${x.type} ${x.side} ${x.quantity?.toFixed() ?? ''} ${x.symbol}${x.reduceOnly ? ' reduce-only' : ''}`);
    }
  }
  for (const e of o.events) {
    switch (e.type) {
      case 'OrderSubmitted':
        done.push(`placed ${e.order.clientOrderId} ${e.order.side} ${e.order.quantity?.toFixed() ?? ''} ${e.order.symbol}`);
        break;
      case 'OrderCancelled':
        done.push(`cancelled ${e.clientOrderId} (${e.reason})`);
        break;
      case 'OrderFilled':
      case 'OrderPartiallyFilled':
        const what = e.type === 'OrderFilled' ? 'filled' : 'partly filled';
        done.push(`${what} ${e.clientOrderId} ${e.fill.side} ${fmt(e.fill.quantity)} @ ${fmt(e.fill.price)}`);
        break;
      case 'IntentDenied':
        done.push(`denied ${e.intent.kind} by ${e.rule}: ${e.reason}`);
        break;
      case 'IntentFailed':
        done.push(`failed ${e.intent.kind}: ${e.reason}`);
        break;
      case 'OrderRejected':
      case 'OrderCancelRejected':
        done.push(`${e.type === 'OrderRejected' ? 'rejected' : 'cancel refused'} ${e.clientOrderId}: ${e.reason}`);
        break;
      default:
        break;
    }
  }
  if (done.length === 0) done.push('nothing to do');
  const plain = (x: unknown): Record<string, unknown> => JSON.parse(JSON.stringify(x)) as Record<string, unknown>;
  return { action: o.action, strategyId: o.strategyId, paused: o.paused, done, intents: o.intents.map(plain), events: o.events.map(plain) };
}
