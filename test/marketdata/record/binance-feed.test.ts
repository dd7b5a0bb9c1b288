import { expect } from 'chai';
import { localTimeMs, parseBinanceFeed, parseBinanceFeedLine } from '../../../src/marketdata/record/binance-feed.js';

const spot = { market: 'spot', symbol: 'BTCUSDT' } as const;

describe('binance-feed', () => {
  it('converts_nanosecond_microsecond_and_millisecond_local_times', () => {
    expect(localTimeMs('1723161254206652067')).to.equal(1723161254206);
    expect(localTimeMs('1680652800091265')).to.equal(1680652800091);
    expect(localTimeMs('1680652800091')).to.equal(1680652800091);
  });

  it('turns_the_rest_snapshot_and_stream_messages_into_records', () => {
    const text = [
      '1723161254206652067 {"lastUpdateId":50093239218,"bids":[["61837.63000000","3.78826000"]],"asks":[["61837.64000000","0.10000000"]]}',
      '1723161254300000000 {"stream":"btcusdt@depth@100ms","data":{"e":"depthUpdate","E":1723161255500,"s":"BTCUSDT","U":50093239210,"u":50093239230,"b":[["61837.63000000","0.00000000"]],"a":[]}}',
      '1723161600164378285 {"stream":"btcusdt@trade","data":{"e":"trade","E":1723161601438,"s":"BTCUSDT","t":3735693016,"p":"61685.99000000","q":"0.00017000","T":1723161601437,"m":true,"M":true}}',
      '1723161600001692584 {"stream":"btcusdt@bookTicker","data":{"u":50093421613,"s":"BTCUSDT","b":"61685.99000000","B":"1.25869000","a":"61686.00000000","A":"2.44816000"}}',
      '',
    ].join('\n');
    const r = parseBinanceFeed(text, spot);
    expect(r.map((x) => [x.s, x.et, x.lt])).to.deep.equal([
      ['depth.snapshot', 1723161254206, 1723161254206],
      ['depth.diff', 1723161255500, 1723161254300],
      ['trade', 1723161601437, 1723161600164],
      ['bookTicker', 1723161600001, 1723161600001],
    ]);
    expect(r[1]).to.deep.include({ U: 50093239210, u: 50093239230, b: [['61837.63000000', '0.00000000']] });
    // m = true: the buyer was the maker, the seller took.
    expect(r[2]).to.deep.include({ id: '3735693016', p: '61685.99000000', q: '0.00017000', ts: 'sell' });
    expect(r[3]).to.deep.include({ u: 50093421613, bp: '61685.99000000', aq: '2.44816000' });
  });

  it('splits_mark_price_updates_and_drops_insurance_fund_trades', () => {
    const perp = { market: 'contract', symbol: 'BTC_USDT' } as const;
    const mark = parseBinanceFeedLine(
      '1680652800091265 {"stream":"btcusdt@markPrice@1s","data":{"e":"markPriceUpdate","E":1680652800010,"s":"BTCUSDT","p":"28155.10000000","P":"28141.47600845","i":"28165.04857143","r":"0.00002760","T":1680652800000}}',
      perp,
    );
    expect(mark.map((x) => x.s)).to.deep.equal(['fair', 'index', 'funding']);
    expect(mark[2]).to.deep.include({ i: 'BTC_USDT', r: '0.00002760', nt: 1680652800000, cy: 8 });
    const insurance = parseBinanceFeedLine(
      '1680652800091265 {"stream":"btcusdt@trade","data":{"e":"trade","E":1,"T":1,"s":"BTCUSDT","t":1,"p":"28722.5","q":"0.1","X":"INSURANCE_FUND","m":false}}',
      perp,
    );
    expect(insurance).to.deep.equal([]);
  });

  it('carries_the_previous_final_id_of_futures_diffs', () => {
    const perp = { market: 'contract', symbol: 'BTCUSDT' } as const;
    const [d] = parseBinanceFeedLine(
      '1723161254300000000 {"stream":"btcusdt@depth@0ms","data":{"e":"depthUpdate","E":10,"T":9,"s":"BTCUSDT","U":5,"u":7,"pu":4,"b":[],"a":[["1.0","2.0"]]}}',
      perp,
    );
    expect(d).to.deep.include({ s: 'depth.diff', et: 9, U: 5, u: 7, pu: 4 });
  });
});
