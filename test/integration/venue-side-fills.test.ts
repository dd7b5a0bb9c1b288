/**
 * Issue 10, defect 2: every fill of the contract account is known, attributed and booked, and a
 * restart rebuilds positions of any sign from the journal plus the venue.
 *
 * The bot runs in this process against an in-process emulator over real HTTP, its market stopped so
 * prices move only when the test says (the trigger tests' way: setFairPrice). carol is the
 * counterparty: she rests a bid of 20 at 87 500 (the bot's opening sell takes it) and an ask of 40 at
 * 87 600 (what a stop-loss, a manual close or a manual reversal buys). A restart is SIGKILL-like: the
 * runtime halts without shutdown and a new one starts on the same journal file.
 *
 * BTC_USDT: contract size 0.0001 BTC, tick 0.1, taker fee 0.0001 (read back from the venue's own
 * order record below, so a changed preset fails loudly instead of silently).
 */
import { expect } from 'chai';
import type { EndpointDef } from '../../src/api/endpoint.js';
import type { ContractPosition } from '../../src/api/contract/order-schemas.js';
import type { CallOptions } from '../../src/client/catalogue-client.js';
import { D, type Decimal } from '../../src/core/decimal.js';
import { contractSymbol, strategyId } from '../../src/core/ids.js';
import type { ExecutionEvent } from '../../src/domain/execution-event.js';
import { carolRuns, startStoppedVenue } from './support/carol-venue.js';
import { type PaperRun, waitFor } from './support/paper-harness.js';
import { SCRIPTS } from './support/scripted-strategy.js';

const SYM = contractSymbol('BTC_USDT');
const PT = strategyId('pt');

SCRIPTS.set('open-short-20', (ctx) => [
  ctx.intents.positionMode('one-way'),
  ctx.intents.market(SYM, 'sell', 20, { leverage: 5, marginMode: 'isolated' }),
]);

type Ev<T extends ExecutionEvent['type']> = Extract<ExecutionEvent, { type: T }>;
const fillRow = ({ strategyId, fill: f }: Ev<'VenueFill'>) => [
  strategyId,
  f.side,
  f.quantity.toFixed(),
  f.price.toFixed(),
  f.realizedPnl?.toFixed(),
];
const adjustmentRow = (e: Ev<'PositionAdjusted'>) => [e.strategyId, e.symbol, e.leg, e.fromQuantity.toFixed(), e.toQuantity.toFixed()];

