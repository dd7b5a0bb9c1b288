/**
 * Instrument symbols in the venue's spelling: spot `BTCUSDT`, contract `BTC_USDT` (the MEXC-style
 * APIs this framework trades). Sources spell them many ways (Binance `BTCUSDT` for both markets,
 * freqtrade `BTC_USDT_USDT`, `BTC/USDT`, `btcusdt` in stream names); the quote asset is found by the
 * longest known quote suffix.
 */
import type { RecordMarket } from '../record/record.js';

/** 'venue': spot BTCUSDT, contract BTC_USDT. 'source': as the data spells it (upper-cased). */
export type SymbolStyle = 'venue' | 'source';

export const QUOTE_ASSETS = [
  'FDUSD',
  'USDT',
  'USDC',
  'BUSD',
  'TUSD',
  'USDE',
  'USD',
  'BTC',
  'ETH',
  'BNB',
  'EUR',
  'TRY',
  'BRL',
  'DAI',
] as const;

/** Base and quote of a symbol, or undefined when no known quote ends it. */
export function splitSymbol(symbol: string): { base: string; quote: string } | undefined {
  const s = symbol.toUpperCase().replace(/:.*$/, '');
  const parts = s.split(/[_\-/]/).filter(Boolean);
  if (parts.length >= 2 && (QUOTE_ASSETS as readonly string[]).includes(parts[1]!)) return { base: parts[0]!, quote: parts[1]! };
  const joined = parts.join('');
  for (const q of [...QUOTE_ASSETS].sort((a, b) => b.length - a.length)) {
    if (joined.length > q.length && joined.endsWith(q)) return { base: joined.slice(0, joined.length - q.length), quote: q };
  }
  return undefined;
}

/** The venue's spelling of `symbol` in `market`; unchanged when it cannot be split. */
export function venueSymbol(symbol: string, market: RecordMarket): string {
  const bq = splitSymbol(symbol);
  if (!bq) return symbol.toUpperCase();
  return market === 'contract' ? `${bq.base}_${bq.quote}` : `${bq.base}${bq.quote}`;
}

export function mapSymbol(symbol: string, market: RecordMarket, style: SymbolStyle = 'venue'): string {
  return style === 'venue' ? venueSymbol(symbol, market) : symbol.toUpperCase();
}

/**
 * A symbol named in a file name: `binance_usdm_BTCUSDT_perp_1m_….csv`, `BTCUSDT-1m-2024-01.csv`,
 * `BTC_USDT_USDT-1m-futures.feather`, `btcusdt_20240808.gz`. Undefined when none is found.
 */
export function symbolFromFileName(path: string): string | undefined {
  const name = (path.split(/[\\/]/).pop() ?? path).toUpperCase();
  const quotes = [...QUOTE_ASSETS].sort((a, b) => b.length - a.length).join('|');
  const re = new RegExp(`(?:^|[^A-Z0-9])([A-Z0-9]{2,15}?)([_\\-]?)(${quotes})(?=[^A-Z0-9]|$)`);
  const m = re.exec(name);
  if (!m) return undefined;
  return `${m[1]}${m[2] ? '_' : ''}${m[3]}`;
}
