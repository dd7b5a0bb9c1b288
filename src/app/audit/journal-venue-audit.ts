/**
 * The bot's journal against the venue, read over the client (the venue is the witness): after a run —
 * crashes, restarts and faults included — what the bot believes must be what the exchange holds.
 *
 *  - duplicates: a client order id the venue holds more than once (an order placed twice);
 *  - lost fills: quantity the venue executed for one of our orders that the journal does not have;
 *  - phantom fills: journaled quantity the venue never executed, or a real trade id it does not know;
 *  - unattributed fills: venue executions of this account that belong to no order in the journal
 *    (orders placed outside the bot, venue-side TP/SL closes, liquidations) and are not journaled as
 *    the venue's own fills (VenueFill) either;
 *  - order mismatches: a venue order missing from the journal, or journaled with another filled quantity;
 *  - position mismatches: per strategy (spot: net of its fills at the venue; contract: the venue's net
 *    position per symbol against the strategies trading it);
 *  - orphans: orders still resting at the venue (after a clean stop with cancel-on-exit there are none).
 *
 * Spot executions are compared trade by trade (myTrades per order); contract ones order by order
 * (dealVol), which is how the contract gateway books them.
 */
import type { ContractClient } from '../../client/contract-client.js';
import type { SpotClient } from '../../client/spot-client.js';
import { ZERO, type Decimal } from '../../core/decimal.js';
import { isContractSymbol, type InstrumentSymbol } from '../../core/ids.js';
import type { ExecutionEvent } from '../../domain/execution-event.js';
import type { Fill } from '../../domain/fill.js';
import type { Order } from '../../domain/order.js';
import { decodeClientId } from '../../domain/client-id-codec.js';
import { spotFillId } from '../../execution/gateways/spot-order-mapping.js';
import type { RunInfo } from '../../persistence/run-journal.js';

export interface AuditJournal {
  events(): ExecutionEvent[];
  orders(): Order[];
  /** The bot's runs: an unjournaled venue execution is placed among them (while a run traded, or between). */
  runs?(): RunInfo[];
}

export interface AuditInput {
  readonly journal: AuditJournal;
  readonly spot?: Pick<SpotClient, 'allOrders' | 'myTrades' | 'openOrders'>;
  readonly contract?: Pick<ContractClient, 'historyOrders' | 'openOrders' | 'openPositions'>;
  readonly symbols: readonly InstrumentSymbol[];
  /** Client-id tag → strategy id (the run config's strategies). */
  readonly strategyByTag: ReadonlyMap<string, string>;
  /** Contract history read back this far (ms on the venue's clock). */
  readonly since?: number;
}

export interface AuditTable {
  readonly venueOrders: number;
  /** Venue orders of this account per symbol (what was traded at all). */
  readonly venueOrdersBySymbol: Readonly<Record<string, number>>;
  readonly journalFills: number;
  readonly duplicates: number;
  readonly lostFills: number;
  readonly phantomFills: number;
  readonly unattributedFills: number;
  readonly orderMismatches: number;
  readonly positionMismatches: number;
  readonly orphanOrders: number;
  /** One line per problem found (empty: the books agree). */
  readonly problems: readonly string[];
}

const CONTRACT_PAGE = 100;

