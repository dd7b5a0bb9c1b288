/**
 * Binance websocket recordings (the hftbacktest collector format) → depth, trade, bookTicker and
 * price records: one message per line, `<local receive time in ns, µs or ms> <JSON>`, where the JSON
 * is a combined-stream message `{"stream":…,"data":{…}}` (or a bare event), or the REST depth
 * snapshot `{"lastUpdateId":…,"bids":…,"asks":…}` (futures also E/T).
 *
 *   depthUpdate      → depth.diff (U, u, pu when sent; absolute quantities), et = E
 *   trade / aggTrade → trade, et = T (trade time); futures trades with X other than MARKET
 *                      (insurance fund, ADL) are dropped unless includeNonMarketTrades
 *   bookTicker       → bookTicker (u), et = E (futures); spot sends no time: see below
 *   markPriceUpdate  → fair (p), index (i), funding (r, nt = T, the next funding time), et = E
 *   REST snapshot    → depth.snapshot (u = lastUpdateId)
 * Files of one recording (btcusdt_20240808.gz then _20240809.gz) must be imported together, in
 * order: the book state and sequence checks carry over.
 *
 * Book sync (Binance's documented procedure): the collector subscribed first and fetched the REST
 * snapshot later, so diffs received BEFORE the snapshot line may already be after it. The first
 * applicable diff is the first, in receive order, with u > lastUpdateId (spot) / u ≥ lastUpdateId
 * (futures, where diffs carry pu). The snapshot record is written immediately before that diff,
 * and its times are capped at the diff's, so a replay in receive, exchange-time or local-time order
 * applies snapshot then diffs without a break. Records wait `windowMs` (local time) in a queue so a
 * late snapshot can still be moved before diffs received up to that long before it.
 * After the sync, every diff must chain (futures pu = previous u, spot U = previous u + 1); breaks
 * are reported as gaps (file, line, expected, got), never silently repaired. Whether the first
 * diff brackets the snapshot (spot U ≤ id+1 ≤ u, futures U ≤ id ≤ u) is reported per sync.
 *
 * Spot bookTicker and the spot REST snapshot carry no exchange time. Their et is the local time
 * corrected by the current exchange−local offset, measured (E − local) on the latest message of the
 * instrument that carries E (the 2024 recordings run 1.2–1.3 s behind the exchange).
 */
import { ValidationError } from '../../core/errors.js';
import type { DataRecord, RecordLevel, RecordMarket } from '../record/record.js';
import { checkRecord } from '../store/record-check.js';
import { handleBadRow, type BadRowPolicy, type DepthGap, type DepthSync, type FileStats, type ImportStats } from './import-stats.js';
import { readLines } from './line-reader.js';
import { mapSymbol, symbolFromFileName, type SymbolStyle } from './symbol-map.js';
import { fieldError, parseLocalStamp } from './text-fields.js';

