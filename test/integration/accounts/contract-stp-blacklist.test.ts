import { expect } from 'chai';
import { BadRequest, PermissionDenied } from '../../../src/core/errors.js';
import type { ContractClient } from '../../../src/client/contract-client.js';
import { KEYS, startAccountsKit, type AccountsKit } from './support/accounts-kit.js';
import { rejects } from './support/rejects.js';

/** Market-maker self-trade blacklists (contract-api.md §4.7) and submit_batch, over HTTP. */
describe('contract market-maker blacklists over HTTP', () => {
  let kit: AccountsKit;
  let mm: ContractClient;
  let mmsub: ContractClient;
  let master: ContractClient;

  beforeEach(async () => {
    kit = await startAccountsKit();
    kit.emu.contract.venue.setFairPrice('BTC_USDT', '87500');
    kit.emu.contract.venue.setIndexPrice('BTC_USDT', '87500');
    mm = kit.contract('mm');
    mmsub = kit.contract('mmsub');
    master = kit.contract('master');
  });

  afterEach(async () => {
    expect(kit.emu.checkInvariants()).to.deep.equal([]);
    await kit.close();
  });

  it('creates_queries_updates_searches_and_deletes_a_blacklist', async () => {
    const id = await mm.createStpBlacklist({ configName: 'desk', blacklist: [Number(KEYS.mm.uid), Number(KEYS.mmsub.uid)] });
    expect(id).to.equal(1);
    const [g] = await mm.stpBlacklist({ configName: 'desk' });
    expect([g!.groupName, g!.blackList]).to.deep.equal(['desk', [KEYS.mm.uid, KEYS.mmsub.uid]]);
    await mm.updateStpBlacklist({ configName: 'desk', blacklist: [Number(KEYS.mmsub.uid)] });
    expect((await mm.stpBlacklist({}))[0]!.blackList).to.deep.equal([KEYS.mmsub.uid]);
    const found = (await mm.searchStpBlacklist()) as { groupName: string }[];
    expect(found.map((x) => x.groupName)).to.deep.equal(['desk']);
    await mm.deleteStpBlacklist({ configName: 'desk' });
    expect(await mm.stpBlacklist({})).to.deep.equal([]);
  });

  it('refuses_duplicates_unknown_groups_and_foreign_uids_with_600', async () => {
    await mm.createStpBlacklist({ configName: 'desk', blacklist: [Number(KEYS.mmsub.uid)] });
    const dup = await rejects(mm.createStpBlacklist({ configName: 'desk', blacklist: [Number(KEYS.mmsub.uid)] }));
    expect([dup instanceof BadRequest, dup.venueCode]).to.deep.equal([true, 600]);
    expect((await rejects(mm.updateStpBlacklist({ configName: 'nope', blacklist: [Number(KEYS.mmsub.uid)] }))).venueCode).to.equal(600);
    expect((await rejects(mm.createStpBlacklist({ configName: 'x', blacklist: [Number(KEYS.outsider.uid)] }))).message).to.contain(
      'not a sub-account',
    );
  });

  it('answers_704_to_accounts_that_are_not_market_makers', async () => {
    const e = await rejects(master.stpBlacklist({}));
    expect([e instanceof PermissionDenied, e.venueCode]).to.deep.equal([true, 704]);
    const b = await rejects(
      master.submitBatch([{ symbol: 'BTC_USDT', price: 80000, vol: 1, leverage: 10, side: 1, type: 1, openType: 1, stpMode: 0 }]),
    );
    expect(b.venueCode).to.equal(704);
  });

  it('places_a_batch_for_a_market_maker', async () => {
    const res = await mm.submitBatch([
      { symbol: 'BTC_USDT', price: 80000, vol: 1, leverage: 10, side: 1, type: 1, openType: 1, stpMode: 0, externalOid: 'mm-b1' },
      { symbol: 'BTC_USDT', price: 95000, vol: 1, leverage: 10, side: 3, type: 1, openType: 1, stpMode: 0, externalOid: 'mm-b2' },
    ]);
    expect(res.map((r) => r.errorCode)).to.deep.equal([0, 0]);
    expect((await mm.orderByExternalOid({ symbol: 'BTC_USDT', external_oid: 'mm-b2' })).state).to.equal(2);
  });

  it('cancels_the_maker_between_accounts_of_one_blacklist_and_trades_otherwise', async () => {
    // without a group: mmsub's short and mm's long are different accounts → they trade
    await mmsub.createOrder({ symbol: 'BTC_USDT', price: 87500, vol: 2, leverage: 10, side: 3, type: 1, openType: 1 });
    const t1 = await mm.createOrder({ symbol: 'BTC_USDT', price: 87500, vol: 2, leverage: 10, side: 1, type: 1, openType: 1, stpMode: 2 });
    expect((await mm.getOrder({ orderId: t1.orderId })).state).to.equal(3);

    await mm.createStpBlacklist({ configName: 'desk', blacklist: [Number(KEYS.mm.uid), Number(KEYS.mmsub.uid)] });
    const maker = await mmsub.createOrder({ symbol: 'BTC_USDT', price: 87500, vol: 2, leverage: 10, side: 3, type: 1, openType: 1 });
    const taker = await mm.createOrder({
      symbol: 'BTC_USDT',
      price: 87500,
      vol: 2,
      leverage: 10,
      side: 1,
      type: 1,
      openType: 1,
      stpMode: 2,
    });
    // stpMode 2 = cancel the maker only: mmsub's order is cancelled, mm's rests unfilled
    expect((await mmsub.getOrder({ orderId: maker.orderId })).state).to.equal(4);
    const t = await mm.getOrder({ orderId: taker.orderId });
    expect([t.state, t.dealVol?.toFixed()]).to.deep.equal([2, '0']);
  });
});
