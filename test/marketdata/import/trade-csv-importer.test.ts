import { expect } from 'chai';
import { ValidationError } from '../../../src/core/errors.js';
import type { TradeRecord } from '../../../src/marketdata/record/record.js';
import { ImportStats } from '../../../src/marketdata/import/import-stats.js';
import { importTradeFile, type TradeImportOptions } from '../../../src/marketdata/import/trade-csv-importer.js';
import { TempFiles, collect, dataFixture } from './support/data-fixtures.js';

async function run(file: string, opts: TradeImportOptions): Promise<{ recs: TradeRecord[]; stats: ImportStats }> {
  const stats = new ImportStats();
  const recs = (await collect(importTradeFile(file, opts, stats))) as TradeRecord[];
  return { recs, stats };
}

describe('trade csv importer', () => {
  const temp = new TempFiles();
  afterEach(() => temp.remove());

  it('reads_headerless_binance_spot_trades', async () => {
    const { recs } = await run(dataFixture('BTCUSDT-trades-2024-08-08.binance-vision.first40.csv'), { market: 'spot' });
    expect(recs).to.have.length(40);
    // 3735683259,61837.63000000,0.02000000,1236.75260000,1723161255342,True,True: buyer is maker → taker sold.
    expect(recs[0]).to.deep.equal({
      s: 'trade',
      m: 'spot',
      i: 'BTCUSDT',
      et: 1723161255342,
      lt: 1723161255342,
      id: '3735683259',
      p: '61837.63000000',
      q: '0.02000000',
      ts: 'sell',
    });
    expect(recs[39]).to.include({ id: '3735683298', p: '61828.55000000', q: '0.00017000', et: 1723161255745 });
  });

  it('reads_usdm_trades_with_a_header_into_the_contract_symbol', async () => {
    const { recs } = await run(dataFixture('BTCUSDT-trades-2024-08-08.usdm-vision.first30.csv'), { market: 'contract' });
    expect(recs).to.have.length(30);
    // 5266583935,61800.30,0.006,370.8018,1723161256322,false → taker bought.
    expect(recs[0]).to.deep.equal({
      s: 'trade',
      m: 'contract',
      i: 'BTC_USDT',
      et: 1723161256322,
      lt: 1723161256322,
      id: '5266583935',
      p: '61800.30',
      q: '0.006',
      ts: 'buy',
    });
    expect(recs[29]).to.include({ id: '5266583964', p: '61800.10', q: '0.254', ts: 'sell' });
  });

  it('tells_aggtrades_apart_by_where_time_and_flags_sit', async () => {
    // agg_id, price, qty, first_id, last_id, time (µs, as Binance spot files since 2025), maker, best match
    const file = temp.write(
      'BTCUSDT-aggTrades-2025-01-01.csv',
      '3370000001,93576.00000000,0.00114000,4370000001,4370000003,1735689600123456,false,true\n',
    );
    const { recs } = await run(file, { market: 'spot' });
    expect(recs).to.deep.equal([
      {
        s: 'trade',
        m: 'spot',
        i: 'BTCUSDT',
        et: 1735689600123,
        lt: 1735689600123,
        id: '3370000001',
        p: '93576.00000000',
        q: '0.00114000',
        ts: 'buy',
      },
    ]);
  });

  it('reads_a_tardis_style_file_with_side_symbol_and_local_time', async () => {
    const file = temp.write(
      'trades.csv',
      [
        'exchange,symbol,timestamp,local_timestamp,id,side,price,amount',
        'binance-futures,BTCUSDT,1723161256322000,1723161255088176,5266583935,buy,61800.30,0.006',
        'binance-futures,ETHUSDT,1723161256400000,1723161255100000,,sell,2681.60,1.5',
      ].join('\n'),
    );
    const { recs } = await run(file, { market: 'contract' });
    expect(recs).to.deep.equal([
      {
        s: 'trade',
        m: 'contract',
        i: 'BTC_USDT',
        et: 1723161256322,
        lt: 1723161255088,
        id: '5266583935',
        p: '61800.30',
        q: '0.006',
        ts: 'buy',
      },
      { s: 'trade', m: 'contract', i: 'ETH_USDT', et: 1723161256400, lt: 1723161255100, p: '2681.60', q: '1.5', ts: 'sell' },
    ]);
  });

  it('names_the_line_and_field_of_a_bad_side', async () => {
    const file = temp.write('BTCUSDT_trades.csv', 'time,price,qty,side\n1723161256322,1,1,buy\n1723161256323,1,1,up\n');
    const err = await collect(importTradeFile(file, { market: 'spot' }, new ImportStats())).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(ValidationError);
    expect((err as ValidationError).field).to.equal(`${file} line 3 field side`);
  });
});