export interface L2ImportOptions {
  readonly market: RecordMarket;
  /** Verbatim instrument for every record. Default: the message's `s`, mapped by symbolStyle. */
  readonly symbol?: string;
  readonly symbolStyle?: SymbolStyle;
  readonly includeNonMarketTrades?: boolean;
  /** Local-time window a record waits in, so a late snapshot can move before it. Default 10 000. */
  readonly windowMs?: number;
  readonly onBadRow?: BadRowPolicy;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Rec = Mutable<DataRecord>;

interface Entry {
  rec: Rec;
  readonly file: string;
  readonly line: number;
  /** Local time when it arrived: decides when it leaves the queue. */
  readonly arrival: number;
  readonly inst: string;
  needsEt: boolean;
  emitted: boolean;
  /** Snapshots: how many queued records it was moved in front of. */
  movedBefore: number;
}

interface SyncState {
  readonly file: string;
  readonly snapshotLine: number;
  readonly lastUpdateId: number;
  diff?: { readonly file: string; readonly line: number; readonly U: number; readonly u: number };
  bracketed?: boolean;
  movedBefore: number;
}

interface InstState {
  /** E − local, ms, of the latest message carrying E. */
  skew: number | undefined;
  readonly unresolved: Entry[];
  /** A snapshot written at its own position whose first applicable diff has not arrived yet. */
  awaitingDiff: Entry | undefined;
  // Sequence checker, run on records in their final order.
  L: number | undefined;
  awaitFirst: boolean;
  lastU: number | undefined;
  sync: SyncState | undefined;
  warnedNoTime: boolean;
}

type Json = Record<string, unknown>;

const MAX_GAPS_LISTED = 100;

function num(v: unknown, file: string, line: number, field: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw fieldError(file, line, field, 'an integer', v);
  return v;
}

function str(v: unknown, file: string, line: number, field: string): string {
  if (typeof v !== 'string') throw fieldError(file, line, field, 'a string', v);
  return v;
}

function levels(v: unknown, file: string, line: number, field: string): RecordLevel[] {
  if (!Array.isArray(v)) throw fieldError(file, line, field, 'an array of [price, qty]', v);
  return v as RecordLevel[];
}

export class BinanceL2Importer {
  private readonly queue: Entry[] = [];
  private qh = 0;
  private readonly insts = new Map<string, InstState>();
  private readonly windowMs: number;
  private readonly policy: BadRowPolicy;
  private latestArrival = -Infinity;
  /** Source spelling → record spelling. */
  private readonly symbols = new Map<string, string>();

  constructor(
    private readonly opts: L2ImportOptions,
    private readonly stats: ImportStats,
  ) {
    this.windowMs = opts.windowMs ?? 10_000;
    this.policy = opts.onBadRow ?? 'fail';
  }

  /** Records of one file that are final (more may follow from the queue with the next file or finish()). */
  async *importFile(file: string, onBytes?: (n: number) => void): AsyncGenerator<DataRecord> {
    const fs = this.stats.file(file);
    const nameSymbol = symbolFromFileName(file);
    let fileSymbol: string | undefined =
      this.opts.symbol ?? (nameSymbol === undefined ? undefined : mapSymbol(nameSymbol, this.opts.market, this.opts.symbolStyle));
    for await (const { text, lineNo } of readLines(file, onBytes)) {
      fs.lines = lineNo;
      if (!text.trim()) continue;
      try {
        const sym = this.parseLine(text, file, lineNo, fileSymbol);
        if (sym !== undefined && this.opts.symbol === undefined) fileSymbol = sym;
      } catch (e) {
        handleBadRow(this.policy, this.stats, fs, e);
      }
      yield* this.drain(this.latestArrival - this.windowMs, fs);
    }
  }

  /** Everything still queued; call after the last file. */
  *finish(): Generator<DataRecord> {
    yield* this.drain(Infinity, undefined);
    for (const [inst, st] of this.insts) {
      if (st.awaitFirst)
        this.stats.warn(`${inst}: the last snapshot (line ${st.sync?.snapshotLine} of ${st.sync?.file}) has no applicable diff after it`);
      if (st.L === undefined && (this.stats.depth[inst]?.diffs ?? 0) > 0)
        this.stats.warn(`${inst}: depth diffs but no snapshot: no book can be rebuilt from them`);
    }
  }

  private state(inst: string): InstState {
    let st = this.insts.get(inst);
    if (!st) {
      st = {
        skew: undefined,
        unresolved: [],
        awaitingDiff: undefined,
        L: undefined,
        awaitFirst: false,
        lastU: undefined,
        sync: undefined,
        warnedNoTime: false,
      };
      this.insts.set(inst, st);
    }
    return st;
  }

  private symbolOf(data: Json, file: string, line: number): string {
    if (this.opts.symbol !== undefined) return this.opts.symbol;
    const source = str(data.s, file, line, 's');
    let mapped = this.symbols.get(source);
    if (mapped === undefined) {
      mapped = mapSymbol(source, this.opts.market, this.opts.symbolStyle);
      this.symbols.set(source, mapped);
    }
    return mapped;
  }

