/**
 * `perpetua orders | fills | positions --journal`: rows read back from a real SQLite journal written
 * through the journal's own API, rendered as CSV / JSON / table. The expected cells are the values
 * written (exact decimals, times as ISO UTC of the given epoch ms).
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { D } from '../../../src/core/decimal.js';
import { journalRows, renderRows } from '../../../src/app/cli/journal-command.js';
import { SqliteJournal } from '../../../src/persistence/sqlite-journal.js';
import { fill, order } from '../../domain/support/builders.js';

describe('journal views', () => {
  let dir: string;
  let path: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'perpetua-journal-view-'));
    path = join(dir, 'run.sqlite');
    const j = new SqliteJournal({ path });
    j.startRun('hash', 'paper', 1_767_225_600_000);
    // 2026-01-01T00:00:00Z: a limit buy of 0.002 at 87500.5, filled by two trades
    const o = {
      ...order({ price: D('87500.5'), quantity: D('0.002'), createdAt: 1_767_225_600_000, updatedAt: 1_767_225_601_000 }),
      status: 'filled' as const,
      filledQty: D('0.002'),
      filledNotional: D('175.001'),
      avgFillPrice: D('87500.5'),
    };
    j.recordOrder(o);
    const f1 = { ...fill(o, '0.0015', '87500.5'), time: 1_767_225_600_500, fee: D('0.01'), liquidity: 'maker' as const };
    const f2 = { ...fill(o, '0.0005', '87500.5'), time: 1_767_225_601_000, liquidity: 'maker' as const };
    j.recordEvent({
      type: 'OrderPartiallyFilled',
      ts: f1.time,
      strategyId: o.strategyId,
      clientOrderId: o.clientOrderId,
      symbol: o.symbol,
      fill: f1,
    } as never);
    j.recordEvent({
      type: 'OrderFilled',
      ts: f2.time,
      strategyId: o.strategyId,
      clientOrderId: o.clientOrderId,
      symbol: o.symbol,
      fill: f2,
    } as never);
    j.close();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('fills_as_csv_oldest_first', () => {
    const csv = renderRows(journalRows(path, 'fills'), 'csv', '');
    const lines = csv.trim().split('\n');
    expect(lines[0]).to.equal('time,strategy,symbol,side,price,quantity,fee,feeAsset,liquidity,tradeId,clientOrderId');
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 9).join(','))).to.deep.equal([
      '2026-01-01T00:00:00.500Z,mm1,BTCUSDT,buy,87500.5,0.0015,0.01,USDT,maker',
      '2026-01-01T00:00:01.000Z,mm1,BTCUSDT,buy,87500.5,0.0005,0,USDT,maker',
    ]);
  });

  it('orders_as_json_and_table_and_filters', () => {
    const rows = JSON.parse(renderRows(journalRows(path, 'orders'), 'json', '')) as Record<string, string>[];
    expect(rows).to.have.length(1);
    expect(rows[0]).to.include({
      created: '2026-01-01T00:00:00.000Z',
      side: 'buy',
      price: '87500.5',
      quantity: '0.002',
      filled: '0.002',
      avgPrice: '87500.5',
      status: 'filled',
    });
    const table = renderRows(journalRows(path, 'orders'), 'table', 'none').split('\n');
    expect(table[0]).to.match(/^created\s+strategy\s+symbol\s+side/);
    expect(table[1]).to.match(/^-+ {2}-+/);
    expect(journalRows(path, 'fills', { strategy: 'other' })).to.deep.equal([]);
    expect(renderRows([], 'table', 'no fills in x')).to.equal('no fills in x\n');
  });

  it('names_a_missing_journal', () => {
    expect(() => journalRows(join(dir, 'none.sqlite'), 'fills')).to.throw(/--journal: .*none\.sqlite does not exist/);
  });
});
