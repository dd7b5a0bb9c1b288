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
    this.symbolsByKind.clear();
  }

  instrument(symbol: InstrumentSymbol): Instrument | undefined {
    return this.bySymbol.get(symbol);
  }

  all(): readonly Instrument[] {
    return [...this.bySymbol.values()];
  }

  /**
   * The symbols of one kind, in registry order. The list is made once until the next upsert: the
   * runtime asks at every reconciliation tick (a bar, in a backtest) and the protection check again.
   */
  symbolsOf(kind: Instrument['kind']): readonly InstrumentSymbol[] {
    let list = this.symbolsByKind.get(kind);
    if (!list) {
      const out: InstrumentSymbol[] = [];
      for (const i of this.bySymbol.values()) if (i.kind === kind) out.push(i.symbol);
      this.symbolsByKind.set(kind, (list = Object.freeze(out)));
    }
    return list;
  }

  private readonly symbolsByKind = new Map<Instrument['kind'], readonly InstrumentSymbol[]>();
}