  private setSkew(st: InstState, E: number, lt: number): void {
    st.skew = E - lt;
    if (st.unresolved.length) {
      for (const e of st.unresolved) {
        if (!e.needsEt) continue;
        e.rec.et = e.rec.lt + st.skew;
        e.needsEt = false;
      }
      st.unresolved.length = 0;
    }
  }

  private push(rec: Rec, file: string, line: number, arrival: number, inst: string, needsEt = false): Entry {
    try {
      checkRecord(rec as DataRecord);
    } catch (e) {
      if (e instanceof ValidationError) throw new ValidationError(`${file} line ${line} ${e.field}`, e.expected, e.received);
      throw e;
    }
    const entry: Entry = { rec, file, line, arrival, inst, needsEt, emitted: false, movedBefore: 0 };
    this.queue.push(entry);
    if (needsEt) this.state(inst).unresolved.push(entry);
    return entry;
  }

  /** Returns the symbol of the message (to attribute a later snapshot line), if it had one. */
  private parseLine(text: string, file: string, line: number, fileSymbol: string | undefined): string | undefined {
    const sp = text.indexOf(' ');
    const stamp = sp < 0 ? text : text.slice(0, sp);
    const lt = parseLocalStamp(stamp);
    if (lt === undefined || sp < 0) throw fieldError(file, line, 'local_timestamp', '<local time in ns, µs or ms> <JSON>', stamp);
    let msg: Json;
    try {
      msg = JSON.parse(text.slice(sp + 1)) as Json;
    } catch {
      throw fieldError(file, line, 'json', 'one JSON message after the time stamp', text.slice(sp + 1, sp + 61));
    }
    if (typeof msg !== 'object' || msg === null) throw fieldError(file, line, 'json', 'a JSON object', msg);
    if (lt > this.latestArrival) this.latestArrival = lt;
    const m = this.opts.market;

    if (msg.lastUpdateId !== undefined) {
      const inst = fileSymbol;
      if (inst === undefined)
        throw fieldError(file, line, 'symbol', 'a symbol for the snapshot (pass symbol, or name it in the file name)', undefined);
      this.snapshot(msg, lt, file, line, inst);
      return undefined;
    }
    const stream = typeof msg.stream === 'string' ? msg.stream : '';
    const data = (typeof msg.data === 'object' && msg.data !== null ? msg.data : msg) as Json;
    const e =
      typeof data.e === 'string'
        ? data.e
        : stream.includes('@bookTicker')
          ? 'bookTicker'
          : data.u !== undefined && data.b !== undefined && data.A !== undefined
            ? 'bookTicker'
            : '';
    switch (e) {
      case 'depthUpdate': {
        const inst = this.symbolOf(data, file, line);
        const st = this.state(inst);
        const E = num(data.E, file, line, 'E');
        this.setSkew(st, E, lt);
        const U = num(data.U, file, line, 'U');
        const u = num(data.u, file, line, 'u');
        const b = levels(data.b, file, line, 'b');
        const a = levels(data.a, file, line, 'a');
        // Key order of the record model: pu (futures only) between u and the levels.
        const rec: Mutable<Extract<DataRecord, { s: 'depth.diff' }>> =
          data.pu === undefined
            ? { s: 'depth.diff', m, i: inst, et: E, lt, U, u, b, a }
            : { s: 'depth.diff', m, i: inst, et: E, lt, U, u, pu: num(data.pu, file, line, 'pu'), b, a };
        this.push(rec, file, line, lt, inst);
        const snap = st.awaitingDiff;
        if (snap && (rec.pu !== undefined ? rec.u >= (snap.rec as { u: number }).u : rec.u > (snap.rec as { u: number }).u)) {
          st.awaitingDiff = undefined;
          if (!snap.emitted) this.capSnapshotTimes(snap, rec.et, rec.lt);
        }
        return inst;
      }
      case 'trade':
      case 'aggTrade': {
        const inst = this.symbolOf(data, file, line);
        const st = this.state(inst);
        if (data.E !== undefined) this.setSkew(st, num(data.E, file, line, 'E'), lt);
        if (data.X !== undefined && data.X !== 'MARKET' && !this.opts.includeNonMarketTrades) {
          this.stats.count('nonMarketTrades');
          this.stats.warn(`${file} line ${line}: trade with X = ${String(data.X)} dropped (not a market trade)`);
          return inst;
        }
        const idRaw = e === 'trade' ? data.t : data.a;
        const id = idRaw === undefined ? undefined : String(num(idRaw, file, line, e === 'trade' ? 't' : 'a'));
        if (typeof data.m !== 'boolean') throw fieldError(file, line, 'm', 'a boolean (buyer is maker)', data.m);
        const T = num(data.T, file, line, 'T');
        const p = str(data.p, file, line, 'p');
        const q = str(data.q, file, line, 'q');
        const ts = data.m ? 'sell' : 'buy';
        this.push(
          id === undefined ? { s: 'trade', m, i: inst, et: T, lt, p, q, ts } : { s: 'trade', m, i: inst, et: T, lt, id, p, q, ts },
          file,
          line,
          lt,
          inst,
        );
        return inst;
      }
      case 'bookTicker': {
        const inst = this.symbolOf(data, file, line);
        const st = this.state(inst);
        let et: number;
        let needsEt = false;
        if (data.E !== undefined) {
          et = num(data.E, file, line, 'E');
          this.setSkew(st, et, lt);
        } else if (st.skew !== undefined) et = lt + st.skew;
        else {
          et = lt;
          needsEt = true;
        }
        const rec = {
          s: 'bookTicker' as const,
          m,
          i: inst,
          et,
          lt,
          u: num(data.u, file, line, 'u'),
          bp: str(data.b, file, line, 'b'),
          bq: str(data.B, file, line, 'B'),
          ap: str(data.a, file, line, 'a'),
          aq: str(data.A, file, line, 'A'),
        };
        this.push(rec, file, line, lt, inst, needsEt);
        return inst;
      }
      case 'markPriceUpdate': {
        const inst = this.symbolOf(data, file, line);
        const st = this.state(inst);
        const E = num(data.E, file, line, 'E');
        this.setSkew(st, E, lt);
        this.push({ s: 'fair', m, i: inst, et: E, lt, p: str(data.p, file, line, 'p') }, file, line, lt, inst);
        if (typeof data.i === 'string' && data.i !== '') this.push({ s: 'index', m, i: inst, et: E, lt, p: data.i }, file, line, lt, inst);
        if (typeof data.r === 'string' && data.r !== '') {
          const rec: Rec =
            data.T === undefined
              ? { s: 'funding', m, i: inst, et: E, lt, r: data.r }
              : { s: 'funding', m, i: inst, et: E, lt, r: data.r, nt: num(data.T, file, line, 'T') };
          this.push(rec, file, line, lt, inst);
        }
        return inst;
      }
      default: {
        const what = e || stream || 'unknown';
        this.stats.count(`ignored:${what}`);
        return typeof data.s === 'string' ? this.symbolOf(data, file, line) : undefined;
      }
    }
  }

