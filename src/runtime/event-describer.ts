/**
 * One log line per execution event: what a trader reading the run's log needs to follow it (placed,
 * filled, amended, cancelled, denied, venue-side fills, drifts). Pure, so the wording is tested without
 * a logger and the runtime only decides where the line goes.
 */
import type { Decimal } from '../core/decimal.js';
import type { ExecutionEvent } from '../domain/execution-event.js';

export type EventLogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface EventLine {
  readonly level: EventLogLevel;
  readonly message: string;
  readonly meta?: Readonly<Record<string, unknown>>;
}

/** The line for an event, or undefined when another event already tells it. */
export function describeEvent(e: ExecutionEvent): EventLine | undefined {
  const sid = e.strategyId ?? '-';
  switch (e.type) {
    case 'OrderSubmitted': {
      const x = e.order;
      return line(
        'info',
        `placed ${sid} ${x.symbol} ${x.side} ${fmt(x.quantity)} @ ${x.price ? fmt(x.price) : 'market'}${x.slot ? ` [${x.slot}]` : ''}`,
        { clientOrderId: x.clientOrderId },
      );
    }
    case 'OrderFilled':
    case 'OrderPartiallyFilled':
      return line(
        'info',
        `${e.type === 'OrderFilled' ? 'filled' : 'partly filled'} ${sid} ${e.symbol} ${e.fill.side} ${fmt(e.fill.quantity)} @ ${fmt(e.fill.price)}`,
        { clientOrderId: e.clientOrderId, tradeId: e.fill.tradeId },
      );
    case 'OrderAmended':
      return line(
        'info',
        `amended ${sid} ${e.symbol}${e.price ? ` → ${fmt(e.price)}` : ''}${e.quantity ? ` qty ${fmt(e.quantity)}` : ''}`,
        { clientOrderId: e.clientOrderId },
      );
    case 'OrderReplaced':
      return line('info', `amended ${sid} ${e.symbol} (cancel and place)`, {
        clientOrderId: e.clientOrderId,
        newClientOrderId: e.newClientOrderId,
      });
    case 'OrderCancelled':
      // The cancel half of a cancel-and-place amend is told by its OrderReplaced.
      if (e.reason === 'replaced') return undefined;
      return line('info', `cancelled ${sid} ${e.symbol} (${e.reason})`, { clientOrderId: e.clientOrderId });
    case 'OrderRejected':
      return line('warn', `rejected ${sid} ${e.symbol}: ${e.reason}`, { clientOrderId: e.clientOrderId });
    case 'OrderCancelRejected':
    case 'OrderAmendRejected':
      return line('warn', `${e.type === 'OrderCancelRejected' ? 'cancel' : 'amend'} refused ${sid} ${e.symbol}: ${e.reason}`, {
        clientOrderId: e.clientOrderId,
      });
    case 'OrderOutcomeUnknown':
      return line('warn', `outcome unknown ${sid} ${e.symbol} ${e.operation}: resolving by client id`, { clientOrderId: e.clientOrderId });
    case 'OrderAdopted':
      return line(
        'info',
        `adopted ${sid} ${e.order.symbol} ${e.order.side} ${fmt(e.order.quantity)} @ ${e.order.price ? fmt(e.order.price) : 'market'} (found at the exchange)`,
        { clientOrderId: e.order.clientOrderId },
      );
    case 'IntentDenied':
      // An amend or cancel of an order that filled a moment earlier is a benign race, not news.
      return line(e.rule === 'order-known' ? 'debug' : 'info', `denied ${sid} ${e.intent.kind} by ${e.rule}: ${e.reason}`);
    case 'IntentFailed':
      return line('warn', `failed ${sid} ${e.intent.kind}: ${e.reason}`);
    case 'KillSwitchTripped':
      return line('error', `KILL SWITCH ${e.rule}: ${e.reason}; pulling every order`);
    case 'PositionDrift':
      return line('warn', `position drift ${e.symbol} ${e.leg}: ours ${fmt(e.localQuantity)}, exchange ${fmt(e.venueQuantity)}`);
    case 'VenueFill': {
      const f = e.fill;
      const pnl = f.realizedPnl ? ` pnl ${fmt(f.realizedPnl)}` : '';
      const origin = `(order ${f.venueOrderId ?? '-'}, not placed by the bot)`;
      const what = `venue fill ${sid} ${e.symbol} ${f.side} ${fmt(f.quantity)} @ ${fmt(f.price)} fee ${fmt(f.fee)}${pnl} ${origin}`;
      if (e.strategyId === undefined && f.kind === 'spot')
        return line('warn', `${what}: a spot trade outside the bot; booked on the account only`);
      if (e.strategyId === undefined) return line('warn', `${what}: no single strategy owns the position; booked on the account only`);
      return line('info', what, { tradeId: f.tradeId });
    }
    case 'PositionAdjusted':
      return line('warn', `position adjusted ${sid} ${e.symbol} ${e.leg}: ${fmt(e.fromQuantity)} → ${fmt(e.toQuantity)} (${e.reason})`);
    case 'ProtectionMissing':
      return line('warn', `no TP/SL, trailing or plan order protects ${sid} ${e.symbol} ${e.leg} ${fmt(e.quantity)} at the venue`);
    case 'LeverageChanged':
      return line('info', `leverage ${sid} ${e.symbol} ${e.leverage}x${e.positionSide ? ` (${e.positionSide})` : ''}`);
    case 'PositionModeChanged':
      return line('info', `position mode ${e.mode}`);
    case 'TpSlAttached':
      return line(
        'info',
        `tp/sl ${sid} ${e.symbol} tp ${e.takeProfitPrice ? fmt(e.takeProfitPrice) : '-'} sl ${e.stopLossPrice ? fmt(e.stopLossPrice) : '-'}`,
      );
    case 'AlgoUpdated': {
      const a = e.parent;
      const avg = a.avgPrice ? ` avg ${fmt(a.avgPrice)}` : '';
      const progress = `${fmt(a.filledQty)}/${fmt(a.quantity)}${avg}, in flight ${fmt(a.inFlight)}`;
      const level = a.state === 'stopped' || a.state === 'expired' || e.change.startsWith('child denied') ? 'warn' : 'info';
      return line(level, `${a.algo} ${sid} ${e.symbol} ${a.side} ${a.state} ${progress}: ${e.change}`, { parentId: a.parentId });
    }
    case 'ProtectiveOrderPlaced': {
      const o = e.order;
      const level = o.kind === 'trailing' ? `callback ${fmt(o.callbackRate)}` : `at ${fmt(o.stopLossPrice ?? o.takeProfitPrice)}`;
      return line('info', `${o.kind} stop ${sid} ${e.symbol} ${o.positionSide} ${fmt(o.quantity)} ${level} (venue id ${o.id ?? '-'})`);
    }
    case 'ProtectiveOrderCancelled':
      return line('info', `${e.order.kind} stop ${sid} ${e.symbol} ${e.order.id} ${e.live ? 'cancelled' : 'already ended at the venue'}`);
    default:
      return line('debug', e.type, { clientOrderId: 'clientOrderId' in e ? e.clientOrderId : undefined });
  }
}

function line(level: EventLogLevel, message: string, meta?: Record<string, unknown>): EventLine {
  return meta === undefined ? { level, message } : { level, message, meta };
}

function fmt(d: Decimal | undefined): string {
  return d ? d.toFixed() : '-';
}
