import { expect } from 'chai';
import fc from 'fast-check';
import { VirtualClock } from '../../src/core/clock.js';
import { D } from '../../src/core/decimal.js';
import { clientOrderId, type ContractSymbol } from '../../src/core/ids.js';
import { CONTRACT_PRESETS } from '../../src/emulator/config/instrument-presets.js';
import { contractInstrumentSchema, toContractInstrument } from '../../src/emulator/config/instrument-schemas.js';
import type { DataRecord } from '../../src/marketdata/record/record.js';
import { ContractSimVenue } from '../../src/backtest/contract-sim-venue.js';
import { resolveFillModel } from '../../src/backtest/fill-model.js';
import { ReplayMarket } from '../../src/backtest/replay-market.js';
import { SimulatedExchange } from '../../src/backtest/simulated-exchange.js';
import { SimulatedGateway } from '../../src/backtest/simulated-gateway.js';
import { loadBacktestData } from '../../src/backtest/backtest-data.js';
import { runBacktest } from '../../src/backtest/backtest-runner.js';
import { perpTrendConfig } from './support/backtest-fixtures.js';

const SYM = 'BTC_USDT' as ContractSymbol;
const head = (et: number) => ({ m: 'contract' as const, i: 'BTC_USDT', et, lt: et });

function setup() {
  const clock = new VirtualClock(1_000);
  const inst = toContractInstrument(contractInstrumentSchema.parse(CONTRACT_PRESETS.BTC_USDT));
  const market = new ReplayMarket([{ instrument: inst, source: { market: 'contract', symbol: 'BTC_USDT' } }]);
  const exchange = new SimulatedExchange(clock, market, resolveFillModel('optimistic'));
  const venue = new ContractSimVenue({ exchange, instruments: [inst], deposits: { USDT: '1000' }, fees: { maker: '0', taker: '0' } });
  const gateway = new SimulatedGateway(exchange, venue);
  const apply = (r: DataRecord): void => {
    if (r.et > clock.now()) clock.advanceTo(r.et);
    market.apply(r);
  };
  // book 59999.9 / 60000.0, 500 contracts a side; fair 60000
  apply({ s: 'depth.snapshot', ...head(1_000), u: 1, b: [['59999.9', '500']], a: [['60000', '500']] });
  apply({ s: 'fair', ...head(1_000), p: '60000' });
  return { clock, venue, gateway, apply };
}

