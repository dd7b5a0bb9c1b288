/**
 * Parsing helpers for CSV-like sources: delimiter and header detection, decimals as the record model
 * wants them, and timestamps in whatever unit a file uses.
 */
import { Decimal } from '../../core/decimal.js';
import { ValidationError } from '../../core/errors.js';

/** Error for one bad field of one source line: names the file, the line and the field. */
export function fieldError(file: string, lineNo: number, field: string, expected: string, received: unknown): ValidationError {
  return new ValidationError(`${file} line ${lineNo} field ${field}`, expected, received);
}

const DELIMS = [',', ';', '\t', '|'] as const;

/** The delimiter that splits `line` into the most cells. */
export function detectDelimiter(line: string): string {
  let best: string = ',';
  let most = 0;
  for (const d of DELIMS) {
    const n = line.split(d).length;
    if (n > most) {
      most = n;
      best = d;
    }
  }
  return best;
}

/** Splits one CSV line; double quotes protect delimiters, "" is a literal quote. Cells are trimmed. */
export function splitCells(line: string, delim: string): string[] {
  if (!line.includes('"')) {
    const cells = line.split(delim);
    for (let k = 0; k < cells.length; k++) cells[k] = cells[k]!.trim();
    return cells;
  }
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"') {
        if (line[i + 1] === '"') {
          cur += '"';
          i++;
        } else quoted = false;
      } else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === delim) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  out.push(cur.trim());
  return out;
}

/** Lower case, no spaces, underscores, dashes or dots: "Open time" and "open_time" both → "opentime". */
export const headerKey = (cell: string): string => cell.toLowerCase().replace(/[\s_\-.]/g, '');

/** Column index per field, from a header row and the accepted names of each field. */
export function mapHeader<F extends string>(
  cells: readonly string[],
  aliases: Readonly<Record<F, readonly string[]>>,
): Partial<Record<F, number>> {
  const keys = cells.map(headerKey);
  const out: Partial<Record<F, number>> = {};
  for (const field of Object.keys(aliases) as F[]) {
    for (const name of aliases[field]) {
      const k = keys.indexOf(headerKey(name));
      if (k >= 0) {
        out[field] = k;
        break;
      }
    }
  }
  return out;
}

/** True when a cell looks like data (a number or a date), so the row is not a header. */
export function looksLikeData(cell: string): boolean {
  return /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(cell) || /^\d{4}-\d{2}-\d{2}/.test(cell) || /^\d{8} \d{6}$/.test(cell);
}

const PLAIN = /^-?\d+(\.\d+)?$/;

/**
 * The cell as a record-model decimal string, or undefined. Plain decimals are kept as written (the
 * venue's padding survives); "+1", ".5", "5.", "1e-05" and "1.5E3" are rewritten as plain decimals.
 */
export function toDecimal(cell: string): string | undefined {
  if (PLAIN.test(cell)) return cell;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(cell)) return undefined;
  const d = new Decimal(cell);
  if (!d.isFinite()) return undefined;
  const s = d.toFixed();
  return s === '-0' ? '0' : s;
}

const UNIT_BY_DIGITS = (digits: number): number => (digits >= 18 ? 1e-6 : digits >= 15 ? 1e-3 : digits >= 12 ? 1 : 1000);

/**
 * Epoch time in ms from a cell: integer digits in s / ms / µs / ns (told apart by their count:
 * ≤11 s, 12–14 ms, 15–17 µs, ≥18 ns: Binance moved its spot data files from ms to µs in 2025),
 * optional fraction, or an ISO-like date ("2024-01-01 00:00:00", UTC unless it carries an offset),
 * or MEXC's "YYYYMMDD HHMMSS" (UTC). Fractions of a ms are dropped (floor).
 */
export function parseEpochMs(cell: string): number | undefined {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(cell);
  if (m) {
    const int = m[1]!;
    const digits = int.replace(/^0+/, '').length;
    const unit = UNIT_BY_DIGITS(digits);
    if (unit === 1e-6 || unit === 1e-3) {
      // Too many digits for a double: cut the sub-ms digits as text.
      const cut = unit === 1e-6 ? 6 : 3;
      return Number(int.slice(0, int.length - cut));
    }
    const frac = m[2] ? Number(`0.${m[2]}`) : 0;
    return Math.floor((Number(int) + frac) * unit);
  }
  const mexc = /^(\d{4})(\d{2})(\d{2}) (\d{2})(\d{2})(\d{2})$/.exec(cell);
  if (mexc) {
    const [, y, mo, d, h, mi, s] = mexc.map(Number) as number[];
    const t = Date.UTC(y!, mo! - 1, d!, h!, mi!, s!);
    return Number.isNaN(t) || new Date(t).getUTCDate() !== d ? undefined : t;
  }
  if (/^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(cell)) {
    let iso = cell.replace(' ', 'T');
    if (!/T/.test(iso)) iso += 'T00:00:00';
    if (!/(Z|[+-]\d{2}:?\d{2})$/.test(iso)) iso += 'Z';
    const t = Date.parse(iso);
    return Number.isNaN(t) ? undefined : Math.floor(t);
  }
  return undefined;
}

/** A local receive timestamp made of digits only (ns, µs or ms), in ms. */
export function parseLocalStamp(text: string): number | undefined {
  if (!/^\d{10,20}$/.test(text)) return undefined;
  return parseEpochMs(text);
}