describe('integration: venue-side fills and restart reconciliation of positions', function () {
  this.timeout(120_000);
  const rig = carolRuns('venue-fills');
  const { start, kill, events } = rig;
  const scripted = { id: PT, name: 'scripted', instruments: ['BTC_USDT'], params: { script: 'open-short-20' } };
  // No bar closes within a test (barSeconds 3600): perp-trend only protects and closes what it holds.
  const perpTrend = {
    id: PT,
    name: 'perp-trend',
    instruments: ['BTC_USDT'],
    params: { size: '20', leverage: 5, setPositionMode: false, barSeconds: 3600, takeProfitPct: 1, stopLossPct: 0.5 },
  };
  const held = (r: PaperRun): Decimal => rig.held(r, PT);
  /** Run 1: the scripted strategy `pt` sells 20 at 87 500 into carol's bid, then the process is killed. */
  const openShortAndKill = async (): Promise<void> => {
    const r = await start(scripted);
    await waitFor(() => held(r).eq(-20), 20_000, 'the opening sell of 20');
    await kill(r);
  };
  const venueStops = async () => rig.byHand.openStopOrders({ symbol: SYM });
  /** The stop order perp-trend arms for a short of 20 entered at 87 500: SL 87 500·1.005 = 87 937.5, TP 87 500·0.99 = 86 625. */
  const expectArmed = async () => {
    const [s, more] = await venueStops();
    expect(more, 'one stop order').to.equal(undefined);
    expect([s!.positionType, s!.stopLossPrice?.toFixed(), s!.takeProfitPrice?.toFixed()]).to.deep.equal([2, '87937.5', '86625']);
  };

  it('books_the_venue_stop_loss_fill_with_fee_and_pnl_sends_no_close_and_is_flat_after_a_kill', async () => {
    await openShortAndKill();
    const run = await start(perpTrend);
    expect(held(run).toFixed(), 'restored from the journal').to.equal('-20');
    await waitFor(async () => (await venueStops()).length > 0, 20_000, 'perp-trend arming its TP/SL');
    await expectArmed();
    const ordersBefore = events(run, 'OrderSubmitted').length;

    // The fair price goes through the stop: the venue closes the short by buying 20 at carol's 87 600.
    rig.emu.contract.venue.setFairPrice(SYM, '87950');
    expect(await rig.byHand.openPositions({})).to.deep.equal([]);
    await waitFor(() => held(run).isZero() && events(run, 'VenueFill').length > 0, 20_000, 'the venue fill booked');
    // Several snapshots and reconciliations more, in which a protective exit would send its close:
    // counted (4 ticks of 500 ms and 8 snapshots of 250 ms, what 2 s used to give), not slept on.
    const { reconciles, snapshots } = run.runtime.stats;
    const more = (): boolean => run.runtime.stats.reconciles >= reconciles + 4 && run.runtime.stats.snapshots >= snapshots + 8;
    await waitFor(more, 20_000, 'four reconciliations and eight snapshots more');

    const [vf, another] = events(run, 'VenueFill');
    expect(another).to.equal(undefined);
    const f = vf!.fill;
    // Fee: 87 600 · 20 · 0.0001 = 175.2 USDT notional · 0.0001 taker = 0.01752.
    // PnL: (87 500 − 87 600) · 20 · 0.0001 = −0.2 (a short bought back higher).
    const booked = [...fillRow(vf!), f.fee.toFixed(), f.feeAsset, f.clientOrderId];
    expect(booked).to.deep.equal([PT, 'buy', '20', '87600', '-0.2', '0.01752', 'USDT', undefined]);
    // The venue's own record of the order that closed the position says the same.
    const close = await rig.byHand.getOrder({ orderId: f.venueOrderId! });
    const record = [close.dealVol, close.dealAvgPrice, close.totalFee, close.profit].map((x) => x?.toFixed());
    record.push(close.externalOid ?? '');
    expect(record).to.deep.equal(['20', '87600', '0.01752', '-0.2', '']);
    expect(run.runtime.state.strategyBook(PT).realizedPnl().toFixed()).to.equal('-0.2');
    // No closing order: nothing was submitted after the trigger, and the venue holds one order of ours.
    expect(events(run, 'OrderSubmitted').length).to.equal(ordersBefore);
    const ours = (await rig.byHand.historyOrders({ symbol: SYM, page_num: 1, page_size: 100 })).filter((o) => o.externalOid);
    expect(ours.map((o) => [o.side, o.vol.toFixed()])).to.deep.equal([[3, '20']]);

    await kill(run);
    const after = await start(perpTrend);
    expect(held(after).toFixed(), 'flat after the restart').to.equal('0');
    expect(events(after, 'PositionAdjusted'), 'explained by the journaled fill').to.deep.equal([]);
    expect(after.runtime.state.strategyBook(PT).realizedPnl().toFixed()).to.equal('-0.2');
  });

  it('rebuilds_a_reversed_position_from_the_venue_fills_made_while_the_bot_was_down', async () => {
    await openShortAndKill();
    // While the bot is down, the short is bought back and a long of 20 opened, by hand, at 87 600.
    await rig.byHand.createOrder({ symbol: SYM, price: 87600, vol: 20, side: 2, type: 1, openType: 1 });
    await rig.byHand.createOrder({ symbol: SYM, price: 87600, vol: 20, leverage: 5, side: 1, type: 1, openType: 1 });
    expect((await rig.byHand.openPositions({})).map((p) => [p.positionType, p.holdVol.toFixed()])).to.deep.equal([[1, '20']]);

    const run = await start(perpTrend);
    // Reconciled before the strategy started: +20 at 87 600, explained by two journaled venue fills.
    expect(held(run).toFixed()).to.equal('20');
    expect(
      run.runtime.state
        .positions(PT)
        .find((p) => p.symbol === SYM)!
        .entryPrice.toFixed(),
    ).to.equal('87600');
    const fills = events(run, 'VenueFill').map(fillRow);
    // The close realises (87 500 − 87 600) · 20 · 0.0001 = −0.2; the opening buy realises nothing.
    expect(fills).to.deep.equal([
      [PT, 'buy', '20', '87600', '-0.2'],
      [PT, 'buy', '20', '87600', '0'],
    ]);
    expect(events(run, 'PositionAdjusted')).to.deep.equal([]);
  });

  it('adjusts_with_a_journaled_record_when_no_venue_fill_explains_the_difference', async () => {
    await openShortAndKill();
    // The venue forgot everything (a new emulator without persistence): the journal's −20 is unexplained.
    const fresh = await startStoppedVenue();
    try {
      const run = await start(perpTrend, fresh.url);
      expect(held(run).toFixed()).to.equal('0');
      const adj = events(run, 'PositionAdjusted').map(adjustmentRow);
      expect(adj).to.deep.equal([[PT, SYM, 'net', '-20', '0']]);
      await run.stop('test over');
      // The adjustment is journaled: a second start rebuilds the same flat book without a new one.
      run.dispose();
      rig.runs.splice(rig.runs.indexOf(run), 1);
      const again = await start(perpTrend, fresh.url);
      expect(held(again).toFixed()).to.equal('0');
      expect(events(again, 'PositionAdjusted')).to.have.length(1);
      await again.stop('test over');
    } finally {
      await fresh.stop();
    }
  });

  it('books_a_close_placed_outside_the_bot_and_stays_flat_after_a_kill', async () => {
    const run = await start(scripted);
    await waitFor(() => held(run).eq(-20), 20_000, 'the opening sell of 20');
    await rig.byHand.createOrder({ symbol: SYM, price: 87600, vol: 20, side: 2, type: 1, openType: 1 });
    // The journal takes the fill when reconcile finds it; the books take it at the end of the same pass.
    await waitFor(() => events(run, 'VenueFill').length > 0 && held(run).isZero(), 20_000, 'the manual close booked');
    const [vf] = events(run, 'VenueFill');
    expect(fillRow(vf!)).to.deep.equal([PT, 'buy', '20', '87600', '-0.2']);
    expect(held(run).toFixed()).to.equal('0');
    await kill(run);
    const after = await start(perpTrend);
    expect(held(after).toFixed()).to.equal('0');
    expect(events(after, 'PositionAdjusted')).to.deep.equal([]);
  });

  it('books_a_liquidation_as_the_venue_records_it', async () => {
    const run = await start(scripted);
    await waitFor(() => held(run).eq(-20), 20_000, 'the opening sell of 20');
    // Beyond the 5x short's liquidation price (104 895.1 at entry): the venue takes the position over (category 2 order).
    rig.emu.contract.venue.setFairPrice(SYM, '106000');
    expect(await rig.byHand.openPositions({})).to.deep.equal([]);
    await waitFor(() => events(run, 'VenueFill').length > 0 && held(run).isZero(), 20_000, 'the liquidation booked');
    const [vf] = events(run, 'VenueFill');
    const record = await rig.byHand.getOrder({ orderId: vf!.fill.venueOrderId! });
    // The venue's own numbers, independent of our books: the take-over order's quantity, price and PnL.
    expect(record.category).to.equal(2);
    const pnl = record.profit!;
    expect(fillRow(vf!)).to.deep.equal([PT, 'buy', '20', record.dealAvgPrice!.toFixed(), pnl.toFixed()]);
    // Our book works the PnL out from its entry: (87 500 − take-over price) · 20 · 0.0001, the venue's figure.
    const expected = D(87500).minus(record.dealAvgPrice!).mul(20).mul('0.0001');
    expect([held(run).toFixed(), run.runtime.state.strategyBook(PT).realizedPnl().toFixed()]).to.deep.equal(['0', expected.toFixed()]);
    expect(pnl.toFixed()).to.equal(expected.toFixed());
    // By hand: taken over at the 5x short's bankruptcy price 87 500 · (1 + 1/5) = 105 000, losing the
    // whole initial margin 87 500 · 20 · 0.0001 / 5 = 35.
    expect([record.dealAvgPrice!.toFixed(), pnl.toFixed()]).to.deep.equal(['105000', '-35']);
  });

  it('tells_perp_trend_its_tpsl_is_gone_and_perp_trend_arms_it_again', async () => {
    await openShortAndKill();
    const run = await start(perpTrend);
    await waitFor(async () => (await venueStops()).length > 0, 20_000, 'perp-trend arming its TP/SL');
    // Cancelled at the venue from outside the bot.
    await rig.byHand.cancelAllStopOrders({ symbol: SYM });
    expect(await venueStops()).to.deep.equal([]);
    const rearmed = async () => events(run, 'ProtectionMissing').length > 0 && (await venueStops()).length > 0;
    await waitFor(rearmed, 20_000, 'the TP/SL armed again');
    const [told] = events(run, 'ProtectionMissing');
    expect([told!.strategyId, told!.symbol, told!.leg, told!.quantity.toFixed()]).to.deep.equal([PT, SYM, 'net', '-20']);
    await expectArmed();
    expect(D(events(run, 'TpSlAttached').length).toNumber()).to.equal(2);
  });

  it('does_not_tell_perp_trend_to_rearm_a_stop_that_fired_between_its_position_and_stop_reads', async () => {
    // The runtime reads positions, then stop orders. A stop firing between the two reads used to look
    // like a held position without protection: ProtectionMissing, and perp-trend armed TP/SL again on a
    // position the venue had just closed (refused). The race is forced: the next position read of the
    // run's own client returns its answer only after the test moved the fair price through the stop.
    await openShortAndKill();
    const run = await start(perpTrend);
    await waitFor(async () => (await venueStops()).length > 0, 20_000, 'perp-trend arming its TP/SL');
    await expectArmed();
    // The client's typed methods are fixed; its engine's call is where the position read passes.
    const engine = run.contractClient!.engine;
    const call = engine.call.bind(engine);
    let fired = false;
    let readsAfter = 0;
    engine.call = (async (def: EndpointDef, req?: unknown, opts?: CallOptions) => {
      const answer = await call(def, req, opts);
      if (def.id !== 'contract.openPositions') return answer;
      if (fired) readsAfter++;
      else if ((answer as ContractPosition[]).some((p) => p.symbol === SYM && p.holdVol.gt(0))) {
        fired = true;
        // Through the stop-loss at 87 937.5: the venue buys 20 back at carol's 87 600.
        rig.emu.contract.venue.setFairPrice(SYM, '87950');
      }
      return answer;
    }) as typeof engine.call;
    await waitFor(() => fired && held(run).isZero() && events(run, 'VenueFill').length > 0, 20_000, 'the stop fired and its fill booked');
    // A few reconciliations (500 ms apart, each reads positions) more, in which a re-arm would be attempted.
    const readsAtClose = readsAfter;
    await waitFor(() => readsAfter >= readsAtClose + 4, 20_000, 'four more position reads');
    expect(events(run, 'ProtectionMissing'), 'told the closed position is unprotected').to.deep.equal([]);
    expect(events(run, 'TpSlAttached'), 'TP/SL attached').to.have.length(1);
    expect(events(run, 'IntentFailed'), 'refused requests').to.deep.equal([]);
  });

  it('books_each_funding_payment_on_the_position_owner_once_including_those_settled_while_down', async () => {
    // The short of 20 contracts (0.0001 BTC each) at a fair price of 87 500 is worth 175 USDT.
    // Rate +0.0001: the short receives 175 · 0.0001 = 0.0175. Rate −0.0002 (settled while the bot is
    // down): the short pays 175 · 0.0002 = 0.035. Net for the strategy: 0.0175 − 0.035 = −0.0175.
    await openShortAndKill();
    const run = await start(scripted);
    rig.emu.contract.venue.setFundingRate(SYM, '0.0001');
    rig.emu.contract.venue.settleFunding(SYM);
    const venueRecords = await rig.byHand.fundingRecords({ symbol: SYM });
    expect(
      venueRecords.resultList.map((r) => r.funding.toFixed()),
      "the venue's own record",
    ).to.deep.equal(['0.0175']);
    await waitFor(() => events(run, 'FundingSettled').length > 0, 20_000, 'the funding payment booked');
    const rows = (r: PaperRun) => events(r, 'FundingSettled').map((e) => [e.strategyId, e.symbol, e.leg, e.amount.toFixed(), e.asset]);
    expect(rows(run)).to.deep.equal([[PT, SYM, 'net', '0.0175', 'USDT']]);
    expect(run.runtime.state.strategyBook(PT).fundingTotal().toFixed()).to.equal('0.0175');

    await kill(run);
    rig.emu.contract.venue.setFundingRate(SYM, '-0.0002');
    rig.emu.contract.venue.settleFunding(SYM);
    const after = await start(scripted);
    // Booked at start-up, before any strategy acts: the journal's payment is not booked again.
    expect(rows(after)).to.deep.equal([
      [PT, SYM, 'net', '0.0175', 'USDT'],
      [PT, SYM, 'net', '-0.035', 'USDT'],
    ]);
    expect(after.runtime.state.strategyBook(PT).fundingTotal().toFixed()).to.equal('-0.0175');
  });

  it('keeps_the_venue_tpsl_after_a_restart_instead_of_arming_a_second_one', async () => {
    // perp-trend armed its TP/SL, then the process was killed. The restarted one used to attach TP/SL on its
    // first snapshot of the position (its levels live in memory only), and the venue then held two stop
    // orders on one position. It now reads the venue's stop orders before the strategies start.
    await openShortAndKill();
    const first = await start(perpTrend);
    await waitFor(async () => (await venueStops()).length > 0, 20_000, 'perp-trend arming its TP/SL');
    await kill(first);
    const second = await start(perpTrend);
    // Conditions, not time: the restarted strategy has seen the position on several snapshots and the
    // runtime has reconciled (and checked protection) a few times since.
    const snapshotsAtStart = second.runtime.status().snapshots;
    await waitFor(() => second.runtime.status().snapshots >= snapshotsAtStart + 8, 20_000, 'eight snapshots after the restart');
    await expectArmed();
    expect(events(second, 'TpSlAttached'), 'TP/SL attached by the two runs').to.have.length(1);
    expect(held(second).toFixed()).to.equal('-20');
  });
});
