import { expect } from 'chai';
import fc from 'fast-check';
import type { Clock, TimerHandle } from '../../../src/core/clock.js';
import { Decimal } from '../../../src/core/decimal.js';
import { contractSymbol } from '../../../src/core/ids.js';
import type { ContractInstrument } from '../../../src/domain/instrument.js';
import type { ContractVenueEvent } from '../../../src/venue/contract/contract-events.js';
import { ContractFeeModel, type ContractFeeModelOptions } from '../../../src/venue/fees/contract-fee-model.js';
import type { Series } from '../../../src/venue/fees/deal-volume-window.js';
import { ReferenceContractFeeModel } from '../../reference/contract-fee-model-reference.js';
import { testInstrument } from '../contract/contract-test-kit.js';

/**
 * Differential test of the fee model's integer traded amounts: the same random fills, rate quotes and
 * time steps go to the model and to its frozen Decimal copy (test/reference), and every figure either
 * answers — each account's quote on each contract (traded amount, tier, rates, discount level), 30- and
 * 500-day fee totals, fee_details deductions, the rates handed to the venue — must have the same digits
 * after every command. The fills leave the units on purpose: prices, sizes and fees with up to 20
 * decimals, amounts past 2^53 units, negative fees (maker rebates), fills reported late (before the
 * newest of their contract), bursts long enough for the 400-day pruning, and the clock moving back.
 */
const DAY = 86_400_000;
const d = (v: string | number) => new Decimal(v);
const ACCOUNTS = ['a', 'b', 'c'];

/** A clock the test sets (the model reads only now()). */
class SteppedClock implements Clock {
  constructor(public t: number) {}
  now(): number {
    return this.t;
  }
  setTimer(): TimerHandle {
    throw new Error('not used by the model');
  }
  setInterval(): TimerHandle {
    throw new Error('not used by the model');
  }
  clearTimer(): void {}
  sleep(): Promise<void> {
    throw new Error('not used by the model');
  }
}

const instrument = (symbol: string, over: Partial<ContractInstrument>): ContractInstrument =>
  testInstrument({ symbol: contractSymbol(symbol), ...over });
const INSTRUMENTS = [
  instrument('BTC_USDT', {}), // size 0.0001, TIERED below
  instrument('ETH_USDT', { contractSize: d('0.01'), takerFeeRate: d('0.0007'), makerFeeRate: d('-0.0001') }),
  instrument('PEPE_USDT', { contractSize: d('1000000'), takerFeeRate: d('0.000375'), makerFeeRate: d('0.0000125') }), // LEVERAGE
  instrument('DUST_USDT', { contractSize: d('0.00000000000000000001') }), // size with 20 decimals: never in units
];
const SYMBOLS = INSTRUMENTS.map((i) => i.symbol as string);

function options(clock: Clock, leverage: Map<string, number>): ContractFeeModelOptions {
  return {
    clock,
    instruments: INSTRUMENTS,
    overrides: {
      BTC_USDT: {
        feeRateMode: 'TIERED',
        tieredFeeRates: [
          { takerFeeRate: d('0.0006'), makerFeeRate: d('0.0002'), minTieredDealAmount: d(0), maxTieredDealAmount: d('1000.5') },
          { takerFeeRate: d('0.00045'), makerFeeRate: d('0.00015'), minTieredDealAmount: d('1000.5'), maxTieredDealAmount: d(1e7) },
          { takerFeeRate: d('0.0003'), makerFeeRate: d(0), minTieredDealAmount: d(1e7) },
        ],
      },
      PEPE_USDT: {
        feeRateMode: 'LEVERAGE',
        leverageFeeRates: [
          { minLeverage: 1, maxLeverage: 20, takerFeeRate: d('0.0002'), makerFeeRate: d('0.00001') },
          { minLeverage: 21, takerFeeRate: d('0.0008'), makerFeeRate: d('0.0001') },
        ],
      },
    },
    leverageOf: (a, s) => leverage.get(`${a}:${s}`),
    deductConfigs: [{ deductCoin: 'MX', settleCoin: 'USDT', discountRatio: d('0.2') }],
    deductEnabled: (a) => a !== 'a',
    discountConfigs: [
      {
        id: 1,
        currency: 'USDT',
        enabled: true,
        excludedSymbols: ['ETH_USDT'],
        createTime: 0,
        updateTime: 0,
        levels: [
          { level: 1, volMin: d(500), volMax: d('20000.25'), day: 30, discount: d('0.1') },
          { level: 2, volMin: d('20000.25'), day: 7, discount: d('0.15') },
        ],
      },
    ],
    exempt: (a) => a === 'crowd',
    historyLimit: 50,
  };
}