describe('simulated perpetual venue', () => {
  it('settles_the_announced_funding_rate_on_an_open_position', async () => {
    const { venue, gateway, apply } = setup();
    await gateway.setLeverage({ symbol: SYM, leverage: 10, marginMode: 'isolated' });
    await gateway.placeOrder({
      clientOrderId: clientOrderId('pptrend_p_00000000001'),
      order: { symbol: SYM, kind: 'contract', side: 'buy', type: 'market', timeInForce: 'ioc', quantity: D(10), marginMode: 'isolated' },
    });
    expect(venue.fills.map((f) => [f.side, f.price.toFixed(), f.quantity.toFixed()])).to.deep.equal([['buy', '60000', '10']]);
    // 0.001 announced for 8:00; at 8:00 the next record announces 16:00, so 0.001 settles then.
    apply({ s: 'funding', ...head(2_000), r: '0.001', nt: 28_800_000 });
    expect(venue.funding).to.have.length(0);
    apply({ s: 'funding', ...head(28_800_000), r: '0.0002', nt: 57_600_000 });
    // a long pays: 10 contracts · 0.0001 BTC · 60000 (fair) · 0.001 = 0.06 USDT
    expect(venue.funding.map((f) => [f.amount.toFixed(), f.asset, f.leg])).to.deep.equal([['-0.06', 'USDT', 'net']]);
  });

  it('turns_a_liquidation_into_a_fill_of_ours', async () => {
    const { venue, gateway, apply } = setup();
    await gateway.setLeverage({ symbol: SYM, leverage: 100, marginMode: 'isolated' });
    await gateway.placeOrder({
      clientOrderId: clientOrderId('pptrend_p_00000000002'),
      order: { symbol: SYM, kind: 'contract', side: 'buy', type: 'market', timeInForce: 'ioc', quantity: D(10), marginMode: 'isolated' },
    });
    // 100× isolated: initial margin 1 %; a 3 % fall of the fair price is far past maintenance
    apply({ s: 'fair', ...head(2_000), p: '58200' });
    const liq = venue.fills.filter((f) => f.tradeId.startsWith('liq-'));
    expect(liq).to.have.length(1);
    expect(liq[0]!.side).to.equal('sell');
    expect(liq[0]!.quantity.toFixed()).to.equal('10');
    expect(await gateway.positions(SYM)).to.deep.equal([]);
  });

  it('answers_positions_open_orders_and_balances_as_the_venue_holds_them_after_every_change', () => {
    // The simulated venue keeps these answers between polls until the venue announces a change (and
    // balances only while flat). Reference: the venue's own views, read afresh after every step of
    // random places, cancels, fair-price moves and deposits.
    const op = fc.oneof(
      fc.record({ kind: fc.constant('market' as const), buy: fc.boolean(), qty: fc.integer({ min: 1, max: 30 }) }),
      fc.record({ kind: fc.constant('limit' as const), buy: fc.boolean(), away: fc.integer({ min: 1, max: 50 }) }),
      fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('fair' as const), ticks: fc.integer({ min: -300, max: 300 }) }),
      fc.record({ kind: fc.constant('deposit' as const), cents: fc.integer({ min: 1, max: 10_000 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 25 }), (ops) => {
        const { venue, apply, clock } = setup();
        let seq = 0;
        let t = 1_000;
        const check = (): void => {
          const orders = venue.venue.openOrders('backtest', { pageSize: 1000 }).resultList;
          expect(venue.openOrders().map((o) => [o.venueOrderId, o.filledQty.toFixed()])).to.deep.equal(
            orders.map((o) => [o.orderId, o.dealVol.toFixed()]),
          );
          const held = venue.venue.openPositions('backtest').filter((p) => p.holdVol.gt(0));
          expect(venue.positions().map((p) => [p.quantity.abs().toFixed(), p.margin!.toFixed(), p.updatedAt])).to.deep.equal(
            held.map((p) => [p.holdVol.toFixed(), p.im.toFixed(), p.updateTime]),
          );
          const asset = venue.venue.asset('backtest', 'USDT')!;
          const b = venue.balances().balances.USDT!;
          expect([b.free, b.locked, b.equity, b.unrealizedPnl].map((v) => v!.toFixed())).to.deep.equal(
            [asset.availableBalance, asset.frozenBalance, asset.equity, asset.unrealized].map((v) => v.toFixed()),
          );
        };
        check();
        for (const o of ops) {
          clock.advanceTo((t += 1_000));
          const cid = clientOrderId(`pptrend_p_${String(++seq).padStart(11, '0')}`);
          const side = 'buy' in o && o.buy ? ('buy' as const) : ('sell' as const);
          try {
            if (o.kind === 'market')
              venue.place({
                clientOrderId: cid,
                order: { symbol: SYM, kind: 'contract', side, type: 'market', timeInForce: 'ioc', quantity: D(o.qty) },
              });
            else if (o.kind === 'limit') {
              const fair = venue.venue.fairPrice('BTC_USDT')!;
              const price = side === 'buy' ? fair.sub(D('0.1').mul(o.away)) : fair.add(D('0.1').mul(o.away));
              venue.place({
                clientOrderId: cid,
                order: { symbol: SYM, kind: 'contract', side, type: 'limit', timeInForce: 'gtc', quantity: D(1), price },
              });
            } else if (o.kind === 'cancel') {
              const open = venue.openOrders();
              if (open.length > 0) {
                const x = open[o.pick % open.length]!;
                venue.cancel({ symbol: SYM, clientOrderId: x.clientOrderId!, venueOrderId: x.venueOrderId });
              }
            } else if (o.kind === 'fair') {
              const fair = venue.venue.fairPrice('BTC_USDT')!;
              apply({ s: 'fair', ...head(t), p: fair.add(D('0.1').mul(o.ticks)).toFixed() });
            } else venue.venue.deposit('backtest', 'USDT', D(o.cents).div(100).toFixed(2));
          } catch (e) {
            // A refusal (funds, price band) changes nothing; the answers must still match.
            if (!(e instanceof Error) || !/Insufficient|band|range|margin|balance/i.test(`${e.name} ${e.message}`)) throw e;
          }
          check();
        }
      }),
      { numRuns: 60 },
    );
  });

  it('keeps_our_answers_through_the_crowds_funding_and_renews_them_when_our_account_changes', async () => {
    // Our answers are kept while the venue's change count of our account stands still (issue 12). We
    // buy 10 and sell 10 at market (flat again; the crowd accounts that took the other sides now hold
    // positions), then funding settles: it books the crowd's positions and not ours, so the balances
    // kept while flat must be handed back as the very same object. Before the count, every venue event
    // of any account (here FundingSettled and the crowd's PositionChanged) emptied them.
    const { venue, gateway, apply } = setup();
    await gateway.setLeverage({ symbol: SYM, leverage: 10, marginMode: 'cross' });
    for (const [side, n] of [
      ['buy', 5],
      ['sell', 6],
    ] as const)
      await gateway.placeOrder({
        clientOrderId: clientOrderId(`pptrend_p_0000000000${n}`),
        order: { symbol: SYM, kind: 'contract', side, type: 'market', timeInForce: 'ioc', quantity: D(10), marginMode: 'cross' },
      });
    expect(venue.positions()).to.deep.equal([]);
    const kept = venue.balances().balances.USDT!;
    const count = venue.venue.accountChanges('backtest');
    apply({ s: 'funding', ...head(2_000), r: '0.001', nt: 28_800_000 });
    apply({ s: 'funding', ...head(28_800_000), r: '0.0002', nt: 57_600_000 });
    // The crowd was booked: 0.001 of 10 contracts · 0.0001 BTC · 60000 (fair) = 0.06 USDT to one of its accounts.
    const crowd = [0, 1, 2, 3, 4, 5].flatMap((k) => venue.venue.fundingRecords(`crowd-cmaker:BTC_USDT:${k}`).resultList);
    expect(crowd.map((r) => r.funding.abs().toFixed()).sort()).to.deep.equal(['0.06', '0.06']);
    expect(venue.balances().balances.USDT).to.equal(kept);
    expect(venue.venue.accountChanges('backtest')).to.equal(count);
    venue.venue.deposit('backtest', 'USDT', '5');
    expect(venue.venue.accountChanges('backtest')).to.be.greaterThan(count);
    const renewed = venue.balances().balances.USDT!;
    expect(renewed).to.not.equal(kept);
    expect(renewed.free!.minus(kept.free!).toFixed()).to.equal('5');
  });

  it('shows_the_order_margin_a_leverage_change_refroze_while_we_hold_no_position', async () => {
    // Flat with one resting order, balances are kept between polls. A leverage change re-freezes the
    // order's margin and emits no position event (there is no position), so a cache emptied only by
    // events kept the old frozen amount. Reference: the venue's own asset view read afresh (the order
    // margin halves with twice the leverage, so the two figures must differ).
    const { venue, gateway } = setup();
    await gateway.setLeverage({ symbol: SYM, leverage: 10, marginMode: 'cross' });
    venue.place({
      clientOrderId: clientOrderId('pptrend_p_00000000004'),
      order: { symbol: SYM, kind: 'contract', side: 'buy', type: 'limit', timeInForce: 'gtc', quantity: D(1), price: D(59000) },
    });
    const before = venue.balances().balances.USDT!.locked!.toFixed();
    await gateway.setLeverage({ symbol: SYM, leverage: 20, marginMode: 'cross' });
    const after = venue.venue.asset('backtest', 'USDT')!.frozenBalance.toFixed();
    expect(after).to.not.equal(before);
    expect(venue.balances().balances.USDT!.locked!.toFixed()).to.equal(after);
  });

  it('refuses_position_tpsl_unless_the_run_simulates_it', async () => {
    const { gateway } = setup();
    let err: unknown;
    await gateway.attachTpSl({ symbol: SYM, takeProfitPrice: D(61000) }).catch((e: unknown) => (err = e));
    expect((err as Error).name).to.equal('FeatureDisabled');
  });

  it('runs_the_trend_strategy_on_kline_only_bars_and_says_so', async function () {
    this.timeout(60_000);
    const config = perpTrendConfig();
    const { records } = await loadBacktestData(config.backtest.data);
    const r = await runBacktest({ config, records, fillModel: config.fillModels.find((m) => m.name === 'neutral')! });
    expect(r.run.dataRange.klineOnlyIntraBar).to.equal(true);
    expect(r.run.dataRange.streams).to.deep.equal(['funding', 'kline:1m']);
    // 600 one-minute bars replayed as 4 path points each, plus the funding records in the span
    expect(r.stats.events - r.stats.records).to.equal(3 * 600);
    expect(r.run.fills.length).to.be.greaterThan(0);
    expect(r.run.fills.every((f) => f.liquidity === 'taker')).to.equal(true);
    expect(r.run.instruments).to.deep.equal([{ symbol: 'BTC_USDT', kind: 'contract', multiplier: D('0.0001'), settleAsset: 'USDT' }]);
  });
});
