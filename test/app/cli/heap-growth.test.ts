/**
 * The batch commands' heap growth (src/app/cli/heap-growth.ts): which percent a process sets, and a bad
 * PERPETUA_HEAP_GROWTH stopping the command with a message that names it, before any work.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { BATCH_HEAP_GROWTH_PERCENT, batchHeapGrowth } from '../../../src/app/cli/heap-growth.js';
import { ConfigError } from '../../../src/core/errors.js';
import { PROJECT_ROOT } from '../../support/project-root.js';

describe('heap growth of the batch commands', () => {
  it('sets_1.5x_live_unless_node_was_given_a_percent_or_the_user_asks_for_another', () => {
    expect(BATCH_HEAP_GROWTH_PERCENT).to.equal(50);
    expect(batchHeapGrowth([], {})).to.equal(50);
    expect(batchHeapGrowth([], { PERPETUA_HEAP_GROWTH: ' ' })).to.equal(50);
    expect(batchHeapGrowth([], { PERPETUA_HEAP_GROWTH: '120' })).to.equal(120);
    expect(batchHeapGrowth([], { PERPETUA_HEAP_GROWTH: 'default' })).to.equal(undefined);
    // The user's own node flag wins, on the command line or in NODE_OPTIONS.
    expect(batchHeapGrowth(['--heap-growing-percent=20'], { PERPETUA_HEAP_GROWTH: '120' })).to.equal(undefined);
    expect(batchHeapGrowth([], { NODE_OPTIONS: '--max-old-space-size=512 --heap-growing-percent=30' })).to.equal(undefined);
  });

  it('a_bad_percent_is_a_config_error_naming_the_variable', () => {
    for (const bad of ['0', '-5', '1.5', 'fast', '1001']) {
      expect(() => batchHeapGrowth([], { PERPETUA_HEAP_GROWTH: bad }), bad).to.throw(
        ConfigError,
        `PERPETUA_HEAP_GROWTH: expected an integer percent from 1 to 1000 or "default", got "${bad}"`,
      );
    }
  });

  it('the_backtest_command_stops_on_a_bad_percent_before_reading_its_config', function () {
    this.timeout(60_000);
    const r = spawnSync(process.execPath, [join(PROJECT_ROOT, 'bin', 'perpetua.js'), 'backtest', 'no-such-config.yaml'], {
      encoding: 'utf8',
      env: { ...process.env, PERPETUA_HEAP_GROWTH: 'fast' },
    });
    expect(r.status).to.equal(1);
    expect(r.stderr).to.include('PERPETUA_HEAP_GROWTH: expected an integer percent');
    expect(r.stderr).to.not.include('no-such-config');
  });
});