type Cmd =
  | { c: 'rate'; account: number; symbol: number }
  | { c: 'fill'; account: number; symbol: number; taker: boolean; price: string; vol: string; fee: string; late: number }
  | { c: 'burst'; account: number; symbol: number; n: number; stepMs: number }
  | { c: 'time'; ms: number }
  | { c: 'leverage'; account: number; value: number };

/** A decimal string with `digits` significant digits and `decimals` places (negative when `neg`). */
const decimalText = (digits: fc.Arbitrary<bigint>, decimals: fc.Arbitrary<number>, neg: fc.Arbitrary<boolean> = fc.constant(false)) =>
  fc.tuple(digits, decimals, neg).map(([n, k, m]) => {
    const t = n.toString().padStart(k + 1, '0');
    const s = k === 0 ? t : `${t.slice(0, -k)}.${t.slice(-k)}`;
    return m && n !== 0n ? `-${s}` : s;
  });
const account = fc.integer({ min: 0, max: ACCOUNTS.length }); // the last one: 'crowd' (exempt)
const symbol = fc.integer({ min: 0, max: SYMBOLS.length - 1 });
const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ c: fc.constant('rate' as const), account, symbol }) },
  {
    weight: 8,
    arbitrary: fc.record({
      c: fc.constant('fill' as const),
      account,
      symbol,
      taker: fc.boolean(),
      price: fc.oneof(
        { weight: 6, arbitrary: decimalText(fc.bigInt({ min: 1n, max: 99_999_999n }), fc.integer({ min: 0, max: 4 })) },
        { weight: 1, arbitrary: decimalText(fc.bigInt({ min: 1n, max: 10n ** 22n }), fc.integer({ min: 0, max: 20 })) },
      ),
      vol: fc.oneof(
        { weight: 6, arbitrary: fc.integer({ min: 1, max: 5000 }).map(String) },
        { weight: 1, arbitrary: decimalText(fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.integer({ min: 0, max: 6 })) },
      ),
      fee: fc.oneof(
        { weight: 6, arbitrary: decimalText(fc.bigInt({ min: 0n, max: 10n ** 9n }), fc.integer({ min: 0, max: 10 }), fc.boolean()) },
        { weight: 1, arbitrary: decimalText(fc.bigInt({ min: 0n, max: 10n ** 25n }), fc.integer({ min: 0, max: 18 }), fc.boolean()) },
      ),
      late: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 5 * DAY }) }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      c: fc.constant('burst' as const),
      account,
      symbol,
      n: fc.integer({ min: 200, max: 400 }),
      stepMs: fc.integer({ min: 1, max: 2 * DAY }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ c: fc.constant('time' as const), ms: fc.integer({ min: -2 * DAY, max: 200 * DAY }) }) },
  { weight: 1, arbitrary: fc.record({ c: fc.constant('leverage' as const), account, value: fc.integer({ min: 1, max: 60 }) }) },
);

type Model = Pick<ContractFeeModel, 'feeRates' | 'observe' | 'quote' | 'feeTotals' | 'fillDeduction'>;
const text = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (x instanceof Decimal ? `D${x.toFixed()}` : x));

