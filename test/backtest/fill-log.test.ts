/**
 * fill-log.ts: archiving must not change what the venue answers. Every fillsSince query over a log
 * archived at various points equals the answer of the plain scan over the full list (the venues' code
 * before the archive, restated here), and all() gives back every fill in order.
 */
import { expect } from 'chai';
import { D } from '../../src/core/decimal.js';
import type { InstrumentSymbol, TradeId } from '../../src/core/ids.js';
import type { Fill } from '../../src/domain/fill.js';
import { fillToJson } from '../../src/backtest/report/backtest-run.js';
import { FillLog } from '../../src/backtest/fill-log.js';

const BTC = 'BTCUSDT' as InstrumentSymbol;
const ETH = 'ETHUSDT' as InstrumentSymbol;

/** The venues' fillsSince before fill-log.ts: walk back from the newest while time >= since. */
function plainSince(fills: readonly Fill[], symbol: InstrumentSymbol, since: number): Fill[] {
  const out: Fill[] = [];
  for (let i = fills.length - 1; i >= 0; i--) {
    if (fills[i]!.time < since) break;
    if (fills[i]!.symbol === symbol) out.push(fills[i]!);
  }
  return out.reverse();
}

describe('backtest/fill-log', () => {
  // 300 fills, two symbols, several at the same millisecond, some with optional fields.
  const fills: Fill[] = [];
  for (let k = 0; k < 300; k++) {
    fills.push({
      tradeId: `t${k}` as TradeId,
      ...(k % 7 === 0 ? {} : { clientOrderId: `pp_q${k}` as never }),
      symbol: k % 3 === 0 ? ETH : BTC,
      kind: 'spot',
      price: D(1000 + (k % 11)),
      quantity: D('0.002'),
      time: 1_000 + Math.floor(k / 4) * 10,
      side: k % 2 === 0 ? 'buy' : 'sell',
      fee: k % 5 === 0 ? D('0.1') : D(0),
      feeAsset: 'USDT',
      liquidity: k % 5 === 0 ? 'taker' : 'maker',
    });
  }
  const json = (xs: readonly Fill[]) => xs.map(fillToJson);

  it('answers_every_query_as_the_plain_list_does_wherever_the_archive_ends', () => {
    for (const archiveAt of [0, 1, 50, 120, 299, 300]) {
      const log = new FillLog();
      for (const f of fills) log.recent.push(f);
      log.archiveOldest(archiveAt);
      expect(log.archived).to.equal(archiveAt);
      expect(log.recent).to.have.length(300 - archiveAt);
      for (const since of [0, 1_000, 1_005, 1_010, 1_300, 1_420, 1_740, 1_750, 9_999])
        for (const s of [BTC, ETH])
          expect(json(log.since(s, since)), `${archiveAt} ${since} ${s}`).to.deep.equal(json(plainSince(fills, s, since)));
      expect(json(log.all())).to.deep.equal(json(fills));
    }
  });
});
