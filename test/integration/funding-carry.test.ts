/**
 * Funding carry through the whole pipeline against the emulator over real HTTP, both markets in one
 * strategy: with a positive funding rate it buys spot and shorts the same base in contracts; run again
 * (same journal: a restart) with an exit threshold above that rate, it unwinds both legs. The
 * emulator's funding rate is fixed by its config (its synthetic market would otherwise move it), so
 * the rate "turning" is played by the threshold. The venue's books agree with the strategy's.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { D, ZERO } from '../../src/core/decimal.js';
import type { ExecutionEvent } from '../../src/domain/execution-event.js';
import type { RunningEmulator } from '../../src/emulator/start-emulator.js';
import type { FundingCarry } from '../../strategies/funding-carry.js';
import { IT_ACCOUNT, journalFills, runDoc, startRun, startTestEmulator, tempDir, waitFor } from './support/paper-harness.js';

describe('integration: funding carry over spot and perpetual against the emulator', function () {
  this.timeout(120_000);
  let emu: RunningEmulator;
  const tmp = tempDir('carry');

  before(async () => {
    emu = await startTestEmulator({ funding: { cycleHours: 8, rate: 0.002 } });
  });
  after(async () => {
    await emu.stop();
    tmp.remove();
  });

  it('enters_equal_opposite_legs_on_a_paying_rate_and_unwinds_both_when_it_turns', async () => {
    const doc = (params: Record<string, unknown>) =>
      runDoc(emu.url, join(tmp.dir, 'carry.sqlite'), {
        venue: { contractTrading: true },
        instruments: ['BTCUSDT', 'BTC_USDT'],
        marketData: {
          maxSnapshotAgeMs: 3000,
          spot: { cycleMs: 300, streams: { depth: { limit: 20 }, ticker24h: {} } },
          contract: { cycleMs: 300, streams: { depth: { limit: 20 }, ticker: {}, fundingRate: {} } },
        },
        strategies: [
          {
            id: 'carry1',
            name: 'funding-carry',
            instruments: ['BTCUSDT', 'BTC_USDT'],
            params: { baseQty: '0.01', settlementsToCover: 3, ...params },
          },
        ],
      });
    let run = await startRun(doc({ entryRate: 0.0005 }));
    let carry = run.runtime.strategyRunners[0]!.strategy as FundingCarry;
    const events = (): ExecutionEvent[] => run.journal.events();
    /** Net base bought (+) or sold (−) by the journal's fills of a symbol, contracts × 0.0001 for the perpetual. */
    const netBase = (symbol: string): string =>
      journalFills(events())
        .filter((f) => f.symbol === symbol)
        .reduce((s, f) => s.plus(f.side === 'buy' ? f.quantity : f.quantity.neg()), ZERO)
        .mul(symbol === 'BTC_USDT' ? D('0.0001') : 1)
        .toFixed();
    const venueShort = (): string =>
      emu.contract.venue
        .openPositions(IT_ACCOUNT.name, { symbol: 'BTC_USDT' })
        .reduce((s, p) => s.plus(p.holdVol), ZERO)
        .toFixed();
    try {
      // 0.2 % a settlement pays for the round trip (emulator taker fees and spreads) over 3 settlements: enter.
      await waitFor(() => netBase('BTCUSDT') === '0.01' && netBase('BTC_USDT') === '-0.01', 40_000, 'both legs entered');
      expect(venueShort()).to.equal('100');
      expect(carry.report()).to.include({ direction: 'long-spot', spotBase: '0.01', perpBase: '-0.01', entries: '1' });
      expect(carry.report().basis).to.not.equal('-');
      // Run again on the same journal, asking for more than the 0.2 % paid: the carry no longer pays, both legs close.
      await run.stop('phase one over');
      run.dispose();
      run = await startRun(doc({ entryRate: 0.05, exitRate: 0.003 }));
      carry = run.runtime.strategyRunners[0]!.strategy as FundingCarry;
      await waitFor(() => netBase('BTCUSDT') === '0' && netBase('BTC_USDT') === '0', 40_000, 'both legs unwound');
      await waitFor(() => venueShort() === '0', 10_000, 'the venue position closed');
    } catch (e) {
      await run.stop('test failed');
      const seen = `${JSON.stringify(carry.report())}; events: ${[...new Set(events().map((x) => ('reason' in x ? `${x.type} ${x.reason}` : x.type)))].join(' | ')}`;
      run.dispose();
      throw new Error(`${(e as Error).message}; carry: ${seen}`);
    }
    // The second run found the legs of the first (restored from the journal), unwound them, and did not enter again.
    expect(carry.report()).to.include({ unwinds: '1', entries: '0', direction: 'flat' });
    expect(events().filter((e) => e.type === 'IntentDenied' || e.type === 'IntentFailed' || e.type === 'OrderRejected')).to.deep.equal([]);
    await run.stop('test over');
    run.dispose();
  });
});
