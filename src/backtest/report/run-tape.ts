/**
 * The run tape: a backtest's full record streamed to disk as it happens, so memory does not grow with
 * the run and report.json keeps summaries and a downsampled series. One folder per fill model
 * (`<report>/tape/<model>/`) with four CSV files, written append-only:
 *
 * - `equity.csv`  time,equity,cash,position:<SYM>…,mark:<SYM>… — every sample (`samplePeriodMs`)
 * - `orders.csv`  one row per order in creation order, in its final state (RunOrderJson's columns)
 * - `fills.csv`   one row per fill in time order (RunFillJson's columns)
 * - `funding.csv` one row per funding payment (RunFundingJson's columns)
 *
 * Why CSV: every tool a quant uses (pandas, polars, DuckDB, a spreadsheet) reads it without a
 * library, rows can be appended while the run goes on, and money stays exact (Decimals as plain
 * strings, never floats). Columns are fixed per file (one typed column each), empty = null. Times
 * are epoch milliseconds UTC. docs/backtest-tape.md says the same for users.
 */
import { createHash, type Hash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Decimal } from '../../core/decimal.js';
import { lastCall } from '../../core/last-call.js';
import { type RunFill, type RunFunding, type RunOrder, type RunSample, fillToJson, fundingToJson, orderToJson } from './backtest-run.js';

export const TAPE_DIR = 'tape';
const FLUSH_BYTES = 1 << 16;

