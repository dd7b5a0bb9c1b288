import { expect } from 'chai';
import { VirtualClock } from '../../src/core/clock.js';
import { ExchangeError } from '../../src/core/errors.js';
import { ContractClient, SpotClient, type ClientOptions } from '../../src/client/index.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/start-emulator.js';
import type { EmulatorConfigInput } from '../../src/emulator/emulator-config.js';
import { ALICE, BOB, T0, testConfig } from '../emulator/support/emulator-kit.js';

/**
 * The whole trading lifecycle against a running emulator, driven ONLY through our own SpotClient and
 * ContractClient over real HTTP on 127.0.0.1. The market model is stopped, so the books hold nothing
 * but the orders placed here and every number can be worked out by hand (the arithmetic is in the
 * comments). The test only reaches into the emulator for what a real exchange decides by itself: the
 * fair / index price, the funding rate and the moment of a funding settlement.
 *
 * Fees are configured (not the presets' zero maker rates) so that both sides of every fill pay:
 *   spot      maker 0.0002, taker 0.0005, taken from what each side receives
 *   contract  maker 0.0002, taker 0.0006, on the notional, from the wallet
 *
 * BTCUSDT (spot): reference price 87 500, PERCENT_PRICE_BY_SIDE 0.005 → buys ≤ 87 937.5, sells ≥ 87 062.5.
 * BTC_USDT (perp): contractSize 0.0001 BTC per contract, priceUnit 0.1, tier 1 up to 50 000 contracts
 * with mmr 0.001; price band ±10 % of fair.
 */

const SPOT_MAKER = '0.0002';
const SPOT_TAKER = '0.0005';
const CONTRACT_MAKER = '0.0002';
const CONTRACT_TAKER = '0.0006';
const HOUR = 3_600_000;

function lifecycleConfig(): EmulatorConfigInput {
  const base = testConfig();
  return {
    ...base,
    fees: { spot: { maker: SPOT_MAKER, taker: SPOT_TAKER }, contract: { maker: CONTRACT_MAKER, taker: CONTRACT_TAKER } },
    accounts: [
      {
        name: 'alice',
        uid: '10000001',
        apiKey: ALICE.apiKey,
        secretKey: ALICE.secret,
        spot: { balances: { USDT: '100000', BTC: '2' } },
        contract: { balances: { USDT: '100000' } },
      },
      // Bob may trade contracts here (the shared kit's bob may not).
      {
        name: 'bob',
        uid: '10000003',
        apiKey: BOB.apiKey,
        secretKey: BOB.secret,
        spot: { balances: { USDT: '50000', BTC: '1' } },
        contract: { balances: { USDT: '50000' } },
      },
    ],
  };
}

async function venueCodeOf(p: Promise<unknown>): Promise<number | undefined> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ExchangeError) return e.venueCode as number | undefined;
    throw e;
  }
  return undefined;
}

