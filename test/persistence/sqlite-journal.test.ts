import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { D } from '../../src/core/decimal.js';
import { clientOrderId, spotSymbol, strategyId, tradeId } from '../../src/core/ids.js';
import type { Fill } from '../../src/domain/fill.js';
import { createOrder, type Order } from '../../src/domain/order.js';
import { SqliteJournal } from '../../src/persistence/sqlite-journal.js';
import { decodeJson, encodeJson } from '../../src/persistence/decimal-json.js';

const SYM = spotSymbol('BTCUSDT');

function order(cid: string, now: number): Order {
  return createOrder(
    { symbol: SYM, kind: 'spot', side: 'buy', type: 'limit', timeInForce: 'gtc', price: D('100.10'), quantity: D('0.5') },
    { clientOrderId: clientOrderId(cid), strategyId: strategyId('mm'), now },
  );
}

function fill(id: string, cid: string, time: number): Fill {
  return {
    tradeId: tradeId(id),
    clientOrderId: clientOrderId(cid),
    symbol: SYM,
    kind: 'spot',
    side: 'buy',
    price: D('100.10'),
    quantity: D('0.2'),
    fee: D('0.00002'),
    feeAsset: 'BTC',
    liquidity: 'maker',
    time,
  };
}

describe('SqliteJournal', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'perpetua-journal-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('decimal_json_round_trips_decimals_and_keeps_numeric_looking_strings', () => {
    const v = { a: D('0.1').plus(D('0.2')), id: '12345', nested: [{ p: D('1e-8') }] };
    const back = decodeJson<typeof v>(encodeJson(v));
    expect(back.a.toFixed()).to.equal('0.3');
    expect(back.id).to.equal('12345');
    expect(back.nested[0]!.p.toFixed()).to.equal('0.00000001');
  });

  it('restores_open_orders_and_counted_trades_after_an_unclean_stop', () => {
    const path = join(dir, 'j.sqlite');
    const j1 = new SqliteJournal({ path });
    j1.startRun('hash-a', 'paper', 1000);
    const o = order('c1', 1000);
    j1.recordOrder(o);
    j1.recordOrder({ ...o, status: 'submitted', updatedAt: 1001 });
    j1.recordOrder({ ...o, status: 'accepted', venueOrderId: '777' as never, updatedAt: 1002 });
    j1.recordOrder({ ...order('c2', 1003), status: 'cancelled', updatedAt: 1004 });
    j1.recordEvent({
      type: 'OrderPartiallyFilled',
      ts: 1005,
      clientOrderId: clientOrderId('c1'),
      symbol: SYM,
      fill: fill('t1', 'c1', 1005),
    });
    // Simulates the crash: no endRun, the handle is dropped.
    j1.close();

    const j2 = new SqliteJournal({ path });
    j2.startRun('hash-a', 'paper', 2000);
    expect(j2.lastUncleanRun()?.configHash).to.equal('hash-a');
    const snap = j2.restore();
    const open = snap.orders.filter((x) => x.status === 'accepted');
    expect(open).to.have.length(1);
    expect(open[0]!.venueOrderId).to.equal('777');
    expect(open[0]!.price!.toFixed()).to.equal('100.1');
    expect(snap.orders.map((x) => x.clientOrderId)).to.include('c2');
    expect(snap.seenTradeIds).to.deep.equal(['t1']);
    expect(snap.lastFillTime).to.equal(1005);
    // each symbol's own newest fill: a restart reads each symbol's fills from there
    expect(snap.lastFillTimeBySymbol).to.deep.equal({ [SYM]: 1005 });
    j2.close();
  });

  it('counts_a_fill_once_however_often_it_is_recorded', () => {
    const j = new SqliteJournal({ path: ':memory:' });
    j.startRun('h', 'paper', 0);
    const ev = { type: 'OrderPartiallyFilled' as const, ts: 5, clientOrderId: clientOrderId('c1'), symbol: SYM, fill: fill('t9', 'c1', 5) };
    j.recordEvent(ev);
    j.recordEvent(ev);
    expect(j.fillCount()).to.equal(1);
    expect(j.events()).to.have.length(2);
    j.close();
  });

  it('marks_a_run_clean_when_it_ends', () => {
    const j = new SqliteJournal({ path: join(dir, 'k.sqlite') });
    j.startRun('h1', 'paper', 10);
    j.endRun(20, 'stopped');
    j.startRun('h2', 'paper', 30);
    expect(j.lastUncleanRun()).to.equal(undefined);
    expect(j.runs().map((r) => r.exitReason ?? null)).to.deep.equal(['stopped', null]);
    j.close();
  });
});
