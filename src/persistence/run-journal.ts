/**
 * What a run needs from its journal: the order journal the order manager writes, plus the run
 * bookkeeping (start/end, control actions, positions) that restart reconciliation and reports read.
 * SqliteJournal keeps it on disk for live and paper runs; a backtest keeps it in memory
 * (MemoryRunJournal), so the runtime is typed to this interface and never to either class.
 */
import type { ExecutionEvent } from '../domain/execution-event.js';
import type { Order } from '../domain/order.js';
import type { Position } from '../domain/position.js';
import type { Intent } from '../domain/intent.js';
import type { JournalSnapshot, OrderJournal } from '../execution/order-journal.js';

export interface RunInfo {
  readonly id: number;
  readonly startedAt: number;
  readonly configHash: string;
  readonly mode: string;
  readonly endedAt?: number;
  readonly exitReason?: string;
}

export interface ControlEntry {
  readonly action: string;
  readonly strategyId: string;
  readonly ts: number;
}

/** A run journal writes synchronously: an event is on disk before the next snapshot is handled. */
export interface RunJournal extends OrderJournal {
  recordIntent(intent: Intent, ts: number): void;
  recordOrder(order: Order): void;
  recordEvent(event: ExecutionEvent): void;
  restore(): JournalSnapshot;
  startRun(configHash: string, mode: string, startedAt: number): RunInfo;
  endRun(endedAt: number, exitReason: string): void;
  runs(): RunInfo[];
  lastUncleanRun(): RunInfo | undefined;
  recordControl(entry: ControlEntry): void;
  controlActions(): ControlEntry[];
  recordPosition(position: Position): void;
  positions(): Position[];
  order(clientOrderId: string): Order | undefined;
  orders(): Order[];
  fillCount(): number;
  events(): ExecutionEvent[];
  close(): void;
}