/** RFC 4180 field: quoted only when it has a comma, quote or line break. */
const field = (v: string | number | boolean | null): string => {
  if (v === null) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** An append-only CSV file with a fixed header, written in 64 KiB pieces. */
class CsvFile {
  private readonly fd: number;
  private buf = '';
  rows = 0;
  constructor(
    readonly path: string,
    header: readonly string[],
  ) {
    this.fd = openSync(path, 'w');
    this.buf = `${header.map(field).join(',')}\n`;
  }
  row(values: readonly (string | number | boolean | null)[]): void {
    this.line(values.map(field).join(','));
  }
  /** A row already joined, its fields needing no quotes (numbers and plain decimals). */
  line(text: string): void {
    this.buf += `${text}\n`;
    this.rows++;
    if (this.buf.length >= FLUSH_BYTES) this.flush();
  }
  flush(): void {
    if (this.buf.length > 0) writeSync(this.fd, this.buf);
    this.buf = '';
  }
  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

/** A Decimal's plain text, kept while the same (immutable) Decimal comes again (one per tape column). */
const plainText = (): ((d: Decimal) => string) => lastCall((d: Decimal) => d.toFixed());

const rowOf = (o: object): (string | number | boolean | null)[] => Object.values(o) as (string | number | boolean | null)[];

/**
 * Orders finish out of creation order (a resting order outlives many quotes after it). The tape and
 * the order-list hash want creation order, so a finished order waits here until every older one has
 * finished; only that window is in memory, not the run's history.
 */
class CreationOrderQueue {
  private readonly waiting = new Map<number, RunOrder>();
  private next = 0;
  constructor(private readonly emit: (o: RunOrder) => void) {}
  finish(index: number, o: RunOrder): void {
    this.waiting.set(index, o);
    for (let w = this.waiting.get(this.next); w !== undefined; w = this.waiting.get(this.next)) {
      this.waiting.delete(this.next++);
      this.emit(w);
    }
  }
}

export interface RunTapeSummary {
  readonly dir: string;
  readonly samples: number;
  readonly orders: number;
  readonly fills: number;
  readonly funding: number;
  /** sha256 of the order list as report.json's `ordersHash` defines it (JSON array of RunOrderJson, creation order). */
  readonly ordersHash: string;
}

export class RunTape {
  private readonly equity: CsvFile;
  private readonly orders: CsvFile;
  private readonly queue: CreationOrderQueue;
  private readonly hash: Hash = createHash('sha256');
  /** The first orders in creation order, for the page's table. */
  readonly firstOrders: RunOrder[] = [];

  constructor(
    readonly dir: string,
    private readonly symbols: readonly string[],
    private readonly keepOrders: number,
  ) {
    mkdirSync(dir, { recursive: true });
    this.positionText = symbols.map(plainText);
    this.markText = symbols.map(plainText);
    this.equity = new CsvFile(join(dir, 'equity.csv'), [
      'time',
      'equity',
      'cash',
      ...symbols.map((s) => `position:${s}`),
      ...symbols.map((s) => `mark:${s}`),
    ]);
    this.orders = new CsvFile(join(dir, 'orders.csv'), ORDER_COLUMNS);
    this.queue = new CreationOrderQueue((o) => {
      const json = orderToJson(o);
      this.hash.update(this.orders.rows === 0 ? '[' : ',');
      this.hash.update(JSON.stringify(json));
      this.orders.row(rowOf(json));
      if (this.firstOrders.length < this.keepOrders) this.firstOrders.push(o);
    });
  }

  /**
   * One equity row. Its fields are a time and plain decimals (no comma, quote or line break: nothing to
   * quote), joined directly; a value that is the same Decimal as in the last row (the cash and the
   * positions between fills, a mark the market did not move) reuses its text. Returns the equity's
   * text: the runner's full-resolution equity column reads its number from it (Number of the plain text
   * is the double toNumber gives, the same decimal digits correctly rounded, but for -0), not from a
   * second conversion of the Decimal to text.
   */
  sample(s: RunSample): string {
    const equity = s.equity.toFixed();
    let text = `${s.time},${equity},${this.cashText(s.cash)}`;
    const symbols = this.symbols;
    for (let i = 0; i < symbols.length; i++) {
      const p = s.positions[symbols[i]!];
      text += `,${p === undefined ? '0' : this.positionText[i]!(p)}`;
    }
    for (let i = 0; i < symbols.length; i++) {
      const m = s.marks[symbols[i]!];
      text += `,${m === undefined ? '' : this.markText[i]!(m)}`;
    }
    this.equity.line(text);
    return equity;
  }

  private readonly cashText = plainText();
  private readonly positionText: ((d: Decimal) => string)[];
  private readonly markText: ((d: Decimal) => string)[];

  /** The order numbered `index` in creation order (0, 1, …) reached its final state. */
  orderDone(index: number, o: RunOrder): void {
    this.queue.finish(index, o);
  }

  /** After the last order: fills and funding (already in memory, in time order) and the totals. */
  close(fills: readonly RunFill[], funding: readonly RunFunding[]): RunTapeSummary {
    const f = new CsvFile(join(this.dir, 'fills.csv'), FILL_COLUMNS);
    for (const x of fills) f.row(rowOf(fillToJson(x)));
    f.close();
    const fu = new CsvFile(join(this.dir, 'funding.csv'), FUNDING_COLUMNS);
    for (const x of funding) fu.row(rowOf(fundingToJson(x)));
    fu.close();
    this.equity.close();
    this.orders.close();
    this.hash.update(this.orders.rows === 0 ? '[]' : ']');
    return {
      dir: this.dir,
      samples: this.equity.rows,
      orders: this.orders.rows,
      fills: f.rows,
      funding: fu.rows,
      ordersHash: this.hash.digest('hex'),
    };
  }
}

const ORDER_COLUMNS = [
  'clientOrderId',
  'venueOrderId',
  'symbol',
  'side',
  'type',
  'timeInForce',
  'price',
  'quantity',
  'quoteQuantity',
  'status',
  'filledQty',
  'avgFillPrice',
  'reduceOnly',
  'positionSide',
  'createdAt',
  'submittedAt',
  'acceptedAt',
  'closedAt',
  'updatedAt',
  'rejectReason',
];
const FILL_COLUMNS = [
  'tradeId',
  'time',
  'clientOrderId',
  'venueOrderId',
  'symbol',
  'side',
  'price',
  'quantity',
  'fee',
  'feeAsset',
  'liquidity',
  'positionSide',
  'reduceOnly',
];
const FUNDING_COLUMNS = ['time', 'symbol', 'amount', 'asset', 'rate'];

/**
 * Every k-th sample plus the newest, k doubling whenever more than 2·max are kept: at most 2·max
 * samples at any time, however long the run, without knowing its length in advance.
 */
export class SampleThinner {
  private kept: RunSample[] = [];
  private stride = 1;
  private seen = 0;
  private last: RunSample | undefined;
  constructor(private readonly max: number) {}
  add(s: RunSample): void {
    if (this.seen++ % this.stride === 0) this.kept.push(s);
    this.last = s;
    if (this.kept.length > 2 * this.max) {
      this.kept = this.kept.filter((_, i) => i % 2 === 0);
      this.stride *= 2;
    }
  }
  result(): { samples: RunSample[]; stride: number } {
    const out = this.kept.slice();
    if (this.last !== undefined && out[out.length - 1] !== this.last) out.push(this.last);
    return { samples: out, stride: this.stride };
  }
}
