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
import type { EmulatorConfigInput } from '../../src/emulator/emulator-config.js';
import type { RunningEmulator } from '../../src/emulator/start-emulator.js';
import {
  clock,
  emulatorConfig,
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

/** A client trading by hand on the bot's own account. */
const handClient = (emu: RunningEmulator): SpotClient =>
  new SpotClient({
    baseUrl: emu.url,
    clock,
    rateLimits: false,
    timeSync: false,
    credentials: { apiKey: IT_ACCOUNT.apiKey, secretKey: IT_ACCOUNT.secretKey },
  });

describe('integration: spot trades placed outside the bot are booked', function () {
  this.timeout(90_000);
  let emu: RunningEmulator;
  let byHand: SpotClient;
  const tmp = tempDir('spot-outside');
  const runs: PaperRun[] = [];

  before(async () => {
    emu = await startTestEmulator({ seed: 37 });
    byHand = handClient(emu);
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

describe('integration: a self-trade outside the bot is booked on both sides', function () {
  this.timeout(90_000);
  let emu: RunningEmulator;
  let byHand: SpotClient;
  const tmp = tempDir('spot-self-trade');
  let run: PaperRun | undefined;

  before(async () => {
    // No crowd takers: the order resting by hand is there for our own buy, not taken by the crowd first.
    const market = emulatorConfig().market as Extract<NonNullable<EmulatorConfigInput['market']>, { source: 'synthetic' }>;
    const books = { ...market.books, BTCUSDT: { ...market.books!.BTCUSDT!, takerArrivalPerSec: 0 } };
    emu = await startTestEmulator({ seed: 41, market: { ...market, books } });
    byHand = handClient(emu);
  });
  after(async () => {
    await run?.stop('test over').catch(() => undefined);
    run?.dispose();
    await byHand.close();
    await emu.stop();
    tmp.remove();
  });

  it('journals_the_maker_and_the_taker_side_of_one_trade_as_two_venue_fills', async () => {
    run = await startRun(runDoc(emu.url, join(tmp.dir, 'bot.sqlite'), { instruments: ['BTCUSDT'], strategies: [STILL_QUOTES_MM] }));
    const bot = run;
    await waitFor(() => bot.runtime.state.openOrders('mm1' as never).length === 2, 20_000, 'the bot quoting');

    // By hand: a sell resting 5 USDT above the mid (inside the crowd's 20 USDT spread, so it is the best
    // ask), then an IOC buy at its price: one trade, both sides the account's. The venue lists two own-trade
    // records under one id (isSelfTrade); the account paid two fees and its balances moved twice.
    const [book] = await byHand.bookTicker({ symbol: SYM });
    const price = book!.bidPrice!.plus(book!.askPrice!).div(2).plus(5).toDecimalPlaces(2).toFixed();
    const sell = await byHand.newOrder({
      symbol: SYM,
      side: 'SELL',
      type: 'LIMIT',
      quantity: '0.001',
      price,
      newClientOrderId: 'by-hand-s',
    });
    const buy = await byHand.newOrder({
      symbol: SYM,
      side: 'BUY',
      type: 'IMMEDIATE_OR_CANCEL',
      quantity: '0.001',
      price,
      newClientOrderId: 'by-hand-b',
    });
    const [soldBy] = await byHand.myTrades({ symbol: SYM, orderId: sell.orderId, limit: 100 });
    const [boughtBy] = await byHand.myTrades({ symbol: SYM, orderId: buy.orderId, limit: 100 });
    expect([soldBy?.isSelfTrade, boughtBy?.isSelfTrade, soldBy?.id === boughtBy?.id], 'one self-trade').to.deep.equal([true, true, true]);

    const venueFills = (): VenueFillEvent[] => bot.journal.events().filter((e): e is VenueFillEvent => e.type === 'VenueFill');
    await waitFor(() => venueFills().length >= 2, 15_000, 'both sides in the journal');
    await clock.sleep(2500); // a reconciliation later: nothing more is booked
    const row = (id: string, side: string, order: string, fee: string) => `${id} ${side} ${order} fee ${fee}`;
    expect(
      venueFills()
        .map((e) => row(e.fill.tradeId, e.fill.side, e.fill.venueOrderId ?? '-', e.fill.fee.toFixed()))
        .sort(),
    ).to.deep.equal(
      [
        row(`${soldBy!.id}-m`, 'sell', sell.orderId, soldBy!.commission!.toFixed()),
        row(boughtBy!.id, 'buy', buy.orderId, boughtBy!.commission!.toFixed()),
      ].sort(),
    );
    await bot.stop('test over');
    const audit = await auditJournalAgainstVenue({
      journal: bot.journal,
      spot: byHand,
      symbols: [SYM],
      strategyByTag: new Map([['mm1', 'mm1']]),
    });
    expect(audit.problems).to.deep.equal([]);
  });
});
