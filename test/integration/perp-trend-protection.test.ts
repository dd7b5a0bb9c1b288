/**
 * Issue 18 item 4: perp-trend protected by the exchange's trailing order (trackorder), end to end over
 * real HTTP against the embedded emulator: placed once, found again (not doubled) after a SIGKILL-like
 * restart, fired AT THE VENUE by the fair price, and booked from the venue's fill so that the
 * strategy's position, the journal and the venue agree afterwards; and a placement whose answer is lost
 * (the venue placed it, the answer never came) is known by its venue id all the same.
 *
 * The emulator's market is stopped: prices move only when the test sets the fair price. carol rests a
 * bid of 20 at 87 500 (the scripted opening sell takes it) and an ask of 40 at 87 600 (what the
 * trailing order's market buy takes). BTC_USDT: contract size 0.0001 BTC, tick 0.1, taker fee 0.0001.
 */
import { expect } from 'chai';
import type { Decimal } from '../../src/core/decimal.js';
import { contractSymbol, strategyId } from '../../src/core/ids.js';
import { carolRuns } from './support/carol-venue.js';
import { type PaperRun, waitFor } from './support/paper-harness.js';
import { SCRIPTS } from './support/scripted-strategy.js';

const SYM = contractSymbol('BTC_USDT');
const PT = strategyId('pt');

SCRIPTS.set('open-short-20-trail', (ctx) => [
  ctx.intents.positionMode('one-way'),
  ctx.intents.market(SYM, 'sell', 20, { leverage: 5, marginMode: 'isolated' }),
]);

