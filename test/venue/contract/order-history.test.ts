/**
 * The account histories kept in rows (OrderHistory, FillLog over ColumnRing) against the CappedLog of the
 * records themselves that they replaced: the same records, field for field, in the same order, over
 * random limits (0: the emulator's crowd keeps none) and runs long enough to wrap the ring; records the
 * rows cannot hold exactly (bigint amounts, ids not their number's text, a Decimal used margin) come
 * back as the very objects pushed. The order index answers every id as the Map it replaced.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { Decimal } from '../../../src/core/decimal.js';
import { orderId, positionId, tradeId } from '../../../src/core/ids.js';
import { PositionMode } from '../../../src/domain/contract-enums.js';
import {
  AccountState,
  CappedLog,
  OrderIndex,
  recordFinal,
  usedMarginOf,
  type FillRecord,
  type MarketState,
  type OrderState,
} from '../../../src/venue/contract/contract-state.js';
import { ownNumber } from '../../../src/venue/contract/column-ring.js';
import { MoneyCell } from '../../../src/venue/contract/money-cell.js';

const MARKETS = [{ spec: { symbol: 'BTC_USDT' } }, { spec: { symbol: 'ETH_USDT' } }] as unknown as MarketState[];

/** What a final order shows (its view's inputs): every field but the resting-only reservedPosition, the used margin as its amount. */
function shown(o: OrderState): unknown {
  const { reservedPosition, usedMargin, ...rest } = o;
  void reservedPosition;
  return { ...rest, usedMargin: usedMargin === undefined ? 'none' : usedMarginOf(o).toString() };
}

const amountKind = fc.constantFrom('none', 'grains', 'zeroGrains', 'bigUnits', 'decimal');

const finalOrder = fc.record({
  odd: fc.constantFrom(undefined, undefined, undefined, '0', ' ', 'e'),
  side: fc.integer({ min: 1, max: 4 }),
  type: fc.integer({ min: 1, max: 6 }),
  category: fc.integer({ min: 1, max: 4 }),
  state: fc.constantFrom(3, 4, 5),
  errorCode: fc.integer({ min: 0, max: 7 }),
  leverage: fc.integer({ min: 1, max: 200 }),
  lots: fc.integer({ min: 1, max: 1e6 }),
  used: amountKind,
  fees: fc.constantFrom('grains', 'bigUnits'),
  cost: fc.constantFrom('number', 'bigint'),
  flags: fc.integer({ min: 0, max: 7 }),
  external: fc.constantFrom(undefined, 'x1', 'x2'),
  market: fc.integer({ min: 0, max: 1 }),
});