/** Fills that took each path (checked at the end: the runs cover both). */
const seen = { fills: 0, unitSeries: 0, decimalSeries: 0, late: 0 };

function run(make: (o: ContractFeeModelOptions) => Model, cmds: readonly Cmd[], count: boolean): string[] {
  const clock = new SteppedClock(1_700_000_000_000);
  const leverage = new Map<string, number>();
  const model = make(options(clock, leverage));
  const out: string[] = [];
  let tradeId = 0;
  const name = (k: number) => ACCOUNTS[k] ?? 'crowd';
  const fill = (accountId: string, sym: number, taker: boolean, price: string, vol: string, fee: string, time: number) => {
    tradeId++;
    const e = {
      type: 'OrderFilled',
      time,
      fill: {
        tradeId: String(tradeId),
        accountId,
        symbol: SYMBOLS[sym]!,
        taker,
        price: d(price),
        vol: d(vol),
        fee: d(fee),
        feeCurrency: 'USDT',
        time,
      },
    } as unknown as ContractVenueEvent;
    model.observe(e);
    if (count) seen.fills++;
  };
  for (const c of cmds) {
    const state: unknown[] = [];
    if (c.c === 'rate') {
      state.push(model.feeRates(name(c.account), INSTRUMENTS[c.symbol]!));
    } else if (c.c === 'fill') {
      fill(name(c.account), c.symbol, c.taker, c.price, c.vol, c.fee, clock.t - c.late);
      if (count && c.late > 0) seen.late++;
    } else if (c.c === 'burst') {
      for (let i = 0; i < c.n; i++) {
        clock.t += c.stepMs;
        if (i % 50 === 0) state.push(model.feeRates(name(c.account), INSTRUMENTS[c.symbol]!));
        // every 7th reported late, three steps back
        const late = i % 7 === 6 ? 3 * c.stepMs + 1 : 0;
        fill(name(c.account), c.symbol, i % 3 === 0, `${1000 + (i % 17)}.5`, String(1 + (i % 5)), `0.0${i % 9}1`, clock.t - late);
      }
    } else if (c.c === 'time') {
      clock.t += c.ms;
    } else {
      for (const s of SYMBOLS) leverage.set(`${name(c.account)}:${s}`, c.value);
    }
    for (const a of [...ACCOUNTS, 'crowd']) {
      for (const s of SYMBOLS) state.push(model.quote(a, s));
      state.push(model.feeTotals(a), model.feeTotals(a, 500));
    }
    for (let t = Math.max(1, tradeId - 5); t <= tradeId; t++)
      for (const a of ACCOUNTS) state.push(model.fillDeduction(a, String(t), 'USDT'));
    out.push(text(state));
  }
  if (count) {
    const byAccount = (model as unknown as { volume: { byAccount: Map<string, Map<string, Series>> } }).volume.byAccount;
    for (const m of byAccount.values())
      for (const s of m.values()) {
        if (s.cum === undefined) seen.unitSeries++;
        else seen.decimalSeries++;
      }
  }
  return out;
}

describe('ContractFeeModel integer amounts (differential, property)', () => {
  it('answers_every_quote_total_and_deduction_with_the_digits_of_the_decimal_model', () => {
    fc.assert(
      fc.property(fc.array(cmd, { minLength: 5, maxLength: 80 }), (cmds) => {
        const ours = run((o) => new ContractFeeModel(o), cmds, true);
        const ref = run((o) => new ReferenceContractFeeModel(o) as unknown as Model, cmds, false);
        for (let i = 0; i < cmds.length; i++) expect(ours[i], `after ${text(cmds[i])}`).to.equal(ref[i]);
      }),
      { numRuns: 200, seed: 20261128 },
    );
    expect(seen.fills).to.be.greaterThan(20_000);
    expect(seen.late).to.be.greaterThan(100);
    expect(seen.unitSeries).to.be.greaterThan(100);
    expect(seen.decimalSeries).to.be.greaterThan(50);
  });
});
