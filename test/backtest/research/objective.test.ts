import { expect } from 'chai';
import { ConfigError } from '../../../src/core/errors.js';
import { ConfigInvalid } from '../../../src/core/config/config-issues.js';
import { computeMetrics, type Metrics } from '../../../src/backtest/report/metrics.js';
import { rankSweepResults, renderSweepTable } from '../../../src/backtest/report/sweep-report.js';
import { RANKABLE_METRICS, resolveConstraints, resolveObjective, violations } from '../../../src/backtest/research/objective.js';
import { spotMmConfig } from '../support/backtest-fixtures.js';
import { syntheticRun } from '../report/support/synthetic-run.js';

const base: Metrics = computeMetrics(syntheticRun({ minutes: 120, holdMinutes: 30 }));
const m = (over: Partial<Metrics>): Metrics => ({ ...base, ...over });

describe('backtest/research/objective', () => {
  it('refuses_times_and_settings_as_rankBy_naming_the_choices', () => {
    // The issue: `rankBy: startTime` was accepted and sorted the runs by date.
    for (const name of ['startTime', 'maxDrawdownPeakTime', 'riskFreeRate', 'initialEquity', 'returnPeriodMs']) {
      expect(() => resolveObjective(name, {}, 'sweep.rankBy')).to.throw(
        ConfigError,
        /sweep\.rankBy: expected one of totalReturn, .*sharpe/,
      );
    }
    expect(RANKABLE_METRICS).to.include.members(['sharpe', 'trades', 'exposure', 'maxDrawdown']);
    expect(RANKABLE_METRICS).to.not.include('startTime');
    expect(() => resolveObjective('sharp')).to.throw(
      ConfigError,
      /sweep\.objective: expected one of sharpe, sortino, calmar, returnDrawdown, profitFactor/,
    );
  });

  it('scores_the_named_objectives', () => {
    const x = m({ sharpe: 1.5, sortino: 2, calmar: 0.7, profitFactor: 1.3, totalReturn: 0.1, maxDrawdown: 0.04 });
    expect(resolveObjective('sharpe').score(x)).to.equal(1.5);
    expect(resolveObjective('sortino').score(x)).to.equal(2);
    expect(resolveObjective('calmar').score(x)).to.equal(0.7);
    expect(resolveObjective('profitFactor').score(x)).to.equal(1.3);
    // 0.1 − 2 · 0.04 = 0.02 by default; 0.1 − 0.5 · 0.04 = 0.08 with penalty 0.5
    expect(resolveObjective('returnDrawdown').score(x)).to.be.closeTo(0.02, 1e-15);
    expect(resolveObjective('returnDrawdown', { drawdownPenalty: 0.5 }).score(x)).to.be.closeTo(0.08, 1e-15);
    expect(resolveObjective('maxDrawdown').lowerIsBetter).to.equal(true);
  });

  it('checks_constraints_against_metric_names_and_bounds', () => {
    expect(() => resolveConstraints({ fills: { min: 3 } })).to.throw(ConfigError, /sweep\.constraints\.fills: expected a metric name/);
    expect(() => resolveConstraints({ trades: {} })).to.throw(ConfigError, /expected min or max/);
    expect(() => resolveConstraints({ exposure: { min: 0.5, max: 0.2 } })).to.throw(ConfigError, /max: expected at least min/);
    const cs = resolveConstraints({ trades: { min: 20 }, maxDrawdown: { max: 0.2 }, exposure: { min: 0.1 } });
    expect(cs.map((c) => c.metric)).to.deep.equal(['exposure', 'maxDrawdown', 'trades']);
    expect(violations(m({ trades: 6, maxDrawdown: 0.25, exposure: null }), cs)).to.deep.equal([
      'exposure undefined',
      'maxDrawdown 0.25 > 0.2',
      'trades 6 < 20',
    ]);
    expect(violations(m({ trades: 20, maxDrawdown: 0.2, exposure: 0.1 }), cs)).to.deep.equal([]);
  });

  it('ranks_results_meeting_the_constraints_first', () => {
    // The issue: a run with 6 fills ranked first. With trades ≥ 20 it ranks after every run that traded enough.
    const results = [
      { params: { p: 1 }, metrics: m({ sharpe: 9, trades: 6 }) },
      { params: { p: 2 }, metrics: m({ sharpe: 1, trades: 40 }) },
      { params: { p: 3 }, metrics: m({ sharpe: 2, trades: 25 }) },
      { params: { p: 4 }, metrics: m({ sharpe: null, trades: 30 }) },
    ];
    const ranked = rankSweepResults(results, resolveObjective('sharpe'), resolveConstraints({ trades: { min: 20 } }));
    expect(ranked.map((r) => r.params['p'])).to.deep.equal([3, 2, 4, 1]);
    expect(ranked[3]!.violations).to.deep.equal(['trades 6 < 20']);
    const table = renderSweepTable(results, resolveObjective('returnDrawdown'), {
      constraints: resolveConstraints({ trades: { min: 20 } }),
    });
    expect(table.split('\n')[0]).to.match(/Return − 2·drawdown .*\| Constraints +\|$/);
    expect(table).to.contain('trades 6 < 20');
  });

  it('is_checked_when_the_config_is_parsed', () => {
    const bad = (sweep: Record<string, unknown>): string => {
      try {
        spotMmConfig({ sweep: { parameters: { spreadBps: [1, 2] }, ...sweep } });
      } catch (e) {
        expect(e).to.be.instanceOf(ConfigInvalid);
        return (e as Error).message;
      }
      throw new Error('accepted');
    };
    expect(bad({ rankBy: 'startTime' })).to.match(/sweep\.rankBy: expected one of/);
    expect(bad({ objective: 'sharpe', rankBy: 'sortino' })).to.match(
      /sweep\.objective: expected sweep\.objective or sweep\.rankBy, not both/,
    );
    expect(bad({ rankBy: 'returnDrawdown' })).to.match(/sweep\.rankBy: expected a metric name; returnDrawdown is an objective/);
    expect(bad({ constraints: { fills: { min: 1 } } })).to.match(/sweep\.constraints\.fills: expected a metric name/);
    expect(bad({ search: { method: 'grid' }, parameters: { spreadBps: { min: 1, max: 5 } } })).to.match(
      /sweep\.parameters\.spreadBps: expected a step/,
    );
    expect(bad({ search: { method: 'bayes' } })).to.match(/sweep\.search\.method/);
    expect(
      spotMmConfig({
        sweep: { parameters: { spreadBps: { min: 1, max: 5, step: 2 } }, objective: 'returnDrawdown', constraints: { trades: { min: 2 } } },
      }).sweep!.objective,
    ).to.equal('returnDrawdown');
  });
});
