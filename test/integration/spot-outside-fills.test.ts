/**
 * A spot order placed outside the bot (by hand on the same account) that trades: the bot journals each of
 * its trades as a VenueFill on the account (no strategy's inventory: the strategy did not trade it),
 * reports it, and after a SIGKILL-like restart does not book it again. Before, such trades were silently
 * ignored: the journal did not know of a balance change the venue made.
 *
 * Expected values are the venue's own trade records (GET myTrades for that order, read over the client):
 * id, quantity, price and commission must be exactly what the journal holds.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { auditJournalAgainstVenue } from '../../src/app/audit/journal-venue-audit.js';
import { SpotClient } from '../../src/client/spot-client.js';
import { spotSymbol } from '../../src/core/ids.js';
import type { ExecutionEvent } from '../../src/domain/execution-event.js';
import type { RunningEmulator } from '../../src/emulator/start-emulator.js';
import {
  clock,
  IT_ACCOUNT,
  type PaperRun,
  runDoc,
  startRun,
  startTestEmulator,
  STILL_QUOTES_MM,
  tempDir,
  waitFor,
} from './support/paper-harness.js';

const SYM = spotSymbol('BTCUSDT');
type VenueFillEvent = Extract<ExecutionEvent, { type: 'VenueFill' }>;

describe('integration: spot trades placed outside the bot are booked', function () {
  this.timeout(90_000);
  let emu: RunningEmulator;
  let byHand: SpotClient;
  const tmp = tempDir('spot-outside');
  const runs: PaperRun[] = [];

  before(async () => {
    emu = await startTestEmulator({ seed: 37 });
    byHand = new SpotClient({
      baseUrl: emu.url,
      clock,
      rateLimits: false,
      timeSync: false,
      credentials: { apiKey: IT_ACCOUNT.apiKey, secretKey: IT_ACCOUNT.secretKey },
    });
  });
  after(async () => {
    for (const r of runs.splice(0)) {
      await r.stop('test over').catch(() => undefined);
      r.dispose();
    }
    await byHand.close();
    await emu.stop();
    tmp.remove();
  });

  it('journals_a_manual_spot_trade_as_the_accounts_venue_fill_once_across_a_restart', async () => {
    const doc = runDoc(emu.url, join(tmp.dir, 'bot.sqlite'), {
      instruments: ['BTCUSDT'],
      // Quotes that never move: the bot's own orders do not trade during the test.
      strategies: [STILL_QUOTES_MM],
    });
    const first = await startRun(doc);
    runs.push(first);
    const venueFills = (r: PaperRun): VenueFillEvent[] => r.journal.events().filter((e): e is VenueFillEvent => e.type === 'VenueFill');
    await waitFor(() => first.runtime.state.openOrders('mm1' as never).length === 2, 20_000, 'the bot quoting');

    // By hand: a market buy of 0.002 BTC on the bot's account, taking the crowd's asks.
    const manual = await byHand.newOrder({ symbol: SYM, side: 'BUY', type: 'MARKET', quantity: '0.002', newClientOrderId: 'by-hand-1' });
    const trades = await byHand.myTrades({ symbol: SYM, orderId: manual.orderId, limit: 100 });
    expect(trades.length, 'venue trades of the manual order').to.be.greaterThan(0);
    await waitFor(() => venueFills(first).length >= trades.length, 15_000, 'the manual trades in the journal');

    const row = (id: string, qty: string, price: string, fee: string, asset: string) => `${id} ${qty}@${price} fee ${fee} ${asset}`;
    const expected = trades
      .map((t) => row(t.id, t.qty.toFixed(), t.price.toFixed(), t.commission?.toFixed() ?? '-', t.commissionAsset ?? '-'))
      .sort();
    const booked = () =>
      venueFills(first).map((e) =>
        row(e.fill.tradeId, e.fill.quantity.toFixed(), e.fill.price.toFixed(), e.fill.fee.toFixed(), e.fill.feeAsset),
      );
    expect(booked().sort()).to.deep.equal(expected);
    for (const e of venueFills(first)) {
      expect(e.strategyId, 'no strategy owns a trade made by hand').to.equal(undefined);
      expect([e.symbol, e.fill.side, e.fill.venueOrderId]).to.deep.equal([SYM, 'buy', manual.orderId]);
    }
    // The strategy's inventory did not take it.
    expect(first.runtime.state.positions('mm1' as never).filter((p) => !p.quantity.isZero())).to.deep.equal([]);

    // A kill and a restart on the same journal: the trades are known by id, not booked again.
    runs.splice(0);
    await first.kill();
    const second = await startRun(doc);
    runs.push(second);
    await waitFor(() => second.runtime.status().snapshots >= 6, 20_000, 'the restarted bot running');
    expect(venueFills(second).length).to.equal(trades.length);
    await second.stop('test over');

    // The audit the chaos suite uses agrees: every trade of the account is in the journal.
    const audit = await auditJournalAgainstVenue({
      journal: second.journal,
      spot: byHand,
      symbols: [SYM],
      strategyByTag: new Map([['mm1', 'mm1']]),
    });
    expect(audit.problems).to.deep.equal([]);
  });
});
