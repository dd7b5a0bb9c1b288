/**
 * The contract venue's money in two parts (issue 12): MoneyCell keeps big + fast · grain, the fill
 * path adds counts of a grain in doubles (margin-units.ts grain functions), and every amount that is
 * not a safe count takes the bigint formulas. These tests hold the doubles to exact bigint models on
 * both sides of 2^52 / 2^53, and run the venue itself against the reference model with trades whose
 * margin, fees and PnL cross those bounds (the fallback paths), which the other differential streams
 * (amounts of a few thousand USDT at 10^-8 steps) never reach.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { VirtualClock } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import { ContractOrderType, ContractSide, OpenType, PositionMode } from '../../../src/domain/contract-enums.js';
import { ContractVenue, INSURANCE_ACCOUNT_ID, type ContractVenueOptions } from '../../../src/venue/contract/contract-venue.js';
import { feeGrains, grainTerms, marginAndFeeGrains } from '../../../src/venue/contract/margin-units.js';
import { MAX_FAST, MoneyCell, decimalOfGrains, decimalOfParts, decimalOfUnits } from '../../../src/venue/contract/money-cell.js';
import { ReferenceContractVenue } from '../../reference/contract-venue-reference.js';
import { SYMBOL, testInstrument } from './contract-test-kit.js';

const TWO_52 = 2 ** 52;

/** Integers near 0, near ±2^52 and near ±2^53 (the fold and fallback bounds). */
const countArb = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }),
  fc.integer({ min: -1000, max: 1000 }).map((d) => TWO_52 + d),
  fc.integer({ min: -1000, max: 1000 }).map((d) => -TWO_52 + d),
  fc.integer({ min: -1000, max: 0 }).map((d) => Number.MAX_SAFE_INTEGER + d),
  fc.integer({ min: 0, max: 1000 }).map((d) => -Number.MAX_SAFE_INTEGER + d),
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 }),
);
const grainArb = fc.oneof(fc.constant(1), fc.constant(10 ** 9), fc.integer({ min: 1, max: 2 ** 40 }), fc.constant(Number.MAX_SAFE_INTEGER));

type CellOp = { k: 'grains'; n: number; grain: number } | { k: 'units'; u: bigint } | { k: 'sub'; n: number; grain: number };
const cellOpArb: fc.Arbitrary<CellOp> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ k: fc.constant('grains' as const), n: countArb, grain: grainArb }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('sub' as const), n: countArb, grain: grainArb }) },
  {
    weight: 1,
    arbitrary: fc.record({ k: fc.constant('units' as const), u: fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }) }),
  },
);

