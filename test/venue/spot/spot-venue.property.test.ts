import { expect } from 'chai';
import fc from 'fast-check';
import { D } from '../../../src/core/decimal.js';
import type { SpotStpMode } from '../../../src/domain/spot-enums.js';
import { SpotRejectCode } from '../../../src/venue/spot/spot-rejections.js';
import type { SpotPlaceResult } from '../../../src/venue/spot/spot-venue.js';
import { btcUsdt, harness } from './spot-fixtures.js';

const SYMBOL = 'BTCUSDT';
const ACCOUNTS = ['a0', 'a1', 'a2', 'a3'];
const KNOWN_CODES = new Set<number>(Object.values(SpotRejectCode));

type Kind = 'LIMIT' | 'LIMIT_MAKER' | 'IMMEDIATE_OR_CANCEL' | 'FILL_OR_KILL' | 'MARKET_QTY' | 'MARKET_QUOTE';

type Cmd =
  | {
      c: 'place';
      account: number;
      side: 'BUY' | 'SELL';
      kind: Kind;
      price: number;
      lots: number;
      quote: number;
      stp: SpotStpMode;
      cid: number;
    }
  | { c: 'cancel'; account: number; pick: number; byClientId: boolean }
  | { c: 'cancelAll'; account: number }
  | { c: 'deposit'; account: number; asset: 'BTC' | 'USDT'; amount: number }
  | { c: 'withdraw'; account: number; asset: 'BTC' | 'USDT'; amount: number }
  | { c: 'advance'; ms: number };

const account = fc.integer({ min: 0, max: ACCOUNTS.length - 1 });
const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      c: fc.constant('place' as const),
      account,
      side: fc.constantFrom('BUY' as const, 'SELL' as const),
      kind: fc.constantFrom<Kind>(
        'LIMIT',
        'LIMIT',
        'LIMIT',
        'LIMIT_MAKER',
        'IMMEDIATE_OR_CANCEL',
        'FILL_OR_KILL',
        'MARKET_QTY',
        'MARKET_QUOTE',
      ),
      // 99.80 … 100.20 in ticks of 0.01
      price: fc.integer({ min: 9980, max: 10020 }),
      // 0.0001 … 3 BTC (small ones meet the 1 USDT minimum only sometimes)
      lots: fc.oneof(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 100, max: 30_000 })),
      // 0.5 … 400 USDT in cents
      quote: fc.integer({ min: 50, max: 40_000 }),
      stp: fc.constantFrom<SpotStpMode>('', '', 'cancel_maker', 'cancel_taker', 'cancel_both'),
      cid: fc.integer({ min: -3, max: 3 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ c: fc.constant('cancel' as const), account, pick: fc.nat(), byClientId: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ c: fc.constant('cancelAll' as const), account }) },
  {
    weight: 1,
    arbitrary: fc.record({
      c: fc.constant('deposit' as const),
      account,
      asset: fc.constantFrom('BTC' as const, 'USDT' as const),
      amount: fc.integer({ min: 1, max: 100_000 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      c: fc.constant('withdraw' as const),
      account,
      asset: fc.constantFrom('BTC' as const, 'USDT' as const),
      amount: fc.integer({ min: 1, max: 100_000 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ c: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 60_000 }) }) },
);

describe('SpotVenue (property)', () => {
  it('keeps_every_invariant_after_every_command_of_random_sequences', () => {
    fc.assert(
      fc.property(fc.array(cmd, { minLength: 1, maxLength: 120 }), (cmds) => {
        const { venue, clock } = harness({}, [
          btcUsdt({ percentPriceBySide: { bidMultiplierUp: D('0.0015'), askMultiplierDown: D('0.0015') } }),
        ]);
        venue.stpGroups.join('a0', 'G');
        venue.stpGroups.join('a1', 'G');
        venue.stpGroups.join('a2', 'H');
        // Every event is delivered once its command has finished: the venue must be consistent at each.
        let events = 0;
        venue.subscribe((e) => {
          events++;
          const problems = venue.checkInvariants();
          if (problems.length) throw new Error(`at event ${e.type}: ${problems.join('; ')}`);
        });
        for (const a of ACCOUNTS) {
          venue.deposit(a, 'USDT', '2000');
          venue.deposit(a, 'BTC', '10');
        }
        for (const c of cmds) {
          const acct = c.c === 'advance' ? '' : ACCOUNTS[c.account]!;
          if (c.c === 'place') {
            const base = {
              accountId: acct,
              symbol: SYMBOL,
              side: c.side,
              stpMode: c.stp,
              clientOrderId: c.cid > 0 ? `cid-${c.cid}` : undefined,
            };
            let r: SpotPlaceResult;
            if (c.kind === 'MARKET_QTY') r = venue.placeOrderUnits({ ...base, type: 'MARKET', lots: c.lots });
            else if (c.kind === 'MARKET_QUOTE')
              r = venue.placeOrderUnits({ ...base, type: 'MARKET', quoteUnits: BigInt(c.quote) * 10n ** 16n });
            else r = venue.placeOrderUnits({ ...base, type: c.kind, priceTicks: c.price, lots: c.lots });
            if (!r.ok) {
              expect(KNOWN_CODES.has(r.code), `unknown code ${r.code}`).to.equal(true);
            } else {
              const o = r.order;
              if (c.kind === 'FILL_OR_KILL') expect(o.executedLots === 0 || o.executedLots === c.lots).to.equal(true);
              if (c.kind !== 'LIMIT' && c.kind !== 'LIMIT_MAKER') expect(o.isWorking).to.equal(false);
              if (c.kind === 'LIMIT_MAKER') expect(o.executedLots).to.equal(0);
            }
          } else if (c.c === 'cancel') {
            const open = venue.openOrders(acct);
            if (open.length) {
              const o = open[c.pick % open.length]!;
              const r = venue.cancelOrder(
                acct,
                SYMBOL,
                c.byClientId && o.clientOrderId ? { clientOrderId: o.clientOrderId } : { orderId: o.orderId },
              );
              expect(r.ok).to.equal(true);
              if (r.ok) expect(['CANCELED', 'PARTIALLY_CANCELED']).to.include(r.order.status);
            } else {
              expect(venue.cancelOrder(acct, SYMBOL, { orderId: 'missing' })).to.deep.include({ code: -2011 });
            }
          } else if (c.c === 'cancelAll') {
            venue.cancelAllOrders(acct, SYMBOL);
            expect(venue.openOrders(acct, SYMBOL)).to.deep.equal([]);
          } else if (c.c === 'deposit') {
            venue.deposit(acct, c.asset, D(c.amount).div(100));
          } else if (c.c === 'withdraw') {
            const before = venue.balance(acct, c.asset).free;
            const r = venue.withdraw(acct, c.asset, D(c.amount).div(100));
            expect(r.ok).to.equal(before.gte(D(c.amount).div(100)));
          } else {
            clock.advanceBy(c.ms);
          }
          const problems = venue.checkInvariants();
          if (problems.length) throw new Error(`after ${JSON.stringify(c)}: ${problems.join('; ')}`);
        }
        expect(events).to.be.greaterThan(0);
      }),
      { numRuns: 150, seed: 20240607 },
    );
  });
});