/** Compares the journal with the venue; reads only. */
export async function auditJournalAgainstVenue(input: AuditInput): Promise<AuditTable> {
  const events = input.journal.events();
  const fills = journalFills(events);
  // Executions the venue made on its own (TP/SL, liquidation, close-all), journaled for the position's owner.
  const venueSide = events.filter((e): e is Extract<ExecutionEvent, { type: 'VenueFill' }> => e.type === 'VenueFill').map((e) => e.fill);
  const venueSideIds = new Set(venueSide.map((f) => f.tradeId as string));
  const journalOrders = new Map(input.journal.orders().map((o) => [o.clientOrderId as string, o]));
  const t = {
    venueOrders: 0,
    duplicates: 0,
    lostFills: 0,
    phantomFills: 0,
    unattributedFills: 0,
    orderMismatches: 0,
    positionMismatches: 0,
    orphanOrders: 0,
  };
  const problems: string[] = [];
  const bySymbol: Record<string, number> = {};
  const problem = (key: keyof typeof t, line: string, n = 1): void => {
    t[key] += n;
    problems.push(line);
  };
  const ids = fills.map((f) => f.tradeId as string);
  const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
  for (const id of twice) problem('phantomFills', `journal counts trade ${id} twice`);
  const strategyOf = (cid: string | undefined): string | undefined => {
    const d = cid ? decodeClientId(cid) : undefined;
    return d ? input.strategyByTag.get(d.tag) : undefined;
  };
  // What the journal believed of an order still resting: the first clue to why it was not cancelled.
  const believed = (cid: string | undefined): string => {
    const mine = cid ? journalOrders.get(cid) : undefined;
    return mine ? ` (journal: ${mine.status})` : ' (not in the journal)';
  };
  const journalQty = (cid: string): Decimal => fills.filter((f) => f.clientOrderId === cid).reduce((s, f) => s.plus(f.quantity), ZERO);
  /** Net signed quantity per strategy and symbol, from the journal's fills. */
  const journalNet = new Map<string, Decimal>();
  for (const f of [...fills, ...venueSide]) {
    const key = `${f.strategyId ?? strategyOf(f.clientOrderId) ?? '?'}|${f.symbol}`;
    journalNet.set(key, (journalNet.get(key) ?? ZERO).plus(f.side === 'buy' ? f.quantity : f.quantity.neg()));
  }
  // A position set to the venue's with no fill to explain it: the bot stayed truthful, but a fill went unseen.
  for (const e of events) {
    if (e.type !== 'PositionAdjusted') continue;
    const key = `${e.strategyId ?? '?'}|${e.symbol}`;
    journalNet.set(key, (journalNet.get(key) ?? ZERO).plus(e.toQuantity.minus(e.fromQuantity)));
    problem(
      'unattributedFills',
      `${e.symbol} position of ${e.strategyId ?? '?'} adjusted ${e.fromQuantity.toFixed()} → ${e.toQuantity.toFixed()} without a fill`,
    );
  }

  for (const symbol of input.symbols) {
    if (!isContractSymbol(symbol)) {
      if (!input.spot) continue;
      const orders = await input.spot.allOrders({ symbol, limit: 1000 });
      t.venueOrders += orders.length;
      bySymbol[symbol] = orders.length;
      countDuplicates(
        orders.map((o) => o.clientOrderId),
        problem,
      );
      const venueNet = new Map<string, Decimal>();
      for (const o of orders) {
        const cid = o.clientOrderId ?? '';
        const mine = journalOrders.get(cid);
        if (o.executedQty.gt(0)) {
          const trades = await input.spot.myTrades({ symbol, orderId: o.orderId, limit: 100 });
          const sid = strategyOf(cid);
          if (!mine || !sid) {
            // Not the bot's order (by hand, another program): each trade must be journaled as a VenueFill of the account.
            const unbooked = trades.filter((tr) => !venueSideIds.has(spotFillId(tr)));
            if (unbooked.length > 0 || trades.length === 0) {
              problem(
                'unattributedFills',
                `${symbol} venue order ${o.orderId} (${cid || 'no client id'}) executed ${o.executedQty.toFixed()} and is not in the journal`,
                unbooked.length || 1,
              );
            }
          } else venueNet.set(sid, (venueNet.get(sid) ?? ZERO).plus(o.side === 'BUY' ? o.executedQty : o.executedQty.neg()));
          const journaled = new Set(fills.filter((f) => f.clientOrderId === cid && !f.synthetic).map((f) => f.tradeId as string));
          const synthetic = fills.some((f) => f.clientOrderId === cid && f.synthetic);
          for (const tr of trades)
            if (mine && !journaled.has(spotFillId(tr)) && !synthetic)
              problem('lostFills', `${symbol} venue trade ${spotFillId(tr)} of ${cid} is missing from the journal`);
          // a self-trade's maker side is journaled as `<id>-m` (spotFillId), both sides being ours
          const venueIds = new Set(trades.map(spotFillId));
          for (const id of journaled)
            if (!venueIds.has(id)) problem('phantomFills', `${symbol} journal fill ${id} of ${cid} is no venue trade`);
        }
        if (!mine) {
          if (strategyOf(cid)) problem('orderMismatches', `${symbol} venue order ${cid} is missing from the journal`);
          continue;
        }
        const q = journalQty(cid);
        if (!q.eq(o.executedQty))
          problem('orderMismatches', `${symbol} ${cid}: journal filled ${q.toFixed()}, venue executed ${o.executedQty.toFixed()}`);
      }
      for (const [sid, net] of venueNet) comparePosition(`${sid} ${symbol}`, journalNet.get(`${sid}|${symbol}`) ?? ZERO, net, problem);
      for (const [key, net] of journalNet) {
        const [sid, sym] = key.split('|') as [string, string];
        // '?': trades outside the bot, booked on the account (no strategy's inventory to compare).
        if (sym === symbol && sid !== '?' && !venueNet.has(sid) && !net.isZero()) comparePosition(`${sid} ${symbol}`, net, ZERO, problem);
      }
      const open = await input.spot.openOrders({ symbol });
      for (const o of open)
        problem('orphanOrders', `${symbol} order ${o.clientOrderId ?? o.orderId} still rests at the venue${believed(o.clientOrderId)}`);
      continue;
    }
    if (!input.contract) continue;
    const byId = new Map<string, Awaited<ReturnType<ContractClient['historyOrders']>>[number]>();
    for (let page = 1; ; page++) {
      const list = await input.contract.historyOrders({
        symbol,
        page_num: page,
        page_size: CONTRACT_PAGE,
        ...(input.since !== undefined ? { start_time: input.since } : {}),
      });
      for (const o of list) byId.set(String(o.orderId), o);
      if (list.length < CONTRACT_PAGE) break;
    }
    const open = (await input.contract.openOrders({ page_num: 1, page_size: CONTRACT_PAGE })).filter((o) => o.symbol === symbol);
    for (const o of open) byId.set(String(o.orderId), o);
    const orders = [...byId.values()];
    t.venueOrders += orders.length;
    bySymbol[symbol] = orders.length;
    countDuplicates(
      orders.map((o) => o.externalOid),
      problem,
    );
    for (const o of orders) {
      const cid = o.externalOid ?? '';
      const mine = journalOrders.get(cid);
      const dealt = o.dealVol ?? ZERO;
      if (dealt.gt(0) && !mine) {
        const booked = venueSide.filter((f) => String(f.venueOrderId) === String(o.orderId)).reduce((sum, f) => sum.plus(f.quantity), ZERO);
        if (booked.isZero()) {
          const at = o.updateTime ?? o.createTime;
          const when = at !== undefined && input.journal.runs ? `; it ${whenAmongRuns(at, input.journal.runs())}` : '';
          problem(
            'unattributedFills',
            `${symbol} venue order ${o.orderId} (${cid || 'no client id'}) dealt ${dealt.toFixed()} and is not in the journal${when}`,
          );
        } else if (!booked.eq(dealt))
          problem(
            booked.lt(dealt) ? 'lostFills' : 'phantomFills',
            `${symbol} venue order ${o.orderId}: journal venue fills ${booked.toFixed()}, venue dealt ${dealt.toFixed()}`,
          );
      }
      if (!mine) {
        if (strategyOf(cid)) problem('orderMismatches', `${symbol} venue order ${cid} is missing from the journal`);
        continue;
      }
      const q = journalQty(cid);
      if (q.lt(dealt)) problem('lostFills', `${symbol} ${cid}: journal filled ${q.toFixed()}, venue dealt ${dealt.toFixed()}`);
      else if (q.gt(dealt)) problem('phantomFills', `${symbol} ${cid}: journal filled ${q.toFixed()}, venue dealt ${dealt.toFixed()}`);
    }
    for (const o of open)
      problem('orphanOrders', `${symbol} order ${o.externalOid ?? o.orderId} still rests at the venue${believed(o.externalOid)}`);
    // The venue nets per symbol (one-way) or per leg (hedged); the strategies trading the symbol together must match it.
    let venueNet = ZERO;
    for (const p of await input.contract.openPositions({ symbol }))
      venueNet = venueNet.plus(p.positionType === 1 ? p.holdVol : p.holdVol.neg());
    let ours = ZERO;
    const who: string[] = [];
    for (const [key, net] of journalNet) {
      const [sid, sym] = key.split('|') as [string, string];
      if (sym !== symbol) continue;
      ours = ours.plus(net);
      who.push(`${sid} ${net.toFixed()}`);
    }
    comparePosition(`${symbol} (${who.join(', ') || 'no strategy'})`, ours, venueNet, problem);
  }
  return { ...t, venueOrdersBySymbol: bySymbol, journalFills: fills.length, problems };
}