describe('integration: perp-trend protected by a trailing order at the venue', function () {
  this.timeout(120_000);
  const rig = carolRuns('perp-trend-trailing');
  const { start, kill, events } = rig;
  const held = (r: PaperRun): Decimal => rig.held(r, PT);
  const liveTrailing = async () => rig.byHand.trackOrders({ states: [0, 1], symbol: SYM });
  // No bar closes within the test (barSeconds 3600): perp-trend only protects what it holds.
  const perpTrend = {
    id: PT,
    name: 'perp-trend',
    instruments: ['BTC_USDT'],
    params: { size: '20', leverage: 5, setPositionMode: false, barSeconds: 3600, protection: { kind: 'trailing', callbackPct: 0.2 } },
  };

  it('places_the_trailing_order_once_across_a_restart_and_books_the_close_it_fires_at_the_venue', async () => {
    const opener = await start({ id: PT, name: 'scripted', instruments: ['BTC_USDT'], params: { script: 'open-short-20-trail' } });
    await waitFor(() => held(opener).eq(-20), 20_000, 'the opening sell of 20');
    await kill(opener);

    const run1 = await start(perpTrend);
    await waitFor(async () => (await liveTrailing()).length > 0, 20_000, 'perp-trend placing its trailing order');
    const [t0] = await liveTrailing();
    // A buy-side (close short, side 2) trailing order, reduce-only in one-way mode, on the fair price
    // (trend 2), callback 0.2 % as the fraction 0.002: benchmark 87 500, trigger 87 500 × 1.002 = 87 675.
    const shape = (t: typeof t0) => [
      t!.side,
      t!.vol?.toFixed(),
      t!.reduceOnly,
      t!.trend,
      t!.backType,
      t!.backValue?.toFixed(),
      t!.leverage,
    ];
    expect(shape(t0)).to.deep.equal([2, '20', true, 2, 1, '0.002', 5]);
    expect([t0!.state, t0!.markPrice?.toFixed(), t0!.triggerPrice?.toFixed()]).to.deep.equal([1, '87500', '87675']);
    expect(events(run1, 'ProtectiveOrderPlaced').map((e) => [e.order.kind, e.order.id])).to.deep.equal([['trailing', t0!.id]]);

    // Restart: the venue's trailing order is found and kept, not doubled.
    await kill(run1);
    const run2 = await start(perpTrend);
    expect(held(run2).toFixed()).to.equal('-20');
    const { reconciles, snapshots } = run2.runtime.stats;
    await waitFor(
      () => run2.runtime.stats.reconciles >= reconciles + 4 && run2.runtime.stats.snapshots >= snapshots + 8,
      20_000,
      'four reconciliations and eight snapshots after the restart',
    );
    expect((await liveTrailing()).map((t) => t.id)).to.deep.equal([t0!.id]);
    expect(events(run2, 'ProtectiveOrderPlaced'), 'nothing placed after the restart').to.have.length(1);
    expect(events(run2, 'ProtectionMissing')).to.deep.equal([]);
    const ordersBefore = events(run2, 'OrderSubmitted').length;

    // A run-down to 87 000: the benchmark follows (lowest fair), trigger 87 000 × 1.002 = 87 174.
    rig.emu.contract.venue.setFairPrice(SYM, '87000');
    rig.emu.contract.venue.setFairPrice(SYM, '87100');
    const [t1] = await liveTrailing();
    expect([t1!.markPrice?.toFixed(), t1!.triggerPrice?.toFixed()]).to.deep.equal(['87000', '87174']);
    // 87 180 ≥ 87 174: it fires; its market buy of 20 takes carol's ask at 87 600.
    rig.emu.contract.venue.setFairPrice(SYM, '87180');
    expect(await rig.byHand.openPositions({})).to.deep.equal([]);
    const [fired] = await rig.byHand.trackOrders({ states: [2], symbol: SYM });
    expect(fired!.id).to.equal(t0!.id);

    await waitFor(() => held(run2).isZero() && events(run2, 'VenueFill').length > 0, 20_000, 'the venue fill booked');
    const [vf, another] = events(run2, 'VenueFill');
    expect(another).to.equal(undefined);
    const f = vf!.fill;
    // Fee 87 600 · 20 · 0.0001 = 175.2 notional · 0.0001 = 0.01752; PnL (87 500 − 87 600) · 20 · 0.0001 = −0.2.
    expect([vf!.strategyId, f.side, f.quantity.toFixed(), f.price.toFixed(), f.realizedPnl?.toFixed(), f.fee.toFixed()]).to.deep.equal([
      PT,
      'buy',
      '20',
      '87600',
      '-0.2',
      '0.01752',
    ]);
    expect(f.venueOrderId).to.equal(fired!.orderId);
    // The strategy closed nothing itself; it asked to cancel the spent trailing order, which the venue no longer held.
    await waitFor(() => events(run2, 'ProtectiveOrderCancelled').length > 0, 20_000, 'the spent trailing order cancelled');
    expect(events(run2, 'ProtectiveOrderCancelled').map((e) => [e.order.id, e.live])).to.deep.equal([[t0!.id, false]]);
    expect(events(run2, 'OrderSubmitted').length).to.equal(ordersBefore);
    expect(run2.runtime.state.strategyBook(PT).realizedPnl().toFixed()).to.equal('-0.2');

    // Journal, strategy and venue agree after another restart: flat, no adjustment needed.
    await kill(run2);
    const run3 = await start(perpTrend);
    expect(held(run3).toFixed()).to.equal('0');
    expect(events(run3, 'PositionAdjusted')).to.deep.equal([]);
    expect(await liveTrailing()).to.deep.equal([]);
  });

  it('knows_the_trailing_order_a_placement_with_a_lost_answer_made', async () => {
    const opener = await start({ id: PT, name: 'scripted', instruments: ['BTC_USDT'], params: { script: 'open-short-20-trail' } });
    await waitFor(() => held(opener).eq(-20), 20_000, 'the opening sell of 20');
    await kill(opener);
    // The venue places the trailing order and the answer never comes (the client gives up after 2 s).
    rig.emu.faults.inject({ match: 'contract.placeTrackOrder', kind: 'drop', times: 1 });
    const run = await start(perpTrend);
    const [placed] = await waitFor(
      () => {
        const got = events(run, 'ProtectiveOrderPlaced');
        return got.length > 0 && got;
      },
      20_000,
      'the lost placement resolved from the venue list',
    );
    expect(rig.emu.faults.firedByKind.drop, 'answers dropped').to.equal(1);
    const live = await liveTrailing();
    expect(
      live.map((t) => t.id),
      'one trailing order at the venue, the one announced',
    ).to.deep.equal([placed!.order.id]);
    expect(placed!.order).to.include({ kind: 'trailing', positionSide: 'short' });
    expect(events(run, 'IntentFailed')).to.deep.equal([]);
    // Known by its id, it is the one the strategy keeps: a while later nothing more is placed.
    const { reconciles } = run.runtime.stats;
    await waitFor(() => run.runtime.stats.reconciles >= reconciles + 4, 20_000, 'four reconciliations');
    expect(events(run, 'ProtectiveOrderPlaced')).to.have.length(1);
    expect((await liveTrailing()).map((t) => t.id)).to.deep.equal([placed!.order.id]);
  });
});