  private snapshot(msg: Json, lt: number, file: string, line: number, inst: string): void {
    const st = this.state(inst);
    const L = num(msg.lastUpdateId, file, line, 'lastUpdateId');
    const b = levels(msg.bids, file, line, 'bids');
    const a = levels(msg.asks, file, line, 'asks');
    let et: number;
    let needsEt = false;
    if (msg.E !== undefined) et = num(msg.E, file, line, 'E');
    else if (st.skew !== undefined) et = lt + st.skew;
    else {
      et = lt;
      needsEt = true;
    }
    const rec: Rec = { s: 'depth.snapshot', m: this.opts.market, i: inst, et, lt, u: L, b, a };
    const entry = this.push(rec, file, line, lt, inst, needsEt);
    // push() appended it; look for the first applicable diff still queued, received before it.
    const q = this.queue;
    const at = q.length - 1;
    let target = -1;
    for (let k = this.qh; k < at; k++) {
      const r = q[k]!.rec;
      if (q[k]!.inst === inst && r.s === 'depth.diff' && (r.pu !== undefined ? r.u >= L : r.u > L)) {
        target = k;
        break;
      }
    }
    if (target >= 0) {
      q.splice(at, 1);
      q.splice(target, 0, entry);
      this.stats.count('snapshotsMovedBeforeDiffs');
      const d = q[target + 1]!.rec;
      this.capSnapshotTimes(entry, d.et, d.lt);
      entry.movedBefore = at - target;
      st.awaitingDiff = undefined;
    } else {
      st.awaitingDiff = entry;
    }
  }

