/**
 * The trading rules of the configured symbols, read from the exchange at start-up: spot exchangeInfo
 * (with defaultSymbols, the list of symbols the API may trade) and contract detail. A configured
 * symbol the exchange does not list stops the start: nothing can be priced or checked without it.
 */
import { ConfigError } from '../../core/errors.js';
import { type InstrumentSymbol, isContractSymbol } from '../../core/ids.js';
import { toContractInstrument } from '../../api/contract/to-contract-instrument.js';
import { toSpotInstrument } from '../../api/spot/to-spot-instrument.js';
import type { ContractClient } from '../../client/contract-client.js';
import type { SpotClient } from '../../client/spot-client.js';
import { InstrumentRegistry } from '../../domain/instrument-registry.js';

export type SpotReferenceClient = Pick<SpotClient, 'exchangeInfo' | 'defaultSymbols'>;
export type ContractReferenceClient = Pick<ContractClient, 'contractDetail'>;

export async function loadInstruments(
  symbols: readonly InstrumentSymbol[],
  clients: { spot?: SpotReferenceClient; contract?: ContractReferenceClient },
): Promise<InstrumentRegistry> {
  const registry = new InstrumentRegistry();
  const spotSymbols = symbols.filter((s) => !isContractSymbol(s));
  const contractSymbols = symbols.filter((s) => isContractSymbol(s));
  if (spotSymbols.length > 0) {
    if (!clients.spot) throw new ConfigError('instruments', 'spot symbols need a spot client');
    const [info, tradable] = await Promise.all([
      clients.spot.exchangeInfo(spotSymbols.length === 1 ? { symbol: spotSymbols[0]! } : { symbols: [...spotSymbols] }),
      clients.spot.defaultSymbols(),
    ]);
    const api = new Set<string>(tradable);
    for (const s of spotSymbols) {
      const entry = info.symbols.find((e) => e.symbol === s);
      if (!entry) throw new ConfigError('instruments', `${s} is not listed by the exchange's exchangeInfo`);
      registry.upsert(toSpotInstrument(entry, api));
    }
  }
  for (const s of contractSymbols) {
    if (!clients.contract) throw new ConfigError('instruments', 'contract symbols need a contract client');
    const detail = await clients.contract.contractDetail({ symbol: s });
    const entry = Array.isArray(detail) ? detail.find((d) => d.symbol === s) : detail;
    if (!entry || entry.symbol !== s) throw new ConfigError('instruments', `${s} is not listed by the exchange's contract detail`);
    registry.upsert(toContractInstrument(entry));
  }
  return registry;
}
