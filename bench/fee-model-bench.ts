/**
 * Cost of the contract fee model in the fill path. Row 1: the contract venue's maker+taker cycle with
 * ContractFeeModel as its feeRates hook (TIERED schedule, every fill recorded into the 30-day window)
 * against the same venue with constant rates and a no-op event listener. Row 2: one 30-day window sum over a long fill history
 * (DealVolumeWindow, binary searches on running totals) against a linear scan of the same entries.
 */
import { Decimal } from '../src/core/decimal.js';
import { VirtualClock } from '../src/core/clock.js';
import { SeededRandom } from '../src/core/random.js';
import { ContractOrderType, ContractSide, OpenType, PositionMode } from '../src/domain/contract-enums.js';
import { ContractVenue, type FeeRates } from '../src/venue/contract/contract-venue.js';
import { ContractFeeModel } from '../src/venue/fees/contract-fee-model.js';
import { DealVolumeWindow, type DealEntry } from '../src/venue/fees/deal-volume-window.js';
import { measure, type BenchRow, type BenchSuite } from './bench-row.js';
import { benchBtcUsdtContract } from './support/bench-instruments.js';

const d = (v: string | number): Decimal => new Decimal(v);
const DAY = 86_400_000;

const instrument = benchBtcUsdtContract();

const TIERS = [
  { takerFeeRate: d('0.0006'), makerFeeRate: d('0.0002'), minTieredDealAmount: d(0), maxTieredDealAmount: d(1_000_000) },
  { takerFeeRate: d('0.0004'), makerFeeRate: d('0.0001'), minTieredDealAmount: d(1_000_000) },
];

function venueCycle(withModel: boolean): () => number {
  const r = new SeededRandom('fee-model-bench');
  const clock = new VirtualClock(0);
  const constant: FeeRates = { maker: instrument.makerFeeRate, taker: instrument.takerFeeRate };
  let model: ContractFeeModel | undefined;
  const venue = new ContractVenue({
    clock,
    instruments: [instrument],
    autoFunding: false,
    feeRates: withModel ? (a, i) => model!.feeRates(a, i) : () => constant,
  });
  if (withModel) {
    model = new ContractFeeModel({
      clock,
      instruments: [instrument],
      overrides: { BTC_USDT: { feeRateMode: 'TIERED', tieredFeeRates: TIERS } },
    });
    venue.on(model.observe);
  } else {
    // The emulator always listens to its venue; a listener makes the venue build event views, which is not the model's cost.
    venue.on(() => undefined);
  }
  for (const a of ['maker', 'taker']) {
    venue.openAccount(a, PositionMode.ONE_WAY);
    venue.deposit(a, 'USDT', '1000000000');
  }
  return () => {
    for (let k = 0; k < 256; k++) {
      // time moves so the window keeps sliding (and pruning) as on a long run
      clock.advanceBy(1000);
      const price = d(500000 + r.int(-50, 50)).div(10);
      const lots = r.int(1, 50);
      const makerBuys = r.next() < 0.5;
      venue.placeOrder('maker', {
        symbol: 'BTC_USDT',
        side: makerBuys ? ContractSide.OPEN_LONG : ContractSide.OPEN_SHORT,
        type: ContractOrderType.LIMIT,
        price,
        vol: lots,
        leverage: 20,
        openType: OpenType.CROSS,
      });
      venue.placeOrder('taker', {
        symbol: 'BTC_USDT',
        side: makerBuys ? ContractSide.OPEN_SHORT : ContractSide.OPEN_LONG,
        type: ContractOrderType.LIMIT,
        price,
        vol: lots,
        leverage: 20,
        openType: OpenType.CROSS,
      });
    }
    return 256;
  };
}

function history(n: number): DealEntry[] {
  const r = new SeededRandom('fee-window-bench');
  const out: DealEntry[] = [];
  for (let i = 0; i < n; i++) out.push({ time: i * 2000, symbol: 'BTC_USDT', amount: d(r.int(1, 5000)), fee: d(1), saved: d(0) });
  return out;
}

export const suite: BenchSuite = {
  title: 'contract fee model',
  async run(): Promise<BenchRow[]> {
    const plain = measure(venueCycle(false), 2000).opsPerSec;
    const tiered = measure(venueCycle(true), 2000).opsPerSec;

    // 1.3M fills, one every 2 s: 30 days of a busy account
    const entries = history(1_300_000);
    const window = new DealVolumeWindow(400 * DAY);
    for (const e of entries) window.record('a', e);
    const now = entries[entries.length - 1]!.time;
    const fast = measure(() => {
      for (let k = 0; k < 1000; k++) window.totals('a', { from: now - 30 * DAY + k, to: now });
      return 1000;
    }, 1000).opsPerSec;
    const scan = measure(() => {
      let s = d(0);
      for (const e of entries) if (e.time > now - 30 * DAY && e.time <= now) s = s.add(e.amount);
      return s.isNeg() ? 0 : 1;
    }, 1000).opsPerSec;
    return [
      {
        name: 'maker+taker cycles/s with the TIERED fee model as the hook',
        ours: tiered,
        baseline: plain,
        baselineName: 'constant rates, no-op listener',
        unit: 'cycles/s',
        higherIsBetter: true,
      },
      {
        name: '30-day traded amount over 1.3M fills',
        ours: fast,
        baseline: scan,
        baselineName: 'linear scan',
        unit: 'sums/s',
        higherIsBetter: true,
      },
    ];
  },
};
