import { expect } from 'chai';
import fc from 'fast-check';
import { Ledger, MAX_GRAINS } from '../../../src/venue/ledger/ledger.js';

/**
 * The fast path (amounts in grains) against the bigint path on a twin ledger: the same random flows,
 * including measures registered mid-way (the grain gets finer and every balance is refolded),
 * amounts near MAX_GRAINS (the fast parts fold into bigint) and deposits far beyond 2^53 grains.
 * After every step both ledgers must show the same balances, fees and answers, and stay consistent.
 */
const ACCOUNTS = ['a', 'b', 'c'];
const BASE = 'BTC';
const QUOTE = 'USDT';

type Step =
  | { op: 'deposit'; acct: number; base: boolean; units: bigint }
  | { op: 'withdraw'; acct: number; base: boolean; units: bigint }
  | { op: 'lock'; acct: number; base: boolean; grains: number }
  | { op: 'unlock'; acct: number; base: boolean; grains: number }
  | { op: 'settle'; buyer: number; seller: number; base: number; quote: number; extra: number; buyerFee: number; sellerFee: number }
  | { op: 'measure'; base: boolean; units: bigint };

const acct = fc.integer({ min: 0, max: ACCOUNTS.length - 1 });
const grains = fc.oneof(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: MAX_GRAINS }));
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ op: fc.constant('deposit' as const), acct, base: fc.boolean(), units: fc.bigInt({ min: 1n, max: 10n ** 40n }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('withdraw' as const),
      acct,
      base: fc.boolean(),
      units: fc.bigInt({ min: 1n, max: 10n ** 36n }),
    }),
  },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('lock' as const), acct, base: fc.boolean(), grains }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('unlock' as const), acct, base: fc.boolean(), grains }) },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('settle' as const),
      buyer: acct,
      seller: acct,
      base: grains,
      quote: grains,
      extra: fc.integer({ min: 0, max: 1000 }),
      buyerFee: fc.integer({ min: 0, max: 1000 }),
      sellerFee: fc.integer({ min: 0, max: 1000 }),
    }),
  },
  // units that share factors with the first measures, so the grain gets finer step by step
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('measure' as const),
      base: fc.boolean(),
      units: fc.constantFrom(10n ** 14n, 10n ** 11n, 2n * 10n ** 11n, 10n ** 12n, 10n ** 9n, 7n, 1n),
    }),
  },
);

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

function snapshot(l: Ledger): string[] {
  const out: string[] = [];
  for (const a of ACCOUNTS)
    for (const asset of [BASE, QUOTE]) out.push(`${a}/${asset} ${l.free(a, asset)} ${l.locked(a, asset)} paid ${l.feesPaid(a, asset)}`);
  for (const asset of [BASE, QUOTE]) out.push(`${asset} fees ${l.feesCollected(asset)}`);
  return out;
}