function countDuplicates(cids: readonly (string | undefined)[], problem: (key: 'duplicates', line: string) => void): void {
  const seen = new Map<string, number>();
  for (const c of cids) if (c) seen.set(c, (seen.get(c) ?? 0) + 1);
  for (const [cid, n] of seen) if (n > 1) problem('duplicates', `client id ${cid} placed ${n} times`);
}

function comparePosition(what: string, journal: Decimal, venue: Decimal, problem: (key: 'positionMismatches', line: string) => void): void {
  if (!journal.eq(venue)) problem('positionMismatches', `position ${what}: journal ${journal.toFixed()}, venue ${venue.toFixed()}`);
}

/** The fills of a journal's fill events, in order. */
export function journalFills(events: readonly ExecutionEvent[]): Fill[] {
  return events
    .filter(
      (e): e is Extract<ExecutionEvent, { type: 'OrderFilled' | 'OrderPartiallyFilled' }> =>
        e.type === 'OrderFilled' || e.type === 'OrderPartiallyFilled',
    )
    .map((e) => e.fill);
}

/** Sums audit tables (several runs of a soak). */
export function addTables(a: AuditTable, b: AuditTable): AuditTable {
  return {
    venueOrders: a.venueOrders + b.venueOrders,
    venueOrdersBySymbol: Object.fromEntries(
      [...new Set([...Object.keys(a.venueOrdersBySymbol), ...Object.keys(b.venueOrdersBySymbol)])].map((k) => [
        k,
        (a.venueOrdersBySymbol[k] ?? 0) + (b.venueOrdersBySymbol[k] ?? 0),
      ]),
    ),
    journalFills: a.journalFills + b.journalFills,
    duplicates: a.duplicates + b.duplicates,
    lostFills: a.lostFills + b.lostFills,
    phantomFills: a.phantomFills + b.phantomFills,
    unattributedFills: a.unattributedFills + b.unattributedFills,
    orderMismatches: a.orderMismatches + b.orderMismatches,
    positionMismatches: a.positionMismatches + b.positionMismatches,
    orphanOrders: a.orphanOrders + b.orphanOrders,
    problems: [...a.problems, ...b.problems],
  };
}

