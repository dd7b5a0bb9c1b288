/**
 * The venue's change count per account (account-changes.ts, ContractVenue.accountChanges): a reader
 * that keeps an account's answers between polls (the backtest's simulated venue) trusts an unchanged
 * count to mean unchanged open orders, positions and balances, save what moves with the mark. So over
 * random command streams (every order type, amends, cancels, leverage, margin and mode changes, funding
 * on the clock, fair moves through liquidations: venue-ops.ts) an account's mark-free views may only
 * differ between two steps when its count moved; and another account's command must not move it.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { VirtualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import { PositionMode } from '../../../src/domain/contract-enums.js';
import { ContractVenue, INSURANCE_ACCOUNT_ID } from '../../../src/venue/contract/contract-venue.js';
import { SYMBOL, placed, S, testInstrument } from './contract-test-kit.js';
import * as venueOps from './venue-ops.js';

/** What a keeping reader keeps of an account: every field of its views that does not follow the mark. */
function markFree(venue: ContractVenue, account: string): string {
  const orders = venue.openOrders(account, { pageSize: 1000 }).resultList;
  const positions = venue.openPositions(account).map(({ unrealised: _u, profitRatio: _p, marginRatio: _m, ...rest }) => rest);
  const assets = venue
    .assets(account)
    .map((a) => ({ currency: a.currency, positionMargin: a.positionMargin, frozenBalance: a.frozenBalance, cashBalance: a.cashBalance }));
  return JSON.stringify({ orders, positions, assets });
}

describe('the contract venue counts the changes of each account', () => {
  it('moves_an_accounts_count_whenever_its_orders_positions_or_balances_change', () => {
    const accounts = [...venueOps.ACCOUNTS, INSURANCE_ACCOUNT_ID];
    let changed = 0;
    fc.assert(
      fc.property(fc.array(venueOps.opArb, { minLength: 1, maxLength: 80 }), (ops) => {
        const clock = new VirtualClock(1_000);
        const venue = new ContractVenue({
          clock,
          instruments: [testInstrument({ maxNumOrders: [40, 30] })],
          insuranceFund: { USDT: '1000' },
          fundingIntervalMs: 3_600_000,
          enforcePriceBand: false,
        });
        for (const a of venueOps.ACCOUNTS) {
          venue.openAccount(a, a.startsWith('o') ? PositionMode.ONE_WAY : PositionMode.HEDGED);
          venue.deposit(a, 'USDT', 20000);
        }
        const state = { fair: new Decimal(50000), hour: 0 };
        venue.setFairPrice(SYMBOL, state.fair);
        let before = accounts.map((a) => [markFree(venue, a), venue.accountChanges(a)] as const);
        for (const op of ops) {
          venueOps.apply(venue, op, state, clock);
          const after = accounts.map((a) => [markFree(venue, a), venue.accountChanges(a)] as const);
          accounts.forEach((a, i) => {
            if (after[i]![0] === before[i]![0]) return;
            changed++;
            expect(after[i]![1], `${a} changed by ${JSON.stringify(op)} without its count moving`).to.not.equal(before[i]![1]);
          });
          before = after;
        }
      }),
      { numRuns: 60 },
    );
    // The property says little unless views changed often (most random commands are refused or change
    // nothing a keeping reader holds; ~60–90 view changes in these 60 streams).
    console.log(`      account changes: ${changed} view changes, each with its count moved`);
    expect(changed).to.be.greaterThan(30);
  });

  it('leaves_an_accounts_count_alone_when_another_account_trades', () => {
    const clock = new VirtualClock(1_000);
    const venue = new ContractVenue({ clock, instruments: [testInstrument()], insuranceFund: { USDT: '1000' } });
    for (const a of ['maker', 'taker', 'bystander']) {
      venue.openAccount(a, PositionMode.HEDGED);
      venue.deposit(a, 'USDT', 100_000);
    }
    const counts = (): number[] => ['maker', 'taker', 'bystander'].map((a) => venue.accountChanges(a));
    const start = counts();
    placed(venue, 'maker', { side: S.OPEN_SHORT, price: 50000, vol: 5 });
    const rested = counts();
    expect([rested[0]! > start[0]!, rested[1], rested[2]]).to.deep.equal([true, start[1], start[2]]);
    placed(venue, 'taker', { side: S.OPEN_LONG, price: 50000, vol: 5 });
    const traded = counts();
    expect([traded[0]! > rested[0]!, traded[1]! > rested[1]!, traded[2]]).to.deep.equal([true, true, start[2]]);
    expect(venue.accountChanges('nobody')).to.equal(0);
  });
});
