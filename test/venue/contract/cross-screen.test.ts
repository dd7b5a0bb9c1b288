/**
 * The cross screen (cross-screen.ts) against the exact linear scan it stands in front of
 * (liquidation-rules `crossMargin` + `isCrossBreached`, the Decimal sum the venue ran on every
 * fair-price update before): whenever the screen answers "surely safe", the exact scan must find no
 * breach — over random accounts of 1–3 cross positions on two markets, wallets, margins and fair prices
 * swept across the breach edge, and after every input the screen caches changes. The screen must
 * also answer "safe" for most prices far from the edge, or it would save nothing.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { Decimal } from '../../../src/core/decimal.js';
import { contractSymbol, positionId } from '../../../src/core/ids.js';
import { OpenType, PositionType } from '../../../src/domain/contract-enums.js';
import { Wallet } from '../../../src/venue/contract/contract-state.js';
import { amountToUnits } from '../../../src/venue/ledger/ledger-units.js';
import { ContractPosition } from '../../../src/venue/contract/contract-position.js';
import { ContractSpec } from '../../../src/venue/contract/contract-spec.js';
import { CrossScreen } from '../../../src/venue/contract/cross-screen.js';
import { crossMargin, isCrossBreached } from '../../../src/venue/contract/liquidation-rules.js';
import { testInstrument } from './contract-test-kit.js';

const d = (v: string | number): Decimal => new Decimal(v);
const SPEC_A = new ContractSpec(testInstrument());
const SPEC_B = new ContractSpec(testInstrument({ symbol: contractSymbol('ETH_USDT') }));

interface Case {
  readonly free: Decimal;
  readonly frozen: Decimal;
  readonly positions: ContractPosition[];
  /** Marks per symbol (the screened market's is the fair price under test). */
  readonly marks: Map<string, Decimal>;
}

const positionArb = fc.record({
  onB: fc.boolean(),
  long: fc.boolean(),
  lots: fc.integer({ min: 1, max: 200_000 }),
  entryTicks: fc.integer({ min: 100_000, max: 1_000_000 }),
  imCents: fc.integer({ min: 0, max: 5_000_000 }),
});

const caseArb = fc.record({
  freeCents: fc.integer({ min: -1_000_000, max: 50_000_000 }),
  frozenCents: fc.integer({ min: 0, max: 1_000_000 }),
  positions: fc.array(positionArb, { minLength: 1, maxLength: 3 }),
  markB: fc.integer({ min: 100_000, max: 1_000_000 }),
});

type RawCase = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

function build(c: RawCase): Case {
  const positions = c.positions.map((p, i) => {
    const spec = p.onB ? SPEC_B : SPEC_A;
    const pos = new ContractPosition(positionId(i + 1), spec, p.long ? PositionType.LONG : PositionType.SHORT, OpenType.CROSS, 10, 0);
    pos.open(p.lots, p.entryTicks);
    pos.im = d(p.imCents).div(100);
    return pos;
  });
  return {
    free: d(c.freeCents).div(100),
    frozen: d(c.frozenCents).div(100),
    positions,
    marks: new Map([[SPEC_B.symbol, d(c.markB).div(10)]]),
  };
}

const mmrOf = (p: ContractPosition): Decimal => p.spec.tierOfLots(p.holdLots).mmr;

/** The exact scan the venue runs (crossOf), with `fair` as the mark of market A. */
function exactBreach(c: Case, fair: Decimal): boolean {
  return isCrossBreached(
    crossMargin(c.positions, c.free, c.frozen, (p) => (p.spec.symbol === SPEC_A.symbol ? fair : c.marks.get(p.spec.symbol)!), mmrOf),
  );
}

/** The fair price of market A at which the exact equity − maintenance is zero, if any (a double). */
function edgeOf(c: Case): number | undefined {
  const at = (f: number): number => {
    const m = crossMargin(
      c.positions,
      c.free,
      c.frozen,
      (p) => (p.spec.symbol === SPEC_A.symbol ? d(f) : c.marks.get(p.spec.symbol)!),
      mmrOf,
    );
    return m.equity.sub(m.maintenance).toNumber();
  };
  const a0 = at(0);
  const slope = at(1) - a0;
  return slope === 0 ? undefined : -a0 / slope;
}

function screenSafe(screen: CrossScreen, wallet: Wallet, c: Case, fair: Decimal): boolean {
  return screen.surelySafe(wallet, SPEC_A.symbol, fair.toNumber(), c.positions, (p) => c.marks.get(p.spec.symbol), mmrOf);
}

/** A USDT wallet holding `free` and `frozen` (the venue keeps frozen order margin in ledger units). */
function walletOf(free: Decimal, frozen: Decimal): Wallet {
  const w = new Wallet('USDT');
  w.free = free;
  w.frozenUnits = amountToUnits(frozen);
  return w;
}

