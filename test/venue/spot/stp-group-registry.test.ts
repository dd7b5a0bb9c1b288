import { expect } from 'chai';
import { StpGroupRegistry, StpGroups } from '../../../src/venue/spot/stp-groups.js';
import { fund, harness, str } from './spot-fixtures.js';

/** m1 is a master with subs s1, s2 (UIDs 1, 11, 12); m2 a master with sub t1 (UIDs 2, 21). */
const UIDS: Record<string, { accountId: string; masterAccountId: string }> = {
  '1': { accountId: 'm1', masterAccountId: 'm1' },
  '11': { accountId: 's1', masterAccountId: 'm1' },
  '12': { accountId: 's2', masterAccountId: 'm1' },
  '2': { accountId: 'm2', masterAccountId: 'm2' },
  '21': { accountId: 't1', masterAccountId: 'm2' },
};
const MASTER: Record<string, string> = { m1: 'm1', s1: 'm1', s2: 'm1', m2: 'm2', t1: 'm2' };

function registry(membership = new StpGroups()) {
  let t = 1000;
  return new StpGroupRegistry({ now: () => t++, membership, memberOfUid: (u) => UIDS[u], masterOf: (a) => MASTER[a] ?? a });
}

describe('StpGroupRegistry', () => {
  it('creates_groups_with_unique_names_per_master', () => {
    const r = registry();
    const a = r.create('m1', 'desk');
    expect(a.ok && a.value.tradeGroupId).to.equal('1001');
    expect(r.create('m1', 'desk')).to.include({ ok: false, refusal: 'name_taken' });
    // another master may use the same name
    expect(r.create('m2', 'desk').ok).to.equal(true);
  });

  it('refuses_a_sub_account', () => {
    expect(registry().create('s1', 'desk')).to.include({ ok: false, refusal: 'not_master' });
  });

  it('allows_at_most_ten_groups_per_master', () => {
    const r = registry();
    for (let i = 0; i < 10; i++) expect(r.create('m1', `g${i}`).ok).to.equal(true);
    expect(r.create('m1', 'g10')).to.include({ ok: false, refusal: 'too_many_groups' });
    expect(r.create('m2', 'g10').ok).to.equal(true);
  });

  it('adds_only_uids_under_the_master_and_mirrors_membership', () => {
    const membership = new StpGroups();
    const r = registry(membership);
    const g = r.create('m1', 'desk');
    if (!g.ok) throw new Error('create');
    const id = g.value.tradeGroupId;
    expect(r.addUids('m1', id, ['11', '21'])).to.include({ ok: false, refusal: 'foreign_uid' });
    const added = r.addUids('m1', id, ['11', '12', '11']);
    expect(added.ok && added.value.added).to.deep.equal(['11', '12']);
    expect(membership.sameGroup('s1', 's2')).to.equal(true);
    expect(r.byName('s1', 'desk')[0]!.uids).to.deep.equal(['11', '12']);
    r.removeUids('m1', id, ['12']);
    expect(membership.sameGroup('s1', 's2')).to.equal(false);
    expect(r.delete('m2', id)).to.include({ ok: false, refusal: 'group_not_found' });
    expect(r.delete('m1', id).ok).to.equal(true);
    expect(membership.groupsOf('s1')).to.deep.equal([]);
  });

  it('cancels_the_maker_of_a_self_trade_inside_a_group_but_not_outside', () => {
    const { venue } = harness();
    fund(venue, 's1', 's2', 'x');
    const r = new StpGroupRegistry({
      now: () => 0,
      membership: venue.stpGroups,
      memberOfUid: (u) => UIDS[u],
      masterOf: (a) => MASTER[a] ?? a,
    });
    const g = r.create('m1', 'desk');
    if (!g.ok) throw new Error('create');
    r.addUids('m1', g.value.tradeGroupId, ['11', '12']);

    // inside: s2's resting sell is cancelled by STP, s1's buy rests
    const makerIn = venue.placeOrder({ accountId: 's2', symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', quantity: '1', price: '100' });
    const takerIn = venue.placeOrder({
      accountId: 's1',
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '1',
      price: '100',
      stpMode: 'cancel_maker',
    });
    if (!makerIn.ok || !takerIn.ok) throw new Error('place');
    const m = venue.getOrder('s2', 'BTCUSDT', { orderId: makerIn.order.orderId });
    expect(m.ok && [m.order.status, m.order.cancelReason]).to.deep.equal(['CANCELED', 'stp_cancel']);
    expect(takerIn.order.status).to.equal('NEW');
    venue.cancelOrder('s1', 'BTCUSDT', { orderId: takerIn.order.orderId });

    // outside: x is in no group, so the same stpMode trades
    venue.placeOrder({ accountId: 'x', symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', quantity: '1', price: '100' });
    const takerOut = venue.placeOrder({
      accountId: 's1',
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '1',
      price: '100',
      stpMode: 'cancel_maker',
    });
    expect(takerOut.ok && [takerOut.order.status, str(takerOut.order.executedQty)]).to.deep.equal(['FILLED', '1']);
  });
});
