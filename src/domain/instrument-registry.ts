/**
 * Where code finds an instrument's rules by symbol. Filled at start-up from exchangeInfo / contract
 * detail (and refreshed); read by strategies, the risk engine and the order manager.
 */
import type { InstrumentSymbol } from '../core/ids.js';
import type { Instrument } from './instrument.js';

export interface InstrumentLookup {
  instrument(symbol: InstrumentSymbol): Instrument | undefined;
}

export class InstrumentRegistry implements InstrumentLookup {
  private readonly bySymbol = new Map<string, Instrument>();

  constructor(instruments: readonly Instrument[] = []) {
    for (const i of instruments) this.bySymbol.set(i.symbol, i);
  }

  /** Adds or replaces (a refresh may change status, tiers, limits). */
  upsert(instrument: Instrument): void {
    this.bySymbol.set(instrument.symbol, instrument);
  }

  instrument(symbol: InstrumentSymbol): Instrument | undefined {
    return this.bySymbol.get(symbol);
  }

  all(): readonly Instrument[] {
    return [...this.bySymbol.values()];
  }
}
