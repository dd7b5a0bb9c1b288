import { expect } from 'chai';
import {
  detectDelimiter,
  looksLikeData,
  mapHeader,
  parseEpochMs,
  parseLocalStamp,
  splitCells,
  toDecimal,
} from '../../../src/marketdata/import/text-fields.js';
import { mapSymbol, splitSymbol, symbolFromFileName, venueSymbol } from '../../../src/marketdata/import/symbol-map.js';

describe('import text fields', () => {
  it('reads_epoch_times_in_every_unit_and_utc_dates', () => {
    // 2024-08-08 23:54:13.937 UTC = 1723161253937 ms.
    expect(parseEpochMs('1723161253')).to.equal(1723161253000);
    expect(parseEpochMs('1723161253.937')).to.equal(1723161253937);
    expect(parseEpochMs('1723161253937')).to.equal(1723161253937);
    expect(parseEpochMs('1723161253937085')).to.equal(1723161253937);
    expect(parseEpochMs('1723161253937085768')).to.equal(1723161253937);
    expect(parseEpochMs('2024-08-08 23:54:13')).to.equal(1723161253000);
    expect(parseEpochMs('2024-08-08T23:54:13.937Z')).to.equal(1723161253937);
    expect(parseEpochMs('2024-08-09T01:54:13+02:00')).to.equal(1723161253000);
    expect(parseEpochMs('2024-08-08')).to.equal(1723075200000);
    expect(parseEpochMs('20240808 235413')).to.equal(1723161253000);
    expect(parseEpochMs('20240231 000000')).to.equal(undefined);
    expect(parseEpochMs('yesterday')).to.equal(undefined);
    expect(parseLocalStamp('1680652700423575')).to.equal(1680652700423);
    expect(parseLocalStamp('16806527x0423575')).to.equal(undefined);
  });

  it('keeps_plain_decimals_as_written_and_rewrites_other_number_forms', () => {
    expect(toDecimal('61837.63000000')).to.equal('61837.63000000');
    expect(toDecimal('-0.00002474')).to.equal('-0.00002474');
    expect(toDecimal('1.06376E+01')).to.equal('10.6376');
    expect(toDecimal('1e-5')).to.equal('0.00001');
    expect(toDecimal('+2')).to.equal('2');
    expect(toDecimal('.5')).to.equal('0.5');
    expect(toDecimal('5.')).to.equal('5');
    expect(toDecimal('NaN')).to.equal(undefined);
    expect(toDecimal('')).to.equal(undefined);
  });

  it('splits_quoted_cells_and_finds_delimiters_and_headers', () => {
    expect(splitCells('"a,b", c ,"d""e"', ',')).to.deep.equal(['a,b', 'c', 'd"e']);
    expect(detectDelimiter('20260520 150800;0.10405;0.10409')).to.equal(';');
    expect(detectDelimiter('a\tb\tc')).to.equal('\t');
    expect(
      mapHeader(['Open time', 'OPEN', 'close_Time'], { ot: ['open_time'], o: ['open'], ct: ['close_time'], v: ['volume'] }),
    ).to.deep.equal({ ot: 0, o: 1, ct: 2 });
    expect(looksLikeData('1747699200000')).to.equal(true);
    expect(looksLikeData('20260520 150800')).to.equal(true);
    expect(looksLikeData('open_time')).to.equal(false);
  });

  it('spells_symbols_the_venue_way', () => {
    expect(venueSymbol('BTCUSDT', 'contract')).to.equal('BTC_USDT');
    expect(venueSymbol('BTC_USDT', 'spot')).to.equal('BTCUSDT');
    expect(venueSymbol('eth/usdc', 'contract')).to.equal('ETH_USDC');
    expect(venueSymbol('ETHBTC', 'contract')).to.equal('ETH_BTC');
    expect(venueSymbol('BTCFDUSD', 'contract')).to.equal('BTC_FDUSD');
    expect(venueSymbol('WEIRD', 'contract')).to.equal('WEIRD');
    expect(mapSymbol('btcusdt', 'contract', 'source')).to.equal('BTCUSDT');
    expect(splitSymbol('BTC_USDT_USDT')).to.deep.equal({ base: 'BTC', quote: 'USDT' });
    expect(symbolFromFileName('/d/binance_usdm_BTCUSDT_perp_1m_2025-05-04_2025-06-24.csv')).to.equal('BTCUSDT');
    expect(symbolFromFileName('BTC_USDT_USDT-1m-futures.feather')).to.equal('BTC_USDT');
    expect(symbolFromFileName('binance_spot_btcusdt_20240808.gz')).to.equal('BTCUSDT');
    expect(symbolFromFileName('candles.csv')).to.equal(undefined);
  });
});
