import { expect } from 'chai';
import { ValidationError } from '../../../src/core/errors.js';
import { spotSymbol } from '../../../src/core/ids.js';
import type { MarketSnapshot } from '../../../src/domain/snapshot.js';
import { PushMarketDataSource } from '../../../src/marketdata/poll/push-market-data-source.js';

const BTC = spotSymbol('BTCUSDT');
const ETH = spotSymbol('ETHUSDT');
const snap = (symbol: typeof BTC, seq: number): MarketSnapshot => ({ symbol, kind: 'spot', pollTime: seq * 1000, seq });

describe('PushMarketDataSource', () => {
  it('delivers_a_pushed_snapshot_synchronously_to_every_subscriber_of_its_symbol', async () => {
    const src = new PushMarketDataSource([BTC, ETH]);
    const btc: number[] = [];
    const btc2: number[] = [];
    const all: string[] = [];
    src.snapshots(BTC).subscribe((s) => btc.push(s.seq!));
    src.snapshots(BTC).subscribe((s) => btc2.push(s.seq!));
    src.snapshots().subscribe((s) => all.push(`${s.symbol}#${s.seq}`));
    await src.start();
    src.push(snap(BTC, 1));
    src.push(snap(ETH, 1));
    src.push(snap(BTC, 2));
    // no await in between: delivery is synchronous
    expect(btc).to.deep.equal([1, 2]);
    expect(btc2).to.deep.equal([1, 2]);
    expect(all).to.deep.equal(['BTCUSDT#1', 'ETHUSDT#1', 'BTCUSDT#2']);
  });

  it('refuses_pushes_before_start_and_for_unknown_symbols_and_completes_on_stop', async () => {
    const src = new PushMarketDataSource([BTC]);
    expect(() => src.push(snap(BTC, 1))).to.throw(ValidationError);
    await src.start();
    expect(() => src.push(snap(ETH, 1))).to.throw(ValidationError);
    let done = false;
    src.snapshots(BTC).subscribe({ complete: () => (done = true) });
    await src.stop();
    expect(done).to.equal(true);
    expect(() => src.push(snap(BTC, 2))).to.throw(ValidationError);
  });
});
