/**
 * Cost of the trigger orders on the venue's price path: fair-price updates per second on a venue whose
 * accounts hold positions guarded by 1 200 live triggers that do not fire (stop-losses, plan orders
 * and trailing orders far from the price, trailing orders following it), against the same venue,
 * same positions, same updates, without triggers. The ratio is what the triggers cost on the price
 * path. Since issue 12 the book visits only the triggers an update crosses (triggers/trigger-index.ts)
 * and the liquidation check only the positions it may breach, so the third row (updates/s × live
 * triggers, kept for comparison with earlier runs) counts the triggers guarded per second, not evaluated.
 */
import { Decimal } from '../src/core/decimal.js';
import { VirtualClock } from '../src/core/clock.js';
import { ContractOrderType, ContractSide, OpenType } from '../src/domain/contract-enums.js';
import { ContractVenue } from '../src/venue/contract/contract-venue.js';
import { measure, type BenchRow, type BenchSuite } from './bench-row.js';
import { benchBtcUsdtContract } from './support/bench-instruments.js';

const d = (v: string | number): Decimal => new Decimal(v);
const SYMBOL = 'BTC_USDT';
const ACCOUNTS = 100;
/** Per account: 4 stop orders, 4 plan orders, 4 trailing orders. */
const PER_ACCOUNT = 12;

const instrument = benchBtcUsdtContract();

function venueWith(triggers: boolean, positions = true): ContractVenue {
  const venue = new ContractVenue({ clock: new VirtualClock(0), instruments: [instrument], autoFunding: false });
  venue.setFairPrice(SYMBOL, '50000');
  venue.setIndexPrice(SYMBOL, '50000');
  if (!positions) return venue;
  venue.deposit('maker', 'USDT', '1000000000');
  for (let a = 0; a < ACCOUNTS; a++) {
    const acct = `trader-${a}`;
    venue.deposit(acct, 'USDT', '1000000');
    venue.placeOrder('maker', {
      symbol: SYMBOL,
      side: ContractSide.OPEN_SHORT,
      type: ContractOrderType.LIMIT,
      price: '50000',
      vol: 10,
      leverage: 10,
      openType: OpenType.ISOLATED,
    });
    const r = venue.placeOrder(acct, {
      symbol: SYMBOL,
      side: ContractSide.OPEN_LONG,
      type: ContractOrderType.LIMIT,
      price: '50000',
      vol: 10,
      leverage: 10,
      openType: OpenType.ISOLATED,
    });
    if (!r.ok || !triggers) continue;
    const positionId = r.value.positionId!;
    for (let k = 0; k < 4; k++) {
      venue.placeStopOrder(acct, {
        positionId,
        vol: 1,
        stopLossPrice: 40000 - k,
        lossTrend: 2,
        takeProfitPrice: 60000 + k,
        profitTrend: 1,
      });
      venue.placePlanOrder(acct, {
        symbol: SYMBOL,
        side: ContractSide.OPEN_LONG,
        vol: 1,
        leverage: 10,
        openType: OpenType.ISOLATED,
        triggerPrice: 60000 + k,
        triggerType: 1,
        trend: 2,
        orderType: ContractOrderType.MARKET,
        executeCycle: 24 * 365,
      });
      // Sell-side trailing orders following the fair price with a 20 % callback: they track, never fire.
      venue.placeTrackOrder(acct, {
        symbol: SYMBOL,
        side: ContractSide.CLOSE_LONG,
        vol: 1,
        leverage: 10,
        openType: OpenType.ISOLATED,
        trend: 2,
        backType: 1,
        backValue: '0.2',
        positionMode: 1,
      });
    }
  }
  return venue;
}

/** Fair prices drifting up and down by a tick (the trailing orders move their benchmark on every new high). */
function updates(venue: ContractVenue): () => number {
  let i = 0;
  return () => {
    for (let k = 0; k < 256; k++, i++) venue.setFairPrice(SYMBOL, d(50000).add(d('0.1').mul(i % 64 < 32 ? i % 32 : 32 - (i % 32))));
    return 256;
  };
}

export const suite: BenchSuite = {
  title: 'trigger book',
  async run(): Promise<BenchRow[]> {
    const plain = venueWith(false);
    const guarded = venueWith(true);
    const live = guarded.openOrderCount('trader-0');
    if (live.stopOrderCount + live.planOrderCount + live.trackOrderCount !== PER_ACCOUNT)
      throw new Error('bench setup: triggers were refused');
    const empty = venueWith(false, false);
    const baseline = measure(updates(plain), 1500).opsPerSec;
    const ours = measure(updates(guarded), 1500).opsPerSec;
    const bare = measure(updates(empty), 1500).opsPerSec;
    if (guarded.checkInvariants().length > 0) throw new Error(`bench: ${guarded.checkInvariants()[0]}`);
    return [
      {
        name: `fair-price updates/s with ${ACCOUNTS * PER_ACCOUNT} live triggers on ${ACCOUNTS} positions`,
        ours,
        baseline,
        baselineName: 'same venue without triggers',
        unit: 'updates/s',
        budget: 200_000,
        higherIsBetter: true,
        note: 'each update also runs the liquidation check of the 100 isolated positions (both sides)',
      },
      {
        name: `fair-price updates/s, ${ACCOUNTS} positions + ${ACCOUNTS * PER_ACCOUNT} triggers vs an empty venue`,
        ours,
        baseline: bare,
        baselineName: 'same venue, no positions, no triggers',
        unit: 'updates/s',
        budget: bare / 2,
        higherIsBetter: true,
        note: 'budget (issue 12): ≥ 0.5× the empty venue in the same run',
      },
      {
        name: 'trigger evaluations/s (updates/s × live triggers)',
        ours: ours * ACCOUNTS * PER_ACCOUNT,
        unit: 'evals/s',
        higherIsBetter: true,
      },
    ];
  },
};
