/**
 * ccxt's mexc class, unchanged, pointed at an emulator on 127.0.0.1 (issue 14). Only configuration a
 * user of the real exchange has is used: the API urls (ccxt's `urls.api`, the same four roots as
 * https://api.mexc.com) and keys.
 *
 * One capability is switched off: with keys, ccxt's loadMarkets first calls fetchCurrencies, which reads
 * the wallet endpoint GET /api/v3/capital/config/getall (mexc.ts fetchCurrencies). The wallet is beyond
 * both documents (spot-api.md and contract-api.md name no capital/* endpoint), so the emulator does not
 * serve it, and `has.fetchCurrencies = false` makes ccxt take the currencies from the markets instead —
 * what ccxt itself does when it has no keys.
 */
import ccxt from 'ccxt';

export type Mexc = InstanceType<typeof ccxt.mexc>;

export interface CcxtKey {
  readonly apiKey: string;
  readonly secret: string;
}

export function ccxtMexc(baseUrl: string, key?: CcxtKey): Mexc {
  const ex = new ccxt.mexc({ ...(key ? { apiKey: key.apiKey, secret: key.secret } : {}), enableRateLimit: false, timeout: 10_000 });
  // ccxt builds spot urls as <spot.public>/api/v3/<path> and contract urls as <contract.*>/<path> (mexc.ts sign()).
  ex.urls['api'] = {
    spot: { public: baseUrl, private: baseUrl },
    contract: { public: `${baseUrl}/api/v1/contract`, private: `${baseUrl}/api/v1/private` },
  };
  ex.has['fetchCurrencies'] = false;
  return ex;
}

/** ccxt's OHLCV row: [ms, open, high, low, close, volume]. */
export type Candle = [number, number, number, number, number, number];