describe('contract money in two parts (MoneyCell fast part, grain counts)', () => {
  it('keeps_a_cell_equal_to_the_bigint_sum_across_the_2^52_fold_and_grain_changes', () => {
    fc.assert(
      fc.property(fc.array(cellOpArb, { minLength: 1, maxLength: 40 }), (ops) => {
        const c = new MoneyCell();
        let model = 0n;
        for (const op of ops) {
          if (op.k === 'grains') {
            c.addGrains(op.n, op.grain);
            model += BigInt(op.n) * BigInt(op.grain);
          } else if (op.k === 'sub') {
            c.subGrains(op.n, op.grain);
            model -= BigInt(op.n) * BigInt(op.grain);
          } else {
            c.addUnits(op.u);
            model += op.u;
          }
          // The double part never leaves ±2^52 (sums of two stay exact).
          expect(Math.abs(c.fast)).to.be.at.most(MAX_FAST);
          expect(c.isNegative()).to.equal(model < 0n);
          expect(c.isPositive()).to.equal(model > 0n);
          expect(c.isZero()).to.equal(model === 0n);
        }
        expect(c.units).to.equal(model);
        expect(c.value.eq(new Decimal(`${model}e-18`))).to.equal(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('tells_the_sign_of_a_big_part_cancelled_by_the_fast_part_to_the_last_unit', () => {
    // big = 10^27 units (10^9 coins), fast·grain = −10^27 ± 1: the doubles alone cannot tell the sign.
    for (const [delta, sign] of [
      [1n, 1],
      [0n, 0],
      [-1n, -1],
    ] as const) {
      const c = new MoneyCell();
      c.addUnits(10n ** 27n + delta);
      // −10^27 in two grain counts of 5·10^26 / 10^9 … : 10^18 grains of 10^9 units (past 2^52: exact bigint path).
      c.subGrains(2 ** 40, 10 ** 9);
      const rest = 10n ** 27n - BigInt(2 ** 40) * 10n ** 9n;
      c.addUnits(-rest);
      expect(c.isNegative(), String(delta)).to.equal(sign < 0);
      expect(c.isPositive(), String(delta)).to.equal(sign > 0);
      expect(c.isZero(), String(delta)).to.equal(sign === 0);
      expect(c.units).to.equal(delta);
    }
  });

  it('builds_the_decimal_of_a_grain_count_field_by_field_as_of_its_units', () => {
    const fields = (x: Decimal): string => JSON.stringify(Object.entries(x));
    const grain = fc.oneof(
      fc.integer({ min: 1, max: 2 ** 40 }),
      fc.integer({ min: 0, max: 15 }).map((k) => 10 ** k),
      fc.tuple(fc.integer({ min: 1, max: 999 }), fc.integer({ min: 0, max: 12 })).map(([m, k]) => m * 10 ** k),
    );
    fc.assert(
      fc.property(countArb, grain, fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), (n, g, units) => {
        const exact = BigInt(n) * BigInt(g);
        expect(fields(decimalOfGrains(n, g)), `${n}·${g}`).to.equal(fields(decimalOfUnits(exact)));
        expect(fields(decimalOfParts(units, n, g))).to.equal(fields(decimalOfUnits(units + exact)));
        const c = new MoneyCell();
        c.addGrains(n, g);
        expect(fields(c.value)).to.equal(fields(decimalOfUnits(exact)));
      }),
      { numRuns: 5000 },
    );
  });

  it('counts_margin_and_fees_in_grains_exactly_or_answers_NaN_past_2^53', () => {
    const unitsArb = fc.bigInt({ min: 1n, max: 10n ** 18n });
    fc.assert(
      fc.property(
        unitsArb,
        unitsArb,
        fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
        fc.oneof(fc.integer({ min: 1, max: 10 ** 6 }), fc.integer({ min: 1, max: 2 ** 26 })),
        fc.oneof(fc.integer({ min: 1, max: 10 ** 6 }), fc.integer({ min: 1, max: 2 ** 27 })),
        fc.integer({ min: 1, max: 200 }),
        fc.constantFrom('floor' as const, 'ceil' as const),
        (step, uv, perUnits, ticks, lots, leverage, rounding) => {
          const per = perUnits < 0n ? 0n : perUnits;
          const g = grainTerms(step, uv, perUnits, per, per, per);
          const tl = BigInt(ticks) * BigInt(lots);
          const n = tl * uv;
          const d = BigInt(leverage) * step;
          let q = n / d;
          if (rounding === 'ceil' && q * d !== n) q += 1n;
          const exact = q * step + tl * per;
          const safe = (v: bigint): boolean => v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= -BigInt(Number.MAX_SAFE_INTEGER);
          if (g.grain === 0) return;
          const G = BigInt(g.grain);
          const grains = marginAndFeeGrains(ticks, lots, leverage, g, g.reservePer, rounding);
          // Safe counts of every term ⇒ a number, and then the exact amount; a NaN only past 2^53.
          const allSafe = safe(tl) && safe(n / G) && safe((q * step) / G) && safe((tl * per) / G) && safe(exact / G) && safe(d / G);
          if (allSafe) expect(grains).to.equal(Number(exact / G));
          if (!Number.isNaN(grains)) expect(BigInt(grains) * G).to.equal(exact);
          const fee = feeGrains(ticks, lots, g, g.makerPer);
          if (safe(tl) && safe((tl * perUnits) / G)) expect(fee).to.equal(Number((tl * perUnits) / G));
          if (!Number.isNaN(fee)) expect(BigInt(fee) * G).to.equal(tl * perUnits);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

/**
 * The venue against the reference model with trades whose amounts cross 2^53 ledger units or grains:
 * a contract of 10^-8 BTC at 18-place money (grain 1 unit: margin passes 2^53 from ~18 lots at 1x,
 * fees from ~30,000 lots), and a contract of 1 BTC at 8 places with 10^10 USDT deposited (grain 10^10
 * units: margin passes 2^52 grains from ~900 lots at 1x, and the wallets' double parts fold).
 */
interface BigConfig {
  readonly contractSize: string;
  readonly moneyScale: number;
  readonly deposit: string;
  /** Grains of a tick·lot's value (tick 0.1 × contract size, over the grain): a fill's margin is about ticks·lots·this / leverage grains. */
  readonly valueGrains: number;
}
const CONFIGS: readonly BigConfig[] = [
  { contractSize: '0.00000001', moneyScale: 18, deposit: '1000000', valueGrains: 1e9 },
  { contractSize: '1', moneyScale: 8, deposit: '10000000000', valueGrains: 1e7 },
];

interface Trade {
  readonly maker: number;
  readonly buy: boolean;
  readonly lots: number;
  readonly leverage: number;
  readonly offset: number;
  readonly cross: boolean;
}
const tradeArb: fc.Arbitrary<Trade> = fc.record({
  maker: fc.nat(1),
  buy: fc.boolean(),
  lots: fc.oneof(
    fc.integer({ min: 1, max: 40 }),
    fc.integer({ min: 500, max: 1500 }),
    fc.integer({ min: 20_000, max: 40_000 }),
    fc.integer({ min: 1, max: 100_000 }),
  ),
  leverage: fc.integer({ min: 1, max: 5 }),
  offset: fc.integer({ min: -20_000, max: 20_000 }),
  cross: fc.boolean(),
});

const ACCOUNTS = ['a', 'b'] as const;

function bigVenues(cfg: BigConfig): { ours: ContractVenue; ref: ReferenceContractVenue; logs: [string[], string[]] } {
  const instrument = testInstrument({
    contractSize: new Decimal(cfg.contractSize),
    maxVol: new Decimal(1_000_000),
    maxNumOrders: [50, 50],
  });
  const make = (): ContractVenueOptions => ({
    clock: new VirtualClock(1_000),
    instruments: [instrument],
    autoFunding: false,
    enforcePriceBand: false,
    moneyScale: cfg.moneyScale,
    insuranceFund: { USDT: '1000' },
  });
  const ours = new ContractVenue(make());
  const ref = new ReferenceContractVenue(make());
  const logs: [string[], string[]] = [[], []];
  ours.on((e) => logs[0].push(JSON.stringify(e)));
  ref.on((e) => logs[1].push(JSON.stringify(e)));
  for (const v of [ours, ref]) {
    for (const a of ACCOUNTS) {
      v.openAccount(a, PositionMode.ONE_WAY);
      v.deposit(a, 'USDT', cfg.deposit);
    }
  }
  return { ours, ref, logs };
}

function readModel(v: ContractVenue | ReferenceContractVenue): string {
  const all = { pageSize: 100_000 };
  return JSON.stringify({
    accounts: [...ACCOUNTS, INSURANCE_ACCOUNT_ID].map((a) => ({
      assets: v.assets(a),
      positions: v.openPositions(a),
      open: v.openOrders(a, all),
      orders: v.historyOrders(a, all),
      fills: v.fills(a, all),
      history: v.historyPositions(a, all),
    })),
    feeIncome: v.feeIncomeOf('USDT'),
    invariants: v.checkInvariants(),
  });
}

describe('contract venue money past 2^53 (differential against the reference model)', () => {
  for (const cfg of CONFIGS) {
    it(`agrees_with_the_reference_on_trades_crossing_2^53_contract_${cfg.contractSize}_scale_${cfg.moneyScale}`, function () {
      this.timeout(300_000);
      const seen = { small: 0, large: 0 };
      fc.assert(
        fc.property(fc.array(tradeArb, { minLength: 5, maxLength: 30 }), (trades) => {
          const { ours, ref, logs } = bigVenues(cfg);
          let i = 0;
          for (const t of trades) {
            const price = new Decimal(50000).add(new Decimal(t.offset).div(10));
            for (const v of [ours, ref] as const) {
              const maker = ACCOUNTS[t.maker]!;
              const taker = ACCOUNTS[1 - t.maker]!;
              const base = { symbol: SYMBOL, type: ContractOrderType.LIMIT, price, vol: t.lots, leverage: t.leverage };
              const openType = t.cross ? OpenType.CROSS : OpenType.ISOLATED;
              const answers: unknown[] = [
                v.placeOrder(maker, { ...base, side: t.buy ? ContractSide.OPEN_LONG : ContractSide.OPEN_SHORT, openType }),
                v.placeOrder(taker, { ...base, side: t.buy ? ContractSide.OPEN_SHORT : ContractSide.OPEN_LONG, openType }),
                v.cancelAll(maker),
                v.cancelAll(taker),
              ];
              (v === ours ? logs[0] : logs[1]).push(JSON.stringify(answers));
              // A filled trade's margin in grains, on which side of 2^53 (the doubles) it fell.
              const filled = (answers[1] as { ok: boolean; value?: { dealVol: Decimal } }).value?.dealVol.gt(0) ?? false;
              if (v === ours && filled) {
                const margin = (price.toNumber() * 10 * t.lots * cfg.valueGrains) / t.leverage;
                if (margin > 2 ** 53) seen.large++;
                else if (margin < 2 ** 52) seen.small++;
              }
            }
            const a = readModel(ours);
            const b = readModel(ref);
            if (a !== b) throw new Error(`trade ${i} ${JSON.stringify(t)}: the read models differ`);
            i++;
          }
          expect(logs[0]).to.deep.equal(logs[1]);
        }),
        { numRuns: 40 },
      );
      expect(seen.small, 'trades with a margin below 2^52 grains').to.be.greaterThan(10);
      expect(seen.large, 'trades with a margin above 2^53 grains').to.be.greaterThan(10);
    });
  }
});
