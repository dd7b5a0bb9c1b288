/**
 * Converts raw Binance websocket / REST recordings — the `<local receive time> <JSON>` lines of the
 * hftbacktest sample files in the shared data set — into market records, so those recordings can be
 * replayed here (and converted once into the record format).
 *
 *  - local time: 19 digits = ns (2024 files), 16 = µs (2023 files), 13 = ms; kept as `lt` in ms;
 *  - the REST snapshot line `{"lastUpdateId",bids,asks}` has no symbol: the caller names the file's
 *    instrument; it becomes depth.snapshot (et = its E when present, else the local time);
 *  - depthUpdate → depth.diff with U, u (and pu on futures), et = T ?? E;
 *  - trade → trade, taker side sell when the buyer was the maker (m), et = T; trades with an
 *    execution type other than MARKET (X, e.g. INSURANCE_FUND) are dropped;
 *  - bookTicker → bookTicker (spot sends no time: et = local time);
 *  - markPriceUpdate → fair (p), index (i) and funding (r, next funding time T);
 *  - anything else → no record.
 */
import { ValidationError } from '../../core/errors.js';
import type { DataRecord, RecordLevel, RecordMarket } from './record.js';

export interface BinanceFeedInstrument {
  readonly market: RecordMarket;
  /** Symbol written into the records (e.g. BTCUSDT, or BTC_USDT to map a perpetual onto ours). */
  readonly symbol: string;
}

type Json = Record<string, unknown>;

export function localTimeMs(digits: string): number {
  if (!/^\d+$/.test(digits)) throw new ValidationError('local time', 'a decimal integer', digits);
  const n = Number(digits);
  if (digits.length >= 18) return Math.floor(n / 1e6);
  if (digits.length >= 15) return Math.floor(n / 1e3);
  return n;
}

export function parseBinanceFeedLine(line: string, inst: BinanceFeedInstrument): DataRecord[] {
  const sp = line.indexOf(' ');
  if (sp <= 0) return [];
  const lt = localTimeMs(line.slice(0, sp));
  let msg: Json;
  try {
    msg = JSON.parse(line.slice(sp + 1)) as Json;
  } catch {
    throw new ValidationError('binance line', 'a local time then one JSON object', line.slice(0, 80));
  }
  const data = (typeof msg.stream === 'string' && isObject(msg.data) ? msg.data : msg) as Json;
  const head = { m: inst.market, i: inst.symbol, lt } as const;
  if (typeof data.lastUpdateId === 'number' && Array.isArray(data.bids)) {
    return [{ s: 'depth.snapshot', ...head, et: numOr(data.E, lt), u: data.lastUpdateId, b: levels(data.bids), a: levels(data.asks) }];
  }
  switch (data.e) {
    case 'depthUpdate':
      return [
        {
          s: 'depth.diff',
          ...head,
          et: numOr(data.T, numOr(data.E, lt)),
          U: num(data.U, 'U'),
          u: num(data.u, 'u'),
          ...(typeof data.pu === 'number' ? { pu: data.pu } : {}),
          b: levels(data.b),
          a: levels(data.a),
        },
      ];
    case 'trade': {
      if (data.X !== undefined && data.X !== 'MARKET') return [];
      return [
        {
          s: 'trade',
          ...head,
          et: numOr(data.T, numOr(data.E, lt)),
          id: String(data.t),
          p: str(data.p, 'p'),
          q: str(data.q, 'q'),
          ts: data.m === true ? 'sell' : 'buy',
        },
      ];
    }
    case 'markPriceUpdate': {
      const et = numOr(data.E, lt);
      const out: DataRecord[] = [{ s: 'fair', ...head, et, p: str(data.p, 'p') }];
      if (typeof data.i === 'string') out.push({ s: 'index', ...head, et, p: data.i });
      if (typeof data.r === 'string' && data.r !== '')
        out.push({ s: 'funding', ...head, et, r: data.r, ...(typeof data.T === 'number' ? { nt: data.T } : {}), cy: 8 });
      return out;
    }
    default:
      break;
  }
  if (data.e === 'bookTicker' || (data.e === undefined && typeof data.b === 'string' && typeof data.a === 'string')) {
    return [
      {
        s: 'bookTicker',
        ...head,
        et: numOr(data.T, numOr(data.E, lt)),
        ...(typeof data.u === 'number' ? { u: data.u } : {}),
        bp: str(data.b, 'b'),
        bq: str(data.B, 'B'),
        ap: str(data.a, 'a'),
        aq: str(data.A, 'A'),
      },
    ];
  }
  return [];
}

/** All records of a recording's text (one message per line). */
export function parseBinanceFeed(text: string, inst: BinanceFeedInstrument): DataRecord[] {
  const out: DataRecord[] = [];
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (t) for (const r of parseBinanceFeedLine(t, inst)) out.push(r);
  }
  return out;
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function numOr(v: unknown, dflt: number): number {
  return typeof v === 'number' ? v : dflt;
}

function num(v: unknown, field: string): number {
  if (typeof v !== 'number') throw new ValidationError(field, 'a number', v);
  return v;
}

function str(v: unknown, field: string): string {
  if (typeof v !== 'string') throw new ValidationError(field, 'a decimal string', v);
  return v;
}

function levels(v: unknown): RecordLevel[] {
  if (!Array.isArray(v)) return [];
  return v.map((l): RecordLevel => {
    if (!Array.isArray(l) || typeof l[0] !== 'string' || typeof l[1] !== 'string')
      throw new ValidationError('level', '[price, qty] strings', l);
    return [l[0], l[1]];
  });
}
