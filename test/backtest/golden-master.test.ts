/**
 * The golden master (docs/architecture.md rule 11, LEAN's regression algorithms): the reference spot market
 * maker on 60 s of real Binance BTCUSDT order book and trades (test/fixtures/data/backtest), neutral
 * fill model. The expected statistics were computed once by this code and are checked here two ways:
 * against the numbers kept below, and against an INDEPENDENT recomputation from the fill list in
 * integer arithmetic (cents × satoshi), with the final mark taken from a book rebuilt separately with
 * the record layer's L2Book. Any change to replay, fill model, runtime or strategy that moves a single
 * order shows up as a different order-list hash.
 */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { L2Book } from '../../src/marketdata/record/l2-book.js';
import type { DataRecord } from '../../src/marketdata/record/record.js';
import { loadBacktestData } from '../../src/backtest/backtest-data.js';
import { runBacktest, type BacktestResult } from '../../src/backtest/backtest-runner.js';
import { orderToJson } from '../../src/backtest/report/backtest-run.js';
import { spotMmConfig } from './support/backtest-fixtures.js';

const EXPECTED = {
  records: 1981,
  firstTime: 1723161255208,
  lastTime: 1723161315153,
  orders: 32,
  ordersByStatus: { cancelled: 23, filled: 7, rejected: 2 },
  fills: 23,
  finalPositionBtc: '0.002',
  finalEquity: '99999.92415',
  netPnl: '-0.07585',
  ordersSha256: 'dfad05c13086b71d8b49cb07ad83c9eb2fcd7d9bd52883f91ee6751d60240d4b',
};

/** "61826.67" → 6182667n at `decimals` places (exact; no floating point). */
function scaled(s: string, decimals: number): bigint {
  const [int, raw = ''] = s.split('.');
  const frac = raw.replace(/0+$/, '');
  if (frac.length > decimals) throw new Error(`${s} has more than ${decimals} decimals`);
  return BigInt(int! + frac.padEnd(decimals, '0'));
}

function format(v: bigint, decimals: number): string {
  const neg = v < 0n;
  const digits = (neg ? -v : v).toString().padStart(decimals + 1, '0');
  const out = `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`.replace(/\.?0+$/, '');
  return neg ? `-${out}` : out;
}

describe('golden master: spot market maker on recorded BTCUSDT (neutral)', function () {
  this.timeout(60_000);
  let records: DataRecord[];
  let result: BacktestResult;

  before(async () => {
    const config = spotMmConfig();
    records = (await loadBacktestData(config.backtest.data)).records;
    result = await runBacktest({ config, records, fillModel: config.fillModels.find((m) => m.name === 'neutral')! });
  });

  it('replays_the_excerpt_it_was_computed_on', () => {
    expect(records).to.have.length(EXPECTED.records);
    expect(result.run.dataRange.firstTime).to.equal(EXPECTED.firstTime);
    expect(result.run.dataRange.lastTime).to.equal(EXPECTED.lastTime);
    expect(result.run.dataRange.klineOnlyIntraBar).to.equal(false);
  });

  it('keeps_its_orders_fills_position_and_pnl', () => {
    const run = result.run;
    const byStatus: Record<string, number> = {};
    for (const o of run.orders) byStatus[o.status] = (byStatus[o.status] ?? 0) + 1;
    const last = run.samples[run.samples.length - 1]!;
    expect(run.orders).to.have.length(EXPECTED.orders);
    expect(byStatus).to.deep.equal(EXPECTED.ordersByStatus);
    expect(run.fills).to.have.length(EXPECTED.fills);
    expect(last.positions.BTCUSDT?.toFixed()).to.equal(EXPECTED.finalPositionBtc);
    expect(last.equity.toFixed()).to.equal(EXPECTED.finalEquity);
    expect(last.equity.minus(run.initialCapital).toFixed()).to.equal(EXPECTED.netPnl);
  });

  it('keeps_the_hash_of_its_order_list', () => {
    const sha = createHash('sha256')
      .update(JSON.stringify(result.run.orders.map(orderToJson)))
      .digest('hex');
    expect(sha).to.equal(EXPECTED.ordersSha256);
  });

  it('agrees_with_a_pnl_recomputed_by_hand_from_the_fills', () => {
    // Cash in 10^-10 USDT (cents × satoshi), position in satoshi.
    let cash = scaled('100000', 10);
    let sats = 0n;
    for (const f of result.run.fills) {
      const notional = scaled(f.price.toFixed(), 2) * scaled(f.quantity.toFixed(), 8);
      const q = scaled(f.quantity.toFixed(), 8);
      if (f.side === 'buy') {
        cash -= notional;
        sats += q;
      } else {
        cash += notional;
        sats -= q;
      }
      // The fee leaves the asset the side received (base on a buy, quote on a sell).
      if (f.feeAsset === 'BTC') sats -= scaled(f.fee.toFixed(), 8);
      else cash -= scaled(f.fee.toFixed(), 10);
    }
    // The final mark: the mid of the book rebuilt from the records with the record layer's own L2Book.
    const l2 = new L2Book();
    const ticks = (p: string): number => Number(scaled(p, 2));
    const lots = (q: string): number => Number(scaled(q, 8));
    for (const r of records) {
      if (r.s === 'depth.snapshot')
        l2.applySnapshot(
          r.u,
          r.b.map((l) => [ticks(l[0]), lots(l[1])]),
          r.a.map((l) => [ticks(l[0]), lots(l[1])]),
        );
      else if (r.s === 'depth.diff')
        l2.applyDiff(
          r.U,
          r.u,
          r.pu,
          r.b.map((l) => [ticks(l[0]), lots(l[1])]),
          r.a.map((l) => [ticks(l[0]), lots(l[1])]),
        );
    }
    const midTimes2 = BigInt(l2.bestBid()! + l2.bestAsk()!); // cents × 2
    // equity = cash + position · mid, in 10^-10 USDT: sats · (mid cents × 2) / 2
    const equity = cash + (sats * midTimes2) / 2n;
    const last = result.run.samples[result.run.samples.length - 1]!;
    expect(format(sats, 8)).to.equal(EXPECTED.finalPositionBtc);
    expect(format(cash, 10)).to.equal(last.cash.toFixed());
    expect(last.marks.BTCUSDT!.toFixed()).to.equal(format(midTimes2 * 50n, 4).replace(/\.?0+$/, ''));
    expect(format(equity, 10)).to.equal(EXPECTED.finalEquity);
  });
});