  private capSnapshotTimes(snap: Entry, et: number, lt: number): void {
    if (snap.needsEt || snap.rec.et > et) {
      snap.rec.et = et;
      snap.needsEt = false;
    }
    if (snap.rec.lt > lt) snap.rec.lt = lt;
  }

  private *drain(before: number, fs: FileStats | undefined): Generator<DataRecord> {
    const q = this.queue;
    while (this.qh < q.length && q[this.qh]!.arrival < before) {
      const entry = q[this.qh++]!;
      entry.emitted = true;
      const st = this.state(entry.inst);
      if (entry.needsEt) {
        entry.needsEt = false;
        if (!st.warnedNoTime) {
          st.warnedNoTime = true;
          this.stats.warn(
            `${entry.inst}: no message with an exchange time near line ${entry.line} of ${entry.file}; bookTicker/snapshot et = local time`,
          );
        }
      }
      this.check(entry, st);
      const rec = entry.rec as DataRecord;
      this.stats.record(rec);
      const owner = fs?.file === entry.file ? fs : this.stats.files.find((f) => f.file === entry.file);
      if (owner) owner.records++;
      yield rec;
    }
    if (this.qh > 4096 && this.qh * 2 > q.length) {
      q.splice(0, this.qh);
      this.qh = 0;
    }
  }

  /** Binance's sequence rules, applied to records in their final order. */
  private check(entry: Entry, st: InstState): void {
    const r = entry.rec;
    if (r.s === 'depth.snapshot') {
      const d = this.stats.depthOf(entry.inst);
      d.snapshots++;
      st.L = r.u;
      st.awaitFirst = true;
      st.lastU = undefined;
      st.sync = { file: entry.file, snapshotLine: entry.line, lastUpdateId: r.u, movedBefore: entry.movedBefore };
      d.syncs.push(st.sync as DepthSync);
      return;
    }
    if (r.s !== 'depth.diff') return;
    const d = this.stats.depthOf(entry.inst);
    d.diffs++;
    if (st.L === undefined) {
      d.unsynced++;
      return;
    }
    const futures = r.pu !== undefined;
    if (st.awaitFirst) {
      if (futures ? r.u < st.L : r.u <= st.L) {
        d.stale++;
        return;
      }
      const bracketed = futures ? r.U <= st.L : r.U <= st.L + 1;
      st.sync!.diff = { file: entry.file, line: entry.line, U: r.U, u: r.u };
      st.sync!.bracketed = bracketed;
      if (!bracketed)
        this.stats.warn(
          `${entry.inst}: first diff after the snapshot (${entry.file} line ${entry.line}, U ${r.U}) starts ${r.U - st.L - (futures ? 0 : 1)} update ids after it (lastUpdateId ${st.L})`,
        );
      st.awaitFirst = false;
      st.lastU = r.u;
      d.applied++;
      return;
    }
    const expected = futures ? st.lastU! : st.lastU! + 1;
    const got = futures ? r.pu! : r.U;
    if (got !== expected) {
      d.gapCount++;
      const gap: DepthGap = { file: entry.file, line: entry.line, expected, got };
      if (d.gaps.length < MAX_GAPS_LISTED) d.gaps.push(gap);
      this.stats.warn(
        `${entry.inst}: depth sequence gap at ${entry.file} line ${entry.line}: expected ${futures ? 'pu' : 'U'} ${expected}, got ${got}`,
      );
    }
    st.lastU = r.u;
    d.applied++;
  }
}