/**
 * Where a venue time falls among the bot's runs, for a problem line: "traded at … during run #2",
 * "… 0.8 s after run #4 ended", "… while no run was up (between run #2 and #3)". Which it is tells a
 * fill the bot missed while it looked from one the venue made after its last look.
 */
export function whenAmongRuns(time: number, runs: readonly RunInfo[]): string {
  const iso = new Date(time).toISOString();
  const sorted = [...runs].sort((a, b) => a.startedAt - b.startedAt);
  // A killed run has no end on record: it lasted at most until the next run started.
  const during = sorted.find((r, i) => time >= r.startedAt && time <= (r.endedAt ?? sorted[i + 1]?.startedAt ?? Infinity));
  const last = sorted.at(-1);
  if (during && during.endedAt !== undefined) return `traded at ${iso} during run #${during.id}`;
  if (during) {
    // A killed run leaves no end: the time is after its start, and before the next run's if there is one.
    const next = sorted.find((r) => r.startedAt > time);
    return `traded at ${iso}, ${((time - during.startedAt) / 1000).toFixed(1)} s after run #${during.id} started (killed: no end on record)${next ? `, before run #${next.id}` : ''}`;
  }
  if (!last || time < sorted[0]!.startedAt) return `traded at ${iso}, before the first run`;
  if (last.endedAt !== undefined && time > last.endedAt)
    return `traded at ${iso}, ${((time - last.endedAt) / 1000).toFixed(1)} s after the last run (#${last.id}) ended`;
  const before = sorted.filter((r) => r.startedAt <= time).at(-1)!;
  const next = sorted.find((r) => r.startedAt > time);
  return `traded at ${iso}, while no run was up (after run #${before.id}${next ? `, before run #${next.id}` : ''})`;
}
