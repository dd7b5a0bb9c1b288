import { expect } from 'chai';
import { spotCatalogue as c } from '../../../src/api/spot/catalogue.js';
import { expectIssue, parseOk, unwrapSpot, wrapSpot } from './spot-test-kit.js';

// No captured STP answers exist (SOURCES.md); the bodies below follow spot-api.md §4.5 / §2.8, with
// tradeGroupId as a number as the doc's samples show.
describe('spot STP strategy groups (4.5)', () => {
  it('parses_a_created_group_with_a_numeric_id_as_a_string', () => {
    const g = parseOk(
      c.createStpGroup.response,
      unwrapSpot(wrapSpot({ tradeGroupName: 'desk-a', tradeGroupId: 1001, createTime: 1767205878625, updateTime: 1767205878625 })),
    );
    expect([g.tradeGroupName, g.tradeGroupId, g.createTime, g.tradeGroupUid]).to.deep.equal(['desk-a', '1001', 1767205878625, undefined]);
  });

  it('parses_queried_groups_with_their_uid_lists', () => {
    const list = parseOk(
      c.queryStpGroups.response,
      unwrapSpot(
        wrapSpot([{ tradeGroupName: 'desk-a', tradeGroupId: '1001', tradeGroupUid: '10000001,10000002', createTime: 1, updateTime: 2 }]),
      ),
    );
    expect(list[0]!.tradeGroupUid).to.deep.equal(['10000001', '10000002']);
  });

  it('parses_an_added_uid_group', () => {
    const g = parseOk(c.addStpGroupUid.response, { tradeGroupName: 'desk-a', tradeGroupId: 1001, tradeGroupUid: 10000003 });
    expect(g.tradeGroupUid).to.deep.equal(['10000003']);
  });

  it('parses_deletions_as_true', () => {
    expect(parseOk(c.deleteStpGroup.response, unwrapSpot({ code: 0, msg: 'delete success', data: true, timestamp: 1 }))).to.equal(true);
    expect(parseOk(c.deleteStpGroupUid.response, 'true')).to.equal(true);
  });

  it('rejects_a_group_without_id', () => {
    expectIssue(c.createStpGroup.response, { tradeGroupName: 'desk-a' }, ['tradeGroupId']);
  });

  it('requires_a_group_name_to_create_or_query', () => {
    expectIssue(c.createStpGroup.request, {}, ['tradeGroupName'], /group name/);
    expectIssue(c.queryStpGroups.request, { tradeGroupName: '' }, ['tradeGroupName'], /group name/);
  });

  it('requires_a_numeric_group_id_to_delete', () => {
    expectIssue(c.deleteStpGroup.request, { tradeGroupId: 'abc' }, ['tradeGroupId'], /numeric group id/);
    expect(parseOk(c.deleteStpGroup.request, { tradeGroupId: 1001 })).to.deep.equal({ tradeGroupId: '1001' });
  });

  it('joins_uid_lists_with_commas', () => {
    expect(parseOk(c.addStpGroupUid.request, { uid: ['10000001', 10000002], tradeGroupId: '1001' })).to.deep.equal({
      uid: '10000001,10000002',
      tradeGroupId: '1001',
    });
    expect(parseOk(c.deleteStpGroupUid.request, { uid: '10000001,10000002', tradeGroupId: '1001' }).uid).to.equal('10000001,10000002');
  });

  it('requires_both_uid_and_group_id_to_change_members', () => {
    expectIssue(c.addStpGroupUid.request, { tradeGroupId: '1001' }, ['uid'], /UID/);
    expectIssue(c.deleteStpGroupUid.request, { uid: '10000001' }, ['tradeGroupId']);
    expectIssue(c.addStpGroupUid.request, { uid: '1,,2', tradeGroupId: '1001' }, ['uid']);
  });
});
