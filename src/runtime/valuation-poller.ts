/**
 * Prices of what the account holds that no market-data stream covers (ETH in the spot account while
 * the config trades BTCUSDT only): read at start-up and once per reconciliation. A symbol the venue
 * cannot price stays unvalued, and the kill switch's denial names the asset and the fix.
 */
import { messageOf } from '../core/message-of.js';
import type { TradingRuntimeOptions } from './runtime-options.js';
import type { TradingState } from './trading-state.js';

export class ValuationPoller {
  /** Valuation symbols whose price read failed, warned about once. */
  private readonly unpriced = new Set<string>();

  constructor(
    private readonly o: TradingRuntimeOptions,
    private readonly state: TradingState,
  ) {}

  /**
   * Not an async function without a price reader (a backtest: every reconciliation tick): the caller's
   * `await undefined` takes the one microtask turn that awaiting the settled promise of the async function took.
   */
  poll(): Promise<void> | undefined {
    const price = this.o.valuationPrice;
    return price ? this.pollWith(price) : undefined;
  }

  private async pollWith(price: NonNullable<TradingRuntimeOptions['valuationPrice']>): Promise<void> {
    const streamed = new Set<string>(this.o.instruments.all().map((i) => i.symbol));
    // Equity is updated only when something was priced: the poll must not add equity points of its own.
    let polled = 0;
    for (const symbol of this.state.valuationSymbols()) {
      if (streamed.has(symbol)) continue;
      try {
        this.state.setPolledMark(symbol, await price(symbol));
        polled++;
      } catch (e) {
        if (this.unpriced.has(symbol)) continue;
        this.unpriced.add(symbol);
        const message = `no valuation price for ${symbol}: the asset it prices stays unvalued (asked again at each reconciliation)`;
        this.o.logger.warn(message, { error: messageOf(e) });
      }
    }
    if (polled > 0) this.state.updateEquity(this.o.clock.now());
  }
}
