/**
 * Instruments and venue records from the captured fixtures (test/fixtures/mexc), parsed by the
 * catalogue's own schemas, so the gateway tests run on the real venue's shapes and numbers.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseJsonKeepingLongInts } from '../../../../src/core/json-codec.js';
import { exchangeInfoSchema } from '../../../../src/api/spot/market.js';
import { toSpotInstrument } from '../../../../src/api/spot/to-spot-instrument.js';
import { contractDetailSchema } from '../../../../src/api/contract/market-schemas.js';
import { toContractInstrument } from '../../../../src/api/contract/to-contract-instrument.js';
import type { ContractInstrument, SpotInstrument } from '../../../../src/domain/instrument.js';
import { InstrumentRegistry } from '../../../../src/domain/instrument-registry.js';

function fixturesDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 10; i++) {
    const candidate = join(dir, 'test', 'fixtures', 'mexc');
    if (existsSync(join(candidate, 'SOURCES.md'))) return candidate;
    dir = dirname(dir);
  }
  throw new Error('test/fixtures/mexc not found above the compiled test');
}
const DIR = fixturesDir();

export const spotFixture = (name: string): unknown => JSON.parse(readFileSync(join(DIR, name), 'utf8'));
export const contractFixtureData = (name: string): unknown =>
  (parseJsonKeepingLongInts(readFileSync(join(DIR, name), 'utf8')) as { data: unknown }).data;

/** BTCUSDT from the captured exchangeInfo: tick 0.01, step 0.000001, quote precision 2. */
export function btcusdt(): SpotInstrument {
  const info = exchangeInfoSchema.parse(spotFixture('spot_GET_api_v3_exchangeInfo.json'));
  const entry = info.symbols.find((s) => s.symbol === 'BTCUSDT')!;
  return toSpotInstrument(entry, new Set(['BTCUSDT']));
}

/** BTC_USDT from the captured contract detail: priceUnit 0.1, volUnit 1, leverage 1..500. */
export function btcUsdtContract(): ContractInstrument {
  return {
    ...toContractInstrument(contractDetailSchema.parse(contractFixtureData('contract_GET_api_v1_contract_detail.json'))),
    apiAllowed: true,
  };
}

/** ETH_USDT with a contract size of 0.01 (the fixture positions and orders are in ETH_USDT). */
export function ethUsdtContract(): ContractInstrument {
  const btc = btcUsdtContract();
  return { ...btc, symbol: 'ETH_USDT' as ContractInstrument['symbol'], baseCoin: 'ETH', contractSize: btc.contractSize.mul(100) };
}

export const registry = (): InstrumentRegistry => new InstrumentRegistry([btcusdt(), btcUsdtContract(), ethUsdtContract()]);
