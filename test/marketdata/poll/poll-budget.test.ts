import { expect } from 'chai';
import { ConfigError } from '../../../src/core/errors.js';
import { assertPollBudget, DEFAULT_POLL_BUDGET, pollBudgetUsage } from '../../../src/marketdata/poll/poll-budget.js';
import { resolvePollConfig, type MarketPollConfig } from '../../../src/marketdata/poll/poll-config.js';

const budget = { spotWeightPerSecond: 10, contractCallsPerSecondPerEndpoint: 4 };

describe('poll budget', () => {
  it('charges_each_stream_its_catalogue_weight_at_the_effective_period', () => {
    const cfg: MarketPollConfig = {
      instruments: [
        // depth w1 every 500 ms = 2/s; trades w5 every 5000 = 1/s; klines 2 intervals w1 each every 60 s = 2/60 /s;
        // ticker24hr with a symbol w1, everyMs 1200 on a 500 cycle → period 1500 → 0.667/s
        {
          kind: 'spot',
          symbol: 'BTCUSDT',
          cycleMs: 500,
          streams: {
            depth: {},
            trades: { everyMs: 5000 },
            klines: { everyMs: 60_000, intervals: ['1m', '5m'] },
            ticker24h: { everyMs: 1200 },
          },
        },
        { kind: 'contract', symbol: 'BTC_USDT', cycleMs: 1000, streams: { depth: {}, ticker: { everyMs: 2000 } } },
        { kind: 'contract', symbol: 'ETH_USDT', cycleMs: 500, streams: { depth: {} } },
      ],
    };
    const usage = pollBudgetUsage(resolvePollConfig(cfg), budget);
    const spot = usage.find((u) => u.bucket === 'spot-ip-weight')!;
    expect(spot.perSecond).to.be.closeTo(2 + 1 + 2 / 60 + 1000 / 1500, 1e-9);
    // contract depth: BTC 1/s + ETH 2/s = 3/s on the one endpoint; ticker 0.5/s on its own
    expect(usage.find((u) => u.bucket === 'contract:contract.depth')!.perSecond).to.equal(3);
    expect(usage.find((u) => u.bucket === 'contract:contract.ticker')!.perSecond).to.equal(0.5);
  });

  it('refuses_a_spot_configuration_over_budget_naming_the_costliest_stream', () => {
    // depth 1/0.2 s = 5/s + trades 5 weight every 1 s = 5/s → 10/s fits exactly; trades every 0.5 s → 15/s
    const fits: MarketPollConfig = {
      instruments: [{ kind: 'spot', symbol: 'BTCUSDT', cycleMs: 200, streams: { depth: {}, trades: { everyMs: 1000 } } }],
    };
    expect(() => assertPollBudget(resolvePollConfig(fits), budget)).not.to.throw();
    const over: MarketPollConfig = {
      instruments: [{ kind: 'spot', symbol: 'BTCUSDT', cycleMs: 200, streams: { depth: {}, trades: { everyMs: 600 } } }],
    };
    // trades period 600 → 5·1000/600 = 8.33/s; total 13.33 > 10; trades is the costliest
    const err = (() => {
      try {
        assertPollBudget(resolvePollConfig(over), budget);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).to.be.instanceOf(ConfigError);
    expect((err as ConfigError).path).to.equal('marketData.instruments[0].streams.trades');
    expect((err as ConfigError).message)
      .to.contain('13.33 weight/s')
      .and.contain('BTCUSDT trades');
  });

  it('refuses_a_contract_endpoint_over_budget_summed_across_instruments', () => {
    // two contracts polling depth every 400 ms: 2.5 + 2.5 = 5 calls/s > 4 on contract.depth
    const cfg: MarketPollConfig = {
      instruments: [
        { kind: 'contract', symbol: 'BTC_USDT', cycleMs: 400, streams: { depth: {} } },
        { kind: 'contract', symbol: 'ETH_USDT', cycleMs: 400, streams: { depth: {} } },
      ],
    };
    expect(() => assertPollBudget(resolvePollConfig(cfg), budget))
      .to.throw(ConfigError, /contract endpoint contract\.depth would use 5 calls\/s/)
      .with.property('path', 'marketData.instruments[0].streams.depth');
  });

  it('derives_the_default_budget_from_the_client_limits', () => {
    // client: 200 weight / 10 s → half = 10/s; 18 calls / 2 s → half = 4.5/s
    expect(DEFAULT_POLL_BUDGET).to.deep.equal({ spotWeightPerSecond: 10, contractCallsPerSecondPerEndpoint: 4.5 });
  });
});
