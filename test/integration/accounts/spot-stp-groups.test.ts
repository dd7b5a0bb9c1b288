import { expect } from 'chai';
import { PermissionDenied } from '../../../src/core/errors.js';
import type { SpotClient } from '../../../src/client/spot-client.js';
import { KEYS, startAccountsKit, type AccountsKit } from './support/accounts-kit.js';
import { rejects } from './support/rejects.js';
import { spotSigned } from '../../emulator/support/emulator-kit.js';

/** Spot STP strategy groups over HTTP (spot-api.md §2.8, §4.5) and their effect on matching. */
describe('spot STP strategy groups over HTTP', () => {
  let kit: AccountsKit;
  let master: SpotClient;
  let sub1: SpotClient;
  let sub2: SpotClient;
  let outsider: SpotClient;

  beforeEach(async () => {
    kit = await startAccountsKit();
    master = kit.spot('master');
    sub1 = kit.spot('sub1');
    sub2 = kit.spot('sub2');
    outsider = kit.spot('outsider');
  });

  afterEach(async () => {
    expect(kit.emu.checkInvariants()).to.deep.equal([]);
    await kit.close();
  });

  it('creates_queries_changes_and_deletes_a_group', async () => {
    const created = await master.createStpGroup({ tradeGroupName: 'desk-a' });
    expect(created.tradeGroupName).to.equal('desk-a');
    const id = created.tradeGroupId;
    const added = await master.addStpGroupUid({ uid: [KEYS.sub1.uid, KEYS.sub2.uid], tradeGroupId: id });
    expect(added.tradeGroupUid).to.deep.equal([KEYS.sub1.uid, KEYS.sub2.uid]);
    const [g] = await master.queryStpGroups({ tradeGroupName: 'desk-a' });
    expect([g!.tradeGroupId, g!.tradeGroupUid]).to.deep.equal([id, [KEYS.sub1.uid, KEYS.sub2.uid]]);
    expect(await master.deleteStpGroupUid({ uid: KEYS.sub2.uid, tradeGroupId: id })).to.equal(true);
    expect((await master.queryStpGroups({ tradeGroupName: 'desk-a' }))[0]!.tradeGroupUid).to.deep.equal([KEYS.sub1.uid]);
    expect(await master.deleteStpGroup({ tradeGroupId: id })).to.equal(true);
    expect(await master.queryStpGroups({ tradeGroupName: 'desk-a' })).to.deep.equal([]);
  });

  it('accepts_add_uid_as_get_as_well_as_post', async () => {
    const g = await master.createStpGroup({ tradeGroupName: 'desk-get' });
    const res = await spotSigned(
      kit.emu.url,
      'GET',
      '/api/v3/strategy/group/uid',
      { uid: KEYS.sub1.uid, tradeGroupId: g.tradeGroupId },
      { timestamp: kit.clock.now(), key: { apiKey: KEYS.master.apiKey, secret: KEYS.master.secret } },
    );
    expect(res.json).to.deep.include({ code: 0 });
    expect((await master.queryStpGroups({ tradeGroupName: 'desk-get' }))[0]!.tradeGroupUid).to.deep.equal([KEYS.sub1.uid]);
  });

  it('enforces_master_only_unique_names_ten_groups_and_own_uids', async () => {
    expect((await rejects(sub1.createStpGroup({ tradeGroupName: 'x' }))).venueCode).to.equal(700007);
    expect(await rejects(sub1.createStpGroup({ tradeGroupName: 'x' }))).to.be.instanceOf(PermissionDenied);
    const first = await master.createStpGroup({ tradeGroupName: 'g0' });
    expect((await rejects(master.createStpGroup({ tradeGroupName: 'g0' }))).venueCode).to.equal(730002);
    for (let i = 1; i < 10; i++) await master.createStpGroup({ tradeGroupName: `g${i}` });
    expect((await rejects(master.createStpGroup({ tradeGroupName: 'g10' }))).message).to.contain('at most 10');
    // another master keeps its own count and names
    expect((await outsider.createStpGroup({ tradeGroupName: 'g0' })).tradeGroupName).to.equal('g0');
    // the outsider's UID is not under this master
    expect(await rejects(master.addStpGroupUid({ uid: KEYS.outsider.uid, tradeGroupId: first.tradeGroupId }))).to.be.instanceOf(
      PermissionDenied,
    );
    // nor may the outsider touch this master's group
    expect((await rejects(outsider.deleteStpGroup({ tradeGroupId: first.tradeGroupId }))).venueCode).to.equal(730002);
  });

  it('cancels_the_maker_of_a_self_trade_inside_a_group_but_not_outside', async () => {
    const g = await master.createStpGroup({ tradeGroupName: 'desk' });
    await master.addStpGroupUid({ uid: [KEYS.sub1.uid, KEYS.sub2.uid], tradeGroupId: g.tradeGroupId });

    // inside: sub2 rests a sell, sub1 buys into it with cancel_maker → sub2's order is cancelled by STP
    const makerIn = await sub2.newOrder({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', quantity: '0.01', price: '87500' });
    const takerIn = await sub1.newOrder({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.01',
      price: '87500',
      stpMode: 'cancel_maker',
    });
    const m = await sub2.queryOrder({ symbol: 'BTCUSDT', orderId: makerIn.orderId });
    expect([m.status, m.cancelReason]).to.deep.equal(['CANCELED', 'stp_cancel']);
    const t = await sub1.queryOrder({ symbol: 'BTCUSDT', orderId: takerIn.orderId });
    expect([t.status, t.executedQty.toFixed()]).to.deep.equal(['NEW', '0']);
    await sub1.cancelOrder({ symbol: 'BTCUSDT', orderId: takerIn.orderId });

    // outside: the outsider is in no group; the same stpMode trades
    await outsider.newOrder({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', quantity: '0.01', price: '87500' });
    const takerOut = await sub1.newOrder({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.01',
      price: '87500',
      stpMode: 'cancel_maker',
    });
    const o = await sub1.queryOrder({ symbol: 'BTCUSDT', orderId: takerOut.orderId });
    expect([o.status, o.executedQty.toFixed()]).to.deep.equal(['FILLED', '0.01']);
    // 0.01 BTC bought at 87 500, taker 0.0005 of the base received: 0.01 − 0.000005 = 0.009995
    const btc = (await sub1.account()).balances.find((b) => b.asset === 'BTC')!;
    expect(btc.free.toFixed()).to.equal('2.009995');
  });

  it('lets_self_trades_happen_when_no_group_holds_the_account', async () => {
    await sub1.newOrder({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', quantity: '0.01', price: '87500' });
    const taker = await sub1.newOrder({
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '0.01',
      price: '87500',
      stpMode: 'cancel_both',
    });
    const o = await sub1.queryOrder({ symbol: 'BTCUSDT', orderId: taker.orderId });
    expect(o.status).to.equal('FILLED');
    const trades = await sub1.myTrades({ symbol: 'BTCUSDT' });
    expect(trades.map((x) => x.isSelfTrade)).to.deep.equal([true, true]);
  });
});
