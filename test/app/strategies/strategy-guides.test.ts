/**
 * Every strategy of the library has a guide page (docs/strategies/<name>.md) that documents each of
 * its parameters and quotes the figures of its shipped backtest config. The spot market maker is the
 * worked example of docs/writing-a-strategy.md instead (perp-trend is both).
 */
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { REFERENCE_STRATEGIES } from '../../../strategies/index.js';
import { PROJECT_ROOT } from '../../support/project-root.js';

const WORKED_EXAMPLES = new Set(['spot-market-maker']);

/** Top-level keys of a params schema (a refined strictObject keeps its shape under `in` or directly). */
function paramNames(schema: z.ZodType): string[] {
  const s = schema as unknown as { shape?: Record<string, unknown>; def?: { in?: { shape?: Record<string, unknown> } } };
  return Object.keys(s.shape ?? s.def?.in?.shape ?? {});
}

describe('strategy guides', () => {
  for (const cls of REFERENCE_STRATEGIES.filter((c) => !WORKED_EXAMPLES.has(c.strategyName))) {
    it(`documents_${cls.strategyName}_with_every_parameter_and_its_backtest`, () => {
      const page = join(PROJECT_ROOT, 'docs', 'strategies', `${cls.strategyName}.md`);
      expect(existsSync(page), `docs/strategies/${cls.strategyName}.md`).to.equal(true);
      const text = readFileSync(page, 'utf8');
      const names = paramNames(cls.paramsSchema);
      expect(names.length, 'parameters found in the schema').to.be.greaterThan(2);
      for (const n of names) expect(text, `parameter ${n}`).to.contain(`| \`${n}\` |`);
      const config = /npx perpetua backtest (config\/[a-z0-9-]+\.yaml)/.exec(text);
      expect(config, 'the backtest command it quotes').to.not.equal(null);
      expect(existsSync(join(PROJECT_ROOT, config![1]!)), config![1]).to.equal(true);
      expect(readFileSync(join(PROJECT_ROOT, config![1]!), 'utf8')).to.contain(`name: ${cls.strategyName}`);
    });
  }

  it('lists_every_strategy_in_the_library_index', () => {
    const index = readFileSync(join(PROJECT_ROOT, 'docs', 'strategies', 'README.md'), 'utf8');
    for (const cls of REFERENCE_STRATEGIES) expect(index, cls.strategyName).to.contain(`\`${cls.strategyName}\``);
  });
});