describe('CrossScreen', () => {
  it('never_calls_safe_what_the_exact_scan_breaches', () => {
    let safe = 0;
    let total = 0;
    fc.assert(
      fc.property(caseArb, fc.array(fc.double({ min: -0.02, max: 0.02, noNaN: true }), { minLength: 1, maxLength: 12 }), (raw, offsets) => {
        const c = build(raw);
        const wallet = walletOf(c.free, c.frozen);
        const screen = new CrossScreen();
        const edge = edgeOf(c);
        // Prices around the breach edge (and plain prices when there is none or it is not positive).
        const base = edge !== undefined && edge > 1 ? edge : 50_000;
        for (const off of [...offsets, 0, 1e-12, -1e-12, 0.5, -0.5]) {
          const f = base * (1 + off);
          if (!(f > 0.1)) continue;
          const fair = d(f.toFixed(1));
          const s = screenSafe(screen, wallet, c, fair);
          total++;
          if (s) safe++;
          if (s) expect(exactBreach(c, fair), `screen said safe at ${fair.toString()} (edge ${edge})`).to.equal(false);
        }
      }),
      { numRuns: 300 },
    );
    // Far from the edge (±50 %) most answers are "safe"; near it they go to the exact test.
    expect(safe / total).to.be.greaterThan(0.2);
  });

  it('keeps_its_bound_only_while_margin_moves_between_free_and_frozen', () => {
    // Long 1 BTC at 50,000 with im 100: equity − mm at 49,800 is free + frozen − 299.2 (mmr 0.004, as below).
    // The bound is kept when an order's margin moves from free to frozen (the same sum), and must be
    // dropped when the sum changes, also when both parts changed (a fill releasing margin and booking fees).
    const p = new ContractPosition(positionId(1), SPEC_A, PositionType.LONG, OpenType.CROSS, 10, 0);
    p.open(10_000, 500_000);
    p.im = d(100);
    const wallet = walletOf(d(400), d(0));
    const screen = new CrossScreen();
    const fair = d(49_800);
    const at = (free: number, frozen: number): Case => ({ free: d(free), frozen: d(frozen), positions: [p], marks: new Map() });
    const move = (free: number, frozen: number): boolean => {
      wallet.free = d(free);
      wallet.frozenUnits = amountToUnits(d(frozen));
      const safe = screenSafe(screen, wallet, at(free, frozen), fair);
      if (safe) expect(exactBreach(at(free, frozen), fair), `${free} + ${frozen}`).to.equal(false);
      return safe;
    };
    expect(move(400, 0)).to.equal(true);
    expect(move(300, 100)).to.equal(true);
    expect(move(0, 400)).to.equal(true);
    expect(move(0, 200)).to.equal(false);
    expect(exactBreach(at(0, 200), fair)).to.equal(true);
    expect(move(350, 50)).to.equal(true);
    expect(move(100, 150)).to.equal(false);
    expect(exactBreach(at(100, 150), fair)).to.equal(true);
    expect(move(300, 100)).to.equal(true);
    expect(move(-100, 500)).to.equal(true);
    expect(move(250, 50)).to.equal(true);
    expect(move(250, 40)).to.equal(false);
  });

  it('drops_its_cached_bound_when_an_input_changes', () => {
    // Long 10,000 lots (1 BTC) at 50,000 with im 500, free 0: equity − mm = 500 + (P − 50000) − 0.004·P (tier 1 mmr 0.004
    // per the test instrument), so the edge is 49,500 / 0.996 ≈ 49,698.8; at 49,800 it is safe by ≈101.
    const p = new ContractPosition(positionId(1), SPEC_A, PositionType.LONG, OpenType.CROSS, 10, 0);
    p.open(10_000, 500_000);
    p.im = d(500);
    const c: Case = { free: d(0), frozen: d(0), positions: [p], marks: new Map() };
    const wallet = walletOf(d(0), d(0));
    const screen = new CrossScreen();
    const fair = d(49_800);
    expect(mmrOf(p).toString()).to.equal('0.004');
    expect(screenSafe(screen, wallet, c, fair)).to.equal(true);
    expect(exactBreach(c, fair)).to.equal(false);
    // Each change below makes the account breached at the same price: the screen must not answer from its cache.
    wallet.free = d(-200);
    expect(screenSafe(screen, wallet, { ...c, free: wallet.free }, fair)).to.equal(false);
    expect(exactBreach({ ...c, free: wallet.free }, fair)).to.equal(true);
    wallet.free = d(0);
    expect(screenSafe(screen, wallet, c, fair)).to.equal(true);
    p.im = d(300);
    expect(screenSafe(screen, wallet, c, fair)).to.equal(false);
    expect(exactBreach(c, fair)).to.equal(true);
    p.im = d(500);
    expect(screenSafe(screen, wallet, c, fair)).to.equal(true);
    // A second cross position (1 BTC long at 50,000, no margin): 500 − 200 − 200 − 2·199.2 < 0.
    const q = new ContractPosition(positionId(2), SPEC_A, PositionType.LONG, OpenType.CROSS, 10, 0);
    q.open(10_000, 500_000);
    const two: Case = { ...c, positions: [p, q] };
    expect(screenSafe(screen, wallet, two, fair)).to.equal(false);
    expect(exactBreach(two, fair)).to.equal(true);
    // Hedged by a 1 BTC short at 50,000 with margin 1000, p with margin 300 is safe (300 − 200 + 200 + 1000 − 398.4);
    // once the short is gone it is breached (300 − 200 − 199.2): a position that left must drop the bound.
    p.im = d(300);
    const short = new ContractPosition(positionId(3), SPEC_A, PositionType.SHORT, OpenType.CROSS, 10, 0);
    short.open(10_000, 500_000);
    short.im = d(1000);
    expect(screenSafe(screen, wallet, { ...c, positions: [p, short] }, fair)).to.equal(true);
    expect(screenSafe(screen, wallet, c, fair)).to.equal(false);
    expect(exactBreach(c, fair)).to.equal(true);
    p.im = d(500);
    p.open(10_000, 500_000); // doubles the position (tier 2, mmr 0.01): 500 − 400 − 996 < 0
    expect(screenSafe(screen, wallet, c, fair)).to.equal(false);
    expect(exactBreach(c, fair)).to.equal(true);
  });
});