describe('Ledger grains (property)', () => {
  it('moves_exactly_what_the_bigint_path_moves_for_random_flows', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 80 }), (steps) => {
        const fast = new Ledger();
        const slow = new Ledger();
        // The grain of each asset starts at a lot / tick-lot size; later measures refine it to the gcd.
        const measures = { [BASE]: [fast.measure(BASE, 10n ** 14n)], [QUOTE]: [fast.measure(QUOTE, 10n ** 12n)] };
        const grain: Record<string, bigint> = { [BASE]: 10n ** 14n, [QUOTE]: 10n ** 12n };
        const grainOf = (asset: string): bigint => grain[asset]!;
        for (const s of steps) {
          if (s.op === 'measure') {
            const asset = s.base ? BASE : QUOTE;
            measures[asset]!.push(fast.measure(asset, s.units));
            grain[asset] = gcd(grain[asset]!, s.units);
            // each measure counts units / grain grains (NaN once that passes 2^40)
            for (const m of measures[asset]!)
              expect(
                Number.isNaN(m.grains) ? m.units / grainOf(asset) > 2n ** 40n : BigInt(m.grains) * grainOf(asset) === m.units,
              ).to.equal(true);
          } else if (s.op === 'deposit') {
            const asset = s.base ? BASE : QUOTE;
            fast.deposit(ACCOUNTS[s.acct]!, asset, s.units);
            slow.deposit(ACCOUNTS[s.acct]!, asset, s.units);
          } else if (s.op === 'withdraw') {
            const asset = s.base ? BASE : QUOTE;
            expect(fast.withdraw(ACCOUNTS[s.acct]!, asset, s.units)).to.equal(slow.withdraw(ACCOUNTS[s.acct]!, asset, s.units));
          } else if (s.op === 'lock') {
            const asset = s.base ? BASE : QUOTE;
            const units = BigInt(s.grains) * grainOf(asset);
            expect(fast.lockGrains(fast.account(ACCOUNTS[s.acct]!), asset, s.grains)).to.equal(slow.lock(ACCOUNTS[s.acct]!, asset, units));
          } else if (s.op === 'unlock') {
            const asset = s.base ? BASE : QUOTE;
            const units = BigInt(s.grains) * grainOf(asset);
            let fastErr = false;
            let slowErr = false;
            try {
              fast.unlockGrains(fast.account(ACCOUNTS[s.acct]!), asset, s.grains);
            } catch {
              fastErr = true;
            }
            try {
              slow.unlock(ACCOUNTS[s.acct]!, asset, units);
            } catch {
              slowErr = true;
            }
            expect(fastErr).to.equal(slowErr);
          } else {
            const bg = grainOf(BASE);
            const qg = grainOf(QUOTE);
            const lockedQuote = s.quote + s.extra;
            const buyerFee = Math.min(s.buyerFee, s.base);
            const sellerFee = Math.min(s.sellerFee, s.quote);
            if (lockedQuote > MAX_GRAINS) continue;
            let fastErr = false;
            let slowErr = false;
            try {
              fast.settleGrains({
                buyer: fast.account(ACCOUNTS[s.buyer]!),
                seller: fast.account(ACCOUNTS[s.seller]!),
                baseAsset: BASE,
                quoteAsset: QUOTE,
                base: s.base,
                quote: s.quote,
                buyerLockedQuote: lockedQuote,
                buyerFee,
                sellerFee,
              });
            } catch {
              fastErr = true;
            }
            try {
              slow.settleTrade({
                buyer: ACCOUNTS[s.buyer]!,
                seller: ACCOUNTS[s.seller]!,
                baseAsset: BASE,
                quoteAsset: QUOTE,
                baseUnits: BigInt(s.base) * bg,
                quoteUnits: BigInt(s.quote) * qg,
                buyerLockedQuote: BigInt(lockedQuote) * qg,
                buyerFee: BigInt(buyerFee) * bg,
                sellerFee: BigInt(sellerFee) * qg,
              });
            } catch {
              slowErr = true;
            }
            expect(fastErr).to.equal(slowErr);
          }
          expect(snapshot(fast)).to.deep.equal(snapshot(slow));
          expect(fast.checkInvariants()).to.deep.equal([]);
        }
      }),
      { numRuns: 300, seed: 20260601 },
    );
  });

  it('folds_fast_parts_past_2_pow_51_without_losing_a_unit', () => {
    const l = new Ledger();
    const m = l.measure('USDT', 1n);
    const a = l.account('a');
    l.deposit('a', 'USDT', 10n ** 30n);
    // 5 locks of 2^51 grains: the fast part passes ±2^51 several times and is folded each time
    for (let i = 0; i < 5; i++) expect(l.lockGrains(a, 'USDT', MAX_GRAINS)).to.equal(true);
    // 10^30 − 5·2^51 free, 5·2^51 locked (2^51 = 2 251 799 813 685 248)
    expect(l.locked('a', 'USDT')).to.equal(5n * 2_251_799_813_685_248n);
    expect(l.free('a', 'USDT')).to.equal(10n ** 30n - 5n * 2_251_799_813_685_248n);
    expect(m.grains).to.equal(1);
    expect(l.checkInvariants()).to.deep.equal([]);
  });

  it('refuses_a_fast_lock_beyond_the_free_balance_to_the_unit', () => {
    const l = new Ledger();
    l.measure('BTC', 10n);
    const a = l.account('a');
    // 1234 units free = 123 grains of 10 and 4 units: 123 grains lock, 124 do not
    l.deposit('a', 'BTC', 1234n);
    expect(l.lockGrains(a, 'BTC', 124)).to.equal(false);
    expect(l.lockGrains(a, 'BTC', 123)).to.equal(true);
    expect([l.free('a', 'BTC'), l.locked('a', 'BTC')]).to.deep.equal([4n, 1230n]);
    expect(() => l.unlockGrains(a, 'BTC', 124)).to.throw(Error, /unlocks/);
  });

  it('refines_the_grain_to_the_gcd_and_keeps_balances', () => {
    const l = new Ledger();
    const lot = l.measure('BTC', 10n ** 14n);
    const a = l.account('a');
    l.deposit('a', 'BTC', 10n ** 18n);
    expect(l.lockGrains(a, 'BTC', 3)).to.equal(true);
    // a fee step of 2·10^11 units makes the grain gcd(10^14, 2·10^11) = 2·10^11: a lot is 500 grains
    const fee = l.measure('BTC', 2n * 10n ** 11n);
    expect([lot.grains, fee.grains]).to.deep.equal([500, 1]);
    expect(l.locked('a', 'BTC')).to.equal(3n * 10n ** 14n);
    // the 3 lots locked before are 3 · 500 = 1500 grains now
    l.unlockGrains(a, 'BTC', 1500);
    expect([l.free('a', 'BTC'), l.locked('a', 'BTC')]).to.deep.equal([10n ** 18n, 0n]);
    expect(l.checkInvariants()).to.deep.equal([]);
  });
});