describe('OrderHistory and FillLog (account histories in rows)', () => {
  it('own_number_reads_exactly_the_texts_string_gives', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e15 - 1 }), (n) => {
        expect(ownNumber(String(n))).to.equal(n);
      }),
      { numRuns: 2000 },
    );
    const odd = fc.oneof(
      fc.string(),
      fc.constantFrom('0123', '1e3', '100', ' 7', '+7', '-1', '1.0', '0x10', '00', '0', '', '1234567890123456'),
    );
    fc.assert(
      fc.property(odd, (s) => {
        const n = ownNumber(s);
        if (n >= 0) expect(String(n)).to.equal(s);
        else expect(/^(0|[1-9]\d{0,14})$/.test(s)).to.equal(false);
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps_the_final_orders_and_answers_their_ids_as_the_capped_log_and_the_map', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 }), fc.array(finalOrder, { maxLength: 150 }), (limit, specs) => {
        const acct = new AccountState('a' as never, PositionMode.ONE_WAY, false);
        const index = new OrderIndex(0);
        const log = new CappedLog<OrderState>();
        const map = new Map<string, OrderState>();
        specs.forEach((x, i) => {
          const seq = i + 1;
          const id = orderId(x.odd === undefined ? String(seq) : `${x.odd}${seq}`);
          let usedMargin: MoneyCell | undefined;
          if (x.used !== 'none') {
            usedMargin = new MoneyCell();
            if (x.used === 'grains') usedMargin.addGrains(seq * 7, 2e9);
            if (x.used === 'bigUnits') usedMargin.addUnits(10n ** 30n + BigInt(seq));
            if (x.used === 'decimal') usedMargin.set(new Decimal('0.' + '1'.repeat(25)));
          }
          const big = x.fees === 'bigUnits';
          const o: OrderState = {
            id,
            seq,
            account: acct,
            market: MARKETS[x.market]!,
            side: x.side as OrderState['side'],
            type: x.type as OrderState['type'],
            category: x.category as OrderState['category'],
            openType: 2,
            leverage: x.leverage,
            positionMode: 2,
            reduceOnly: (x.flags & 1) !== 0,
            stpMode: 0,
            externalOid: x.external,
            isBuy: (x.flags & 2) !== 0,
            bookSide: (x.flags & 2) !== 0 ? 'BUY' : 'SELL',
            closing: (x.flags & 4) !== 0,
            displayPrice: new Decimal(50_000 + seq),
            priceTicks: 500_000 + seq,
            lots: x.lots,
            dealLots: x.state === 3 ? x.lots : 0,
            dealCost: x.cost === 'bigint' ? 2n ** 60n + BigInt(seq) : x.lots * 500_000,
            frozenUnits: 0n,
            frozenGrains: 0,
            frozenGrain: seq % 2 === 0 ? 2e9 : 0,
            reservedPosition: undefined,
            usedMargin,
            takerFeeUnits: big ? 10n ** 25n : 0n,
            makerFeeUnits: 0n,
            profitUnits: big ? -(10n ** 24n) : 0n,
            takerFeeGrains: seq * 3,
            makerFeeGrains: -seq,
            profitGrains: 0,
            moneyGrain: 2e9,
            state: x.state as OrderState['state'],
            errorCode: x.errorCode as OrderState['errorCode'],
            positionId: x.state === 3 ? positionId(String(seq % 5)) : undefined,
            createTime: seq * 1000,
            updateTime: seq * 1000 + 5,
            cancelReason: x.state === 4 ? 'user' : undefined,
          };
          index.set(o.id, o);
          map.set(o.id, o);
          recordFinal(index, o, limit);
          const dropped = log.push(o, limit);
          if (dropped !== undefined) map.delete(dropped.id);
        });
        const h = acct.history;
        expect(h.length).to.equal(log.length);
        expect([...h].map(shown)).to.deep.equal([...log].map(shown));
        for (let i = 0; i < log.length; i++) {
          const o = log.at(i)!;
          // Kept whole exactly when a row cannot hold it.
          const whole =
            o.takerFeeUnits !== 0n ||
            typeof o.dealCost === 'bigint' ||
            !/^[1-9]\d*$/.test(o.id) ||
            ['bigUnits', 'decimal'].includes(specs[o.seq - 1]!.used);
          expect(h.at(i) === o, `order ${o.id}`).to.equal(whole);
          expect(h.symbolAt(i)).to.equal(o.market.spec.symbol);
          expect([h.stateAt(i), h.categoryAt(i), h.sideAt(i), h.createTimeAt(i)]).to.deep.equal([
            o.state,
            o.category,
            o.side,
            o.createTime,
          ]);
        }
        for (const ext of ['x1', 'x2']) {
          for (const m of MARKETS) {
            const want = [...log].reverse().find((o) => o.externalOid === ext && o.market === m);
            const got = h.findExternal(m.spec.symbol, ext);
            expect(got === undefined ? undefined : shown(got)).to.deep.equal(want === undefined ? undefined : shown(want));
          }
        }
        for (let seq = 0; seq <= specs.length + 1; seq++) {
          for (const id of [String(seq), `0${seq}`, ` ${seq}`, `e${seq}`]) {
            const want = map.get(id);
            const got = index.get(id);
            expect(got === undefined ? undefined : shown(got), id).to.deep.equal(want === undefined ? undefined : shown(want));
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('keeps_the_fills_as_the_capped_log', () => {
    const fill = fc.record({
      odd: fc.constantFrom(undefined, undefined, undefined, '0'),
      big: fc.boolean(),
      lots: fc.integer({ min: 1, max: 1e6 }),
      close: fc.integer({ min: 0, max: 1e6 }),
      taker: fc.boolean(),
      symbol: fc.constantFrom('BTC_USDT', 'ETH_USDT'),
    });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 }), fc.array(fill, { maxLength: 150 }), (limit, specs) => {
        const acct = new AccountState('a' as never, PositionMode.ONE_WAY, false);
        const log = new CappedLog<FillRecord>();
        const ids = [[positionId('1')], [positionId('1'), positionId('2')]];
        specs.forEach((x, i) => {
          const f: FillRecord = {
            tradeId: tradeId(x.odd === undefined ? String(i + 1) : `${x.odd}${i + 1}`),
            orderId: orderId(String(1000 + (i >> 1))),
            symbol: x.symbol,
            side: ((i % 4) + 1) as FillRecord['side'],
            priceTicks: 500_000 + i,
            lots: x.lots,
            taker: x.taker,
            feeUnits: x.big ? 10n ** 25n : 0n,
            profitUnits: 0n,
            feeGrains: i * 3,
            profitGrains: -i,
            grain: 2e9,
            closeLots: Math.min(x.close, x.lots),
            openLots: x.lots - Math.min(x.close, x.lots),
            positionIds: ids[i % 2]!,
            time: i * 1000,
          };
          acct.fills.push(f, limit);
          log.push(f, limit);
        });
        const fills = acct.fills;
        expect(fills.length).to.equal(log.length);
        expect([...fills]).to.deep.equal([...log]);
        for (let i = 0; i < log.length; i++) {
          const f = log.at(i)!;
          expect(fills.at(i) === f).to.equal(f.feeUnits !== 0n || !/^[1-9]\d*$/.test(f.tradeId));
          expect(fills.at(i)!.positionIds).to.equal(f.positionIds);
          expect([fills.symbolAt(i), fills.timeAt(i)]).to.deep.equal([f.symbol, f.time]);
          for (const id of [f.orderId, `0${f.orderId}`, String(Number(f.orderId) + 1)])
            expect(fills.isOfOrder(i, id), id).to.equal(f.orderId === id);
        }
      }),
      { numRuns: 200 },
    );
  });
});
