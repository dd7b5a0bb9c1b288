/**
 * The SQLite journal: orders, fills, positions and runs (with the config hash). It is the write-ahead
 * log of the order manager (a client id is recorded BEFORE its request is sent), so after a crash
 * `perpetua run` restores every live order and every counted trade id from here, reconciles with the
 * exchange, and neither duplicates an order nor loses or double-counts a fill.
 *
 * better-sqlite3 because it is synchronous (a call that returned is on disk; no callback ordering to
 * reason about in the hot path) and the most used SQLite binding for Node. WAL with synchronous=FULL:
 * a killed process loses nothing that was acknowledged.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AlgoUpdated, ExecutionEvent, VenueFill } from '../domain/execution-event.js';
import { eventClientOrderId } from '../domain/execution-event.js';
import type { Fill } from '../domain/fill.js';
import type { Intent } from '../domain/intent.js';
import { isTerminal, type Order } from '../domain/order.js';
import type { Position } from '../domain/position.js';
import { type JournalSnapshot, workingAlgoParents } from '../execution/order-journal.js';
import type { ControlEntry, RunInfo, RunJournal } from './run-journal.js';
import { decodeJson, encodeJson } from './decimal-json.js';
import { migrate } from './migrations.js';

export interface SqliteJournalOptions {
  /** File path, or ':memory:'. */
  readonly path: string;
  /** How many closed orders restore() returns (for dedupe of late events), newest first. */
  readonly recentClosedOrders?: number;
}

type Row = Record<string, unknown>;

export class SqliteJournal implements RunJournal {
  private readonly db: Database.Database;
  private runId: number | undefined;
  private readonly recentClosed: number;
  private readonly stmts: {
    insertIntent: Database.Statement;
    upsertOrder: Database.Statement;
    insertEvent: Database.Statement;
    insertFill: Database.Statement;
    upsertPosition: Database.Statement;
  };