describe('emulator lifecycle through our own clients', function () {
  this.timeout(20_000);
  let clock: VirtualClock;
  let emu: RunningEmulator;
  let spotAlice: SpotClient;
  let spotBob: SpotClient;
  let futAlice: ContractClient;
  let futBob: ContractClient;

  before(async () => {
    clock = new VirtualClock(T0);
    emu = await startEmulator(lifecycleConfig(), { clock, marketStopped: true });
    expect(emu.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    const opts: Omit<ClientOptions, 'credentials'> = { baseUrl: emu.url, clock, rateLimits: false, timeSync: false };
    const alice = { apiKey: ALICE.apiKey, secretKey: ALICE.secret };
    const bob = { apiKey: BOB.apiKey, secretKey: BOB.secret };
    spotAlice = new SpotClient({ ...opts, credentials: alice });
    spotBob = new SpotClient({ ...opts, credentials: bob });
    futAlice = new ContractClient({ ...opts, credentials: alice });
    futBob = new ContractClient({ ...opts, credentials: bob });
  });

  after(async () => {
    await Promise.all([spotAlice?.close(), spotBob?.close(), futAlice?.close(), futBob?.close()]);
    await emu?.stop();
  });

  /**
   * GET /api/v3/account is limited to 2 requests a second (rate-limits config); the virtual clock only
   * moves when told, so each balance check lets one second pass, as a paced client would.
   */
  const spotBalance = async (c: SpotClient, asset: string) => {
    emu.advance(1000);
    const b = (await c.account({})).balances.find((x) => x.asset === asset);
    return { free: b?.free.toFixed() ?? '0', locked: b?.locked.toFixed() ?? '0' };
  };

  it('spot_place_partial_fill_amend_query_batch_cancel_and_history', async () => {
    // ── place: alice bids 0.01 BTC at 87 200 (inside the buy band ≤ 87 937.5).
    const buy1 = await spotAlice.newOrder({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.01',
      price: '87200',
      newClientOrderId: 'lc-s-buy1',
    });
    // locked 0.01 × 87 200 = 872; free 100 000 − 872 = 99 128.
    expect(await spotBalance(spotAlice, 'USDT')).to.deep.equal({ free: '99128', locked: '872' });

    // ── partial fill: bob sells 0.004 into it (87 200 ≥ 87 062.5, inside the sell band); bob takes, alice makes.
    const sell = await spotBob.newOrder({
      symbol: 'BTCUSDT',
      side: 'SELL',
      type: 'LIMIT',
      quantity: '0.004',
      price: '87200',
      newClientOrderId: 'lc-s-bob1',
    });
    let q = await spotAlice.queryOrder({ symbol: 'BTCUSDT', orderId: buy1.orderId });
    // executed 0.004; quote 0.004 × 87 200 = 348.8
    expect([q.status, q.executedQty.toFixed(), q.cummulativeQuoteQty.toFixed(), q.origQty.toFixed()]).to.deep.equal([
      'PARTIALLY_FILLED',
      '0.004',
      '348.8',
      '0.01',
    ]);
    expect((await spotBob.queryOrder({ symbol: 'BTCUSDT', orderId: sell.orderId })).status).to.equal('FILLED');
    // Alice (maker 0.0002) receives 0.004 BTC less 0.004 × 0.0002 = 0.0000008 → 2 + 0.0039992 = 2.0039992.
    expect(await spotBalance(spotAlice, 'BTC')).to.deep.equal({ free: '2.0039992', locked: '0' });
    // Her lock shrinks by what she paid: 872 − 348.8 = 523.2; free stays 99 128.
    expect(await spotBalance(spotAlice, 'USDT')).to.deep.equal({ free: '99128', locked: '523.2' });
    // Bob (taker 0.0005) receives 348.8 USDT less 348.8 × 0.0005 = 0.1744 → 50 000 + 348.6256 = 50 348.6256.
    expect(await spotBalance(spotBob, 'USDT')).to.deep.equal({ free: '50348.6256', locked: '0' });
    // 1 − 0.004 = 0.996 BTC, nothing left locked (his order filled completely).
    expect(await spotBalance(spotBob, 'BTC')).to.deep.equal({ free: '0.996', locked: '0' });

    // ── amend: spot has no amend, so a client cancels and places the rest at the new price.
    const cancelled = await spotAlice.cancelOrder({ symbol: 'BTCUSDT', origClientOrderId: 'lc-s-buy1' });
    expect([cancelled.status, cancelled.executedQty?.toFixed()]).to.deep.equal(['PARTIALLY_CANCELED', '0.004']);
    // The 523.2 lock is released: 99 128 + 523.2 = 99 651.2.
    expect(await spotBalance(spotAlice, 'USDT')).to.deep.equal({ free: '99651.2', locked: '0' });
    const rest = q.origQty.minus(q.executedQty).toFixed(); // 0.01 − 0.004 = 0.006
    const buy2 = await spotAlice.newOrder({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: rest,
      price: '87300',
      newClientOrderId: 'lc-s-buy2',
    });
    // 0.006 × 87 300 = 523.8 locked; 99 651.2 − 523.8 = 99 127.4 free.
    expect(await spotBalance(spotAlice, 'USDT')).to.deep.equal({ free: '99127.4', locked: '523.8' });

    // ── query: by orderId and by clientOrderId; open orders.
    q = await spotAlice.queryOrder({ symbol: 'BTCUSDT', origClientOrderId: 'lc-s-buy1' });
    expect([q.orderId, q.status, q.executedQty.toFixed(), q.cummulativeQuoteQty.toFixed()]).to.deep.equal([
      buy1.orderId,
      'PARTIALLY_CANCELED',
      '0.004',
      '348.8',
    ]);
    const q2 = await spotAlice.queryOrder({ symbol: 'BTCUSDT', orderId: buy2.orderId });
    expect([q2.clientOrderId, q2.status, q2.price?.toFixed(), q2.origQty.toFixed(), q2.executedQty.toFixed()]).to.deep.equal([
      'lc-s-buy2',
      'NEW',
      '87300',
      '0.006',
      '0',
    ]);
    expect((await spotAlice.openOrders({ symbol: 'BTCUSDT' })).map((o) => o.clientOrderId)).to.deep.equal(['lc-s-buy2']);

    // ── batch: one good (a resting ask above the bid), one bad (0.00001 × 87 300 = 0.873 USDT < the 1 USDT minimum → 30002).
    const batch = await spotAlice.batchOrders({
      batchOrders: [
        { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', quantity: '0.002', price: '87900', newClientOrderId: 'lc-s-ask1' },
        { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.00001', price: '87300', newClientOrderId: 'lc-s-tiny' },
      ],
    });
    expect(batch.map((r) => r.ok)).to.deep.equal([true, false]);
    expect(batch[1]).to.deep.include({ ok: false, code: 30002, newClientOrderId: 'lc-s-tiny' });
    // The ask locks 0.002 BTC: 2.0039992 − 0.002 = 2.0019992 free.
    expect(await spotBalance(spotAlice, 'BTC')).to.deep.equal({ free: '2.0019992', locked: '0.002' });
    expect((await spotAlice.openOrders({ symbol: 'BTCUSDT' })).map((o) => o.clientOrderId).sort()).to.deep.equal([
      'lc-s-ask1',
      'lc-s-buy2',
    ]);

    // ── cancel: the ask by client id, then everything left.
    expect((await spotAlice.cancelOrder({ symbol: 'BTCUSDT', origClientOrderId: 'lc-s-ask1' })).status).to.equal('CANCELED');
    expect(await spotBalance(spotAlice, 'BTC')).to.deep.equal({ free: '2.0039992', locked: '0' });
    expect(await venueCodeOf(spotAlice.cancelOrder({ symbol: 'BTCUSDT', origClientOrderId: 'lc-s-ask1' }))).to.equal(-2011);
    expect((await spotAlice.cancelOpenOrders({ symbol: 'BTCUSDT' })).map((o) => [o.orderId, o.status])).to.deep.equal([
      [buy2.orderId, 'CANCELED'],
    ]);
    expect(await spotAlice.openOrders({ symbol: 'BTCUSDT' })).to.deep.equal([]);
    // All that is left of the spot day: alice paid 348.8 USDT for 0.0039992 BTC.
    expect(await spotBalance(spotAlice, 'USDT')).to.deep.equal({ free: '99651.2', locked: '0' });

    // ── history: every placed order with its final status (the refused batch item never became an order).
    const all = await spotAlice.allOrders({ symbol: 'BTCUSDT' });
    expect(all.map((o) => [o.clientOrderId, o.status, o.executedQty.toFixed(), o.cummulativeQuoteQty.toFixed()])).to.deep.equal([
      ['lc-s-buy1', 'PARTIALLY_CANCELED', '0.004', '348.8'],
      ['lc-s-buy2', 'CANCELED', '0', '0'],
      ['lc-s-ask1', 'CANCELED', '0', '0'],
    ]);
    const mine = await spotAlice.myTrades({ symbol: 'BTCUSDT' });
    expect(
      mine.map((t) => [
        t.orderId,
        t.price.toFixed(),
        t.qty.toFixed(),
        t.quoteQty?.toFixed(),
        t.commission?.toFixed(),
        t.commissionAsset,
        t.isBuyer,
        t.isMaker,
      ]),
    ).to.deep.equal([[buy1.orderId, '87200', '0.004', '348.8', '0.0000008', 'BTC', true, true]]);
    const bobs = await spotBob.myTrades({ symbol: 'BTCUSDT' });
    expect(bobs.map((t) => [t.orderId, t.commission?.toFixed(), t.commissionAsset, t.isBuyer, t.isMaker])).to.deep.equal([
      [sell.orderId, '0.1744', 'USDT', false, false],
    ]);
    expect(bobs[0]!.id).to.equal(mine[0]!.id);
    // Conservation: USDT 99 651.2 + 50 348.6256 + fee 0.1744 = 150 000; BTC 2.0039992 + 0.996 + fee 0.0000008 = 3.
    expect(emu.checkInvariants()).to.deep.equal([]);
  });

  it('contract_leverage_amend_chase_cancel_funding_and_liquidation', async () => {
    const S = 'BTC_USDT';
    emu.contract.venue.setFairPrice(S, '87500');
    emu.contract.venue.setIndexPrice(S, '87500');
    // Each check lets a second pass (contract endpoints allow 20 requests per 2 s each).
    const usdt = async (c: ContractClient) => {
      emu.advance(1000);
      const a = await c.asset({ currency: 'USDT' });
      return {
        available: a.availableBalance.toFixed(),
        frozen: a.frozenBalance.toFixed(),
        margin: a.positionMargin.toFixed(),
        cash: a.cashBalance?.toFixed(),
      };
    };

    // ── bob rests an isolated 10× short of 1 500 contracts at 87 500 (hedged mode, side 3 = open short).
    const bobShort = await futBob.createOrder({
      symbol: S,
      price: 87500,
      vol: 1500,
      leverage: 10,
      side: 3,
      type: 1,
      openType: 1,
      externalOid: 'lc-c-bob-short',
    });
    // notional 1 500 × 0.0001 × 87 500 = 13 125; reserve = 13 125 / 10 + 13 125 × max(maker, taker) 0.0006
    //   = 1 312.5 + 7.875 = 1 320.375; available 50 000 − 1 320.375 = 48 679.625.
    expect(await usdt(futBob)).to.deep.equal({ available: '48679.625', frozen: '1320.375', margin: '0', cash: '50000' });

    // ── alice opens a 10× isolated long of 1 000 contracts: takes 1 000 of bob's 1 500.
    const open = await futAlice.createOrder({
      symbol: S,
      price: 87500,
      vol: 1000,
      leverage: 10,
      side: 1,
      type: 1,
      openType: 1,
      externalOid: 'lc-c-open',
    });
    const opened = await futAlice.orderByExternalOid({ symbol: S, external_oid: 'lc-c-open' });
    // notional 1 000 × 0.0001 × 87 500 = 8 750; taker fee 8 750 × 0.0006 = 5.25; im 8 750 / 10 = 875.
    expect([
      opened.orderId,
      opened.state,
      opened.dealVol?.toFixed(),
      opened.dealAvgPrice?.toFixed(),
      opened.takerFee?.toFixed(),
      opened.usedMargin?.toFixed(),
    ]).to.deep.equal([open.orderId, 3, '1000', '87500', '5.25', '875']);
    const [pos] = await futAlice.openPositions({ symbol: S });
    expect(pos).to.not.equal(undefined);
    // liquidation price (margin-math): (C − im) / (Q·(1 − mmr)) = (8 750 − 875) / (0.1 × 0.999) = 78 828.8288… → up to the tick 78 828.9
    expect([
      pos!.positionType,
      pos!.openType,
      pos!.state,
      pos!.holdVol.toFixed(),
      pos!.holdAvgPrice?.toFixed(),
      pos!.im?.toFixed(),
      pos!.oim?.toFixed(),
      pos!.leverage,
      pos!.liquidatePrice?.toFixed(),
    ]).to.deep.equal([1, 1, 1, '1000', '87500', '875', '875', 10, '78828.9']);
    // 100 000 − 875 − 5.25 = 99 119.75 available; cash = available + margin = 99 994.75.
    expect(await usdt(futAlice)).to.deep.equal({ available: '99119.75', frozen: '0', margin: '875', cash: '99994.75' });

    // Bob's order is partially filled (state 2): maker fee 8 750 × 0.0002 = 1.75, im 875.
    const bobOrder = await futBob.getOrder({ orderId: bobShort.orderId });
    expect([bobOrder.state, bobOrder.dealVol?.toFixed(), bobOrder.makerFee?.toFixed(), bobOrder.orderMargin?.toFixed()]).to.deep.equal([
      2,
      '1000',
      '1.75',
      '440.125',
    ]);
    // The remaining 500 reserve 4 375 / 10 + 4 375 × 0.0006 = 437.5 + 2.625 = 440.125;
    // available 50 000 − 440.125 − 875 − 1.75 = 48 683.125.
    expect(await usdt(futBob)).to.deep.equal({ available: '48683.125', frozen: '440.125', margin: '875', cash: '49998.25' });
    // Bob cancels the rest (errorCode 0) and gets the reserve back: 48 683.125 + 440.125 = 49 123.25.
    expect((await futBob.cancelOrders([bobShort.orderId])).map((r) => r.errorCode)).to.deep.equal([0]);
    expect(await usdt(futBob)).to.deep.equal({ available: '49123.25', frozen: '0', margin: '875', cash: '49998.25' });

    // ── amend: alice rests a 200-contract bid at 86 000, then changes it to 300 at 86 500.
    const bid = await futAlice.createOrder({
      symbol: S,
      price: 86000,
      vol: 200,
      leverage: 10,
      side: 1,
      type: 1,
      openType: 1,
      externalOid: 'lc-c-bid',
    });
    // 200 × 0.0001 × 86 000 = 1 720 → 172 + 1 720 × 0.0006 = 172 + 1.032 = 173.032 reserved.
    expect((await futAlice.getOrder({ orderId: bid.orderId })).orderMargin?.toFixed()).to.equal('173.032');
    const changed = await futAlice.changeLimitOrder({ orderId: bid.orderId, price: 86500, vol: 300 });
    expect(String(changed)).to.equal(bid.orderId);
    let b = await futAlice.getOrder({ orderId: bid.orderId });
    // 300 × 0.0001 × 86 500 = 2 595 → 259.5 + 1.557 = 261.057 reserved; 99 119.75 − 261.057 = 98 858.693.
    expect([b.price.toFixed(), b.vol.toFixed(), b.state, b.orderMargin?.toFixed()]).to.deep.equal(['86500', '300', 2, '261.057']);
    expect(await usdt(futAlice)).to.deep.equal({ available: '98858.693', frozen: '261.057', margin: '875', cash: '99994.75' });

    // ── chase: bob bids 10 contracts at 87 400 (open long); alice's bid chases to the best bid of its side.
    const bobBid = await futBob.createOrder({ symbol: S, price: 87400, vol: 10, leverage: 10, side: 1, type: 1, openType: 1 });
    await futAlice.chaseLimitOrder({ orderId: bid.orderId });
    b = await futAlice.getOrder({ orderId: bid.orderId });
    // 300 × 0.0001 × 87 400 = 2 622 → 262.2 + 1.5732 = 263.7732 reserved; nothing crossed (no asks left).
    expect([b.price.toFixed(), b.vol.toFixed(), b.dealVol?.toFixed(), b.orderMargin?.toFixed()]).to.deep.equal([
      '87400',
      '300',
      '0',
      '263.7732',
    ]);
    const depth = await futAlice.depth({ symbol: S });
    expect(depth.bids.map((l) => [l.price.toFixed(), l.vol.toFixed()])).to.deep.equal([['87400', '310']]);
    expect(depth.asks).to.deep.equal([]);

    // ── cancel both resting bids; a second cancel of a finished order answers 2041.
    expect((await futAlice.cancelOrders([bid.orderId])).map((r) => [r.orderId, r.errorCode])).to.deep.equal([[bid.orderId, 0]]);
    expect((await futAlice.cancelOrders([bid.orderId])).map((r) => [r.orderId, r.errorCode])).to.deep.equal([[bid.orderId, 2041]]);
    expect((await futBob.cancelOrders([bobBid.orderId])).map((r) => r.errorCode)).to.deep.equal([0]);
    expect(await usdt(futAlice)).to.deep.equal({ available: '99119.75', frozen: '0', margin: '875', cash: '99994.75' });
    expect(await futAlice.openOrders({})).to.deep.equal([]);
    const hist = await futAlice.historyOrders({ symbol: S });
    expect(hist.map((o) => [o.orderId, o.state]).sort()).to.deep.equal(
      [
        [open.orderId, 3],
        [bid.orderId, 4],
      ].sort(),
    );

    // ── funding: the 8-hour cycle settles at 08:00 UTC; the fair price has moved to 88 000 and the rate is 0.0003.
    const settleAt = T0 + 8 * HOUR;
    emu.advance(settleAt - clock.now());
    expect(clock.now()).to.equal(settleAt);
    emu.contract.venue.setFairPrice(S, '88000');
    emu.contract.venue.setIndexPrice(S, '88000');
    emu.contract.venue.setFundingRate(S, '0.0003');
    const fr = await futAlice.fundingRate({ symbol: S });
    expect([fr.fundingRate.toFixed(), fr.collectCycle, fr.nextSettleTime]).to.deep.equal(['0.0003', 8, settleAt]);
    // What the market model's price board does at each settle time (ContractEngine.follow): rate, then settle.
    emu.contract.venue.settleFunding(S);
    // The next settlement is one cycle later: 16:00 UTC.
    expect((await futAlice.fundingRate({ symbol: S })).nextSettleTime).to.equal(settleAt + 8 * HOUR);
    // positionValue at fair: 0.1 BTC × 88 000 = 8 800; funding 8 800 × 0.0003 = 2.64 — paid by the long, received by the short.
    const window = { symbol: S, start_time: T0, end_time: settleAt, page_num: 1, page_size: 20 };
    const aliceFunding = await futAlice.fundingRecords({ ...window, position_type: 1 });
    expect(
      aliceFunding.resultList.map((r) => [r.positionType, r.positionValue?.toFixed(), r.funding.toFixed(), r.rate.toFixed(), r.settleTime]),
    ).to.deep.equal([[1, '8800', '-2.64', '0.0003', settleAt]]);
    const bobFunding = await futBob.fundingRecords({ ...window, position_type: 2 });
    expect(
      bobFunding.resultList.map((r) => [r.positionType, r.positionValue?.toFixed(), r.funding.toFixed(), r.rate.toFixed(), r.settleTime]),
    ).to.deep.equal([[2, '8800', '2.64', '0.0003', settleAt]]);
    const hist1 = await futAlice.fundingRateHistory({ symbol: S, page_num: 1, page_size: 10 });
    expect(hist1.resultList.map((h) => [h.fundingRate.toFixed(), h.settleTime])).to.deep.equal([['0.0003', settleAt]]);
    // Isolated positions settle funding in their margin: alice im 875 − 2.64 = 872.36, bob 875 + 2.64 = 877.64.
    const [along] = await futAlice.openPositions({ symbol: S });
    const [bshort] = await futBob.openPositions({ symbol: S });
    // Alice's new liquidation price: (8 750 − 872.36) / 0.0999 = 78 855.2552… → 78 855.3.
    expect([along!.im?.toFixed(), along!.holdFee?.toFixed(), along!.liquidatePrice?.toFixed()]).to.deep.equal([
      '872.36',
      '-2.64',
      '78855.3',
    ]);
    expect([bshort!.positionType, bshort!.im?.toFixed(), bshort!.holdFee?.toFixed()]).to.deep.equal([2, '877.64', '2.64']);
    // Cash moves by the funding, available does not: alice 99 994.75 − 2.64 = 99 992.11, bob 49 998.25 + 2.64 = 50 000.89.
    expect(await usdt(futAlice)).to.deep.equal({ available: '99119.75', frozen: '0', margin: '872.36', cash: '99992.11' });
    expect(await usdt(futBob)).to.deep.equal({ available: '49123.25', frozen: '0', margin: '877.64', cash: '50000.89' });

    // ── liquidation. Breach when im + Q·P − C ≤ mmr·Q·P:
    //   at 78 855.3: 872.36 + 7 885.53 − 8 750 = 7.89  >  0.001 × 7 885.53 = 7.88553 → still open
    //   at 78 855.2: 872.36 + 7 885.52 − 8 750 = 7.88  ≤  0.001 × 7 885.52 = 7.88552 → liquidated
    emu.advance(1000);
    emu.contract.venue.setFairPrice(S, '78855.3');
    expect((await futAlice.openPositions({ symbol: S })).map((p) => p.holdVol.toFixed())).to.deep.equal(['1000']);
    emu.advance(1000);
    emu.contract.venue.setFairPrice(S, '78855.2');
    expect(await futAlice.openPositions({ symbol: S })).to.deep.equal([]);
    // The fund takes the long over at the bankruptcy price (C − im) / Q = 7 877.64 / 0.1 = 78 776.4 (on the tick):
    // realised 0.1 × (78 776.4 − 87 500) = −872.36, exactly the margin; fees and funding stay where they were.
    const closed = (await futAlice.historyPositions({ symbol: S })).resultList;
    expect(
      closed.map((p) => [
        p.positionId,
        p.state,
        p.holdVol.toFixed(),
        p.closeVol?.toFixed(),
        p.closeAvgPrice?.toFixed(),
        p.closeProfitLoss?.toFixed(),
        p.im?.toFixed(),
      ]),
    ).to.deep.equal([[pos!.positionId, 3, '0', '1000', '78776.4', '-872.36', '0']]);
    const liq = (await futAlice.historyOrders({ symbol: S })).find((o) => o.category === 2);
    expect([liq?.side, liq?.state, liq?.dealVol?.toFixed(), liq?.dealAvgPrice?.toFixed(), liq?.profit?.toFixed()]).to.deep.equal([
      4,
      3,
      '1000',
      '78776.4',
      '-872.36',
    ]);
    // Alice loses exactly the position margin: cash 99 992.11 − 872.36 = 99 119.75, all of it available.
    expect(await usdt(futAlice)).to.deep.equal({ available: '99119.75', frozen: '0', margin: '0', cash: '99119.75' });
    // Her whole contract story: 100 000 − 5.25 fee − 2.64 funding − 872.36 margin = 99 119.75.
    // Bob's short is untouched by her liquidation (the fund took the other side of her long).
    const [bAfter] = await futBob.openPositions({ symbol: S });
    expect([bAfter!.holdVol.toFixed(), bAfter!.im?.toFixed()]).to.deep.equal(['1000', '877.64']);
    expect(emu.checkInvariants()).to.deep.equal([]);
  });
});