  constructor(opts: SqliteJournalOptions) {
    if (opts.path !== ':memory:') mkdirSync(dirname(opts.path), { recursive: true });
    this.db = new Database(opts.path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('foreign_keys = ON');
    migrate(this.db);
    this.recentClosed = opts.recentClosedOrders ?? 1000;
    this.stmts = {
      insertIntent: this.db.prepare('INSERT INTO intents (run_id, ts, kind, strategy_id, json) VALUES (?, ?, ?, ?, ?)'),
      upsertOrder: this.db.prepare(
        `INSERT INTO orders (client_order_id, run_id, symbol, strategy_id, status, venue_order_id, created_at, updated_at, terminal, json)
         VALUES (@cid, @run, @symbol, @strategy, @status, @vid, @created, @updated, @terminal, @json)
         ON CONFLICT(client_order_id) DO UPDATE SET status = excluded.status, venue_order_id = excluded.venue_order_id,
           updated_at = excluded.updated_at, terminal = excluded.terminal, json = excluded.json`,
      ),
      insertEvent: this.db.prepare('INSERT INTO events (run_id, ts, type, client_order_id, json) VALUES (?, ?, ?, ?, ?)'),
      insertFill: this.db.prepare(
        'INSERT OR IGNORE INTO fills (trade_id, run_id, client_order_id, symbol, time, json) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      upsertPosition: this.db.prepare(
        `INSERT INTO positions (symbol, leg, run_id, updated_at, json) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(symbol, leg) DO UPDATE SET run_id = excluded.run_id, updated_at = excluded.updated_at, json = excluded.json`,
      ),
    };
  }

  /** Opens a run; the config hash lets a restart tell whether the strategy's configuration changed. */
  startRun(configHash: string, mode: string, startedAt: number): RunInfo {
    const info = this.db.prepare('INSERT INTO runs (started_at, config_hash, mode) VALUES (?, ?, ?)').run(startedAt, configHash, mode);
    this.runId = Number(info.lastInsertRowid);
    return { id: this.runId, startedAt, configHash, mode };
  }

  endRun(endedAt: number, exitReason: string): void {
    if (this.runId === undefined) return;
    this.db.prepare('UPDATE runs SET ended_at = ?, exit_reason = ? WHERE id = ?').run(endedAt, exitReason, this.runId);
  }

  runs(): RunInfo[] {
    return (this.db.prepare('SELECT * FROM runs ORDER BY id').all() as Row[]).map((r) => ({
      id: Number(r.id),
      startedAt: Number(r.started_at),
      configHash: String(r.config_hash),
      mode: String(r.mode),
      ...(r.ended_at == null ? {} : { endedAt: Number(r.ended_at) }),
      ...(r.exit_reason == null ? {} : { exitReason: String(r.exit_reason) }),
    }));
  }

  /** The previous run that did not end cleanly (no endedAt), if the latest one is such. */
  lastUncleanRun(): RunInfo | undefined {
    const all = this.runs().filter((r) => r.id !== this.runId);
    const last = all[all.length - 1];
    return last && last.endedAt === undefined ? last : undefined;
  }

  recordIntent(intent: Intent, ts: number): void {
    this.stmts.insertIntent.run(
      this.runId ?? null,
      ts,
      intent.kind,
      (intent as { strategyId?: string }).strategyId ?? null,
      encodeJson(intent),
    );
  }

  /** An operator's control action (console pause, resume, cancel, flatten), kept beside the intents it led to. */
  recordControl(entry: ControlEntry): void {
    this.stmts.insertIntent.run(this.runId ?? null, entry.ts, `control:${entry.action}`, entry.strategyId, encodeJson(entry));
  }

  recordOrder(order: Order): void {
    this.stmts.upsertOrder.run({
      cid: order.clientOrderId,
      run: this.runId ?? null,
      symbol: order.symbol,
      strategy: order.strategyId,
      status: order.status,
      vid: order.venueOrderId ?? null,
      created: order.createdAt,
      updated: order.updatedAt,
      terminal: isTerminal(order.status) ? 1 : 0,
      json: encodeJson(order),
    });
  }

  /** Events are appended; a fill event also lands in `fills`, keyed by trade id so it counts once. */
  recordEvent(event: ExecutionEvent): void {
    const tx = this.db.transaction(() => {
      this.stmts.insertEvent.run(this.runId ?? null, event.ts, event.type, eventClientOrderId(event) ?? null, encodeJson(event));
      if (event.type === 'OrderFilled' || event.type === 'OrderPartiallyFilled') {
        const f = event.fill;
        this.stmts.insertFill.run(f.tradeId, this.runId ?? null, f.clientOrderId ?? event.clientOrderId, f.symbol, f.time, encodeJson(f));
      } else if (event.type === 'VenueFill') {
        const f = event.fill;
        this.stmts.insertFill.run(f.tradeId, this.runId ?? null, f.clientOrderId ?? null, f.symbol, f.time, encodeJson(f));
      }
    });
    tx();
  }

  recordPosition(position: Position): void {
    this.stmts.upsertPosition.run(position.symbol, position.leg, this.runId ?? null, position.updatedAt, encodeJson(position));
  }

  restore(): JournalSnapshot {
    const open = (this.db.prepare('SELECT json FROM orders WHERE terminal = 0 ORDER BY created_at, client_order_id').all() as Row[]).map(
      (r) => decodeJson<Order>(String(r.json)),
    );
    const closed = (
      this.db
        .prepare('SELECT json FROM orders WHERE terminal = 1 ORDER BY updated_at DESC, client_order_id LIMIT ?')
        .all(this.recentClosed) as Row[]
    ).map((r) => decodeJson<Order>(String(r.json)));
    const seen = (this.db.prepare('SELECT trade_id FROM fills ORDER BY time, trade_id').all() as Row[]).map((r) => String(r.trade_id));
    const last = this.db.prepare('SELECT MAX(time) AS t FROM fills').get() as Row;
    const bySymbol = this.db.prepare('SELECT symbol, MAX(time) AS t FROM fills GROUP BY symbol').all() as Row[];
    const venueFills = (this.db.prepare("SELECT json FROM events WHERE type = 'VenueFill' ORDER BY id").all() as Row[]).map(
      (r) => decodeJson<VenueFill>(String(r.json)).fill,
    );
    const algoParents = workingAlgoParents(
      (this.db.prepare("SELECT json FROM events WHERE type = 'AlgoUpdated' ORDER BY id").all() as Row[]).map((r) =>
        decodeJson<AlgoUpdated>(String(r.json)),
      ),
    );
    return {
      orders: [...open, ...closed.reverse()],
      seenTradeIds: seen,
      ...(algoParents.length > 0 ? { algoParents } : {}),
      ...(last.t == null
        ? {}
        : { lastFillTime: Number(last.t), lastFillTimeBySymbol: Object.fromEntries(bySymbol.map((r) => [String(r.symbol), Number(r.t)])) }),
      ...(venueFills.length > 0 ? { venueFills } : {}),
    };
  }

  positions(): Position[] {
    return (this.db.prepare('SELECT json FROM positions ORDER BY symbol, leg').all() as Row[]).map((r) =>
      decodeJson<Position>(String(r.json)),
    );
  }

  order(clientOrderId: string): Order | undefined {
    const r = this.db.prepare('SELECT json FROM orders WHERE client_order_id = ?').get(clientOrderId) as Row | undefined;
    return r ? decodeJson<Order>(String(r.json)) : undefined;
  }

  orders(): Order[] {
    return (this.db.prepare('SELECT json FROM orders ORDER BY created_at, client_order_id').all() as Row[]).map((r) =>
      decodeJson<Order>(String(r.json)),
    );
  }

  /** Every fill, oldest first (the journal's `perpetua fills` view). */
  fills(): Fill[] {
    return (this.db.prepare('SELECT json FROM fills ORDER BY time, trade_id').all() as Row[]).map((r) => decodeJson<Fill>(String(r.json)));
  }

  fillCount(): number {
    return Number((this.db.prepare('SELECT COUNT(*) AS n FROM fills').get() as Row).n);
  }

  events(): ExecutionEvent[] {
    return (this.db.prepare('SELECT json FROM events ORDER BY id').all() as Row[]).map((r) => decodeJson<ExecutionEvent>(String(r.json)));
  }

  /** The operator's control actions, oldest first. */
  controlActions(): { action: string; strategyId: string; ts: number }[] {
    const rows = this.db.prepare("SELECT json FROM intents WHERE kind LIKE 'control:%' ORDER BY id").all() as Row[];
    return rows.map((r) => decodeJson(String(r.json)));
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
