/**
 * The research keys of a config's `sweep:` section (search, objective, constraints, walk-forward).
 * Names are checked against the objectives and metric names when the sweep starts (objective.ts),
 * where the error can list the choices.
 */
import { z } from 'zod';

const range = z.strictObject({
  min: z.number(),
  max: z.number(),
  step: z.number().positive().optional(),
  log: z.boolean().optional(),
  integer: z.boolean().optional(),
});

export const sweepParameterSchema = z.union([z.array(z.unknown()).min(1), range]);

export const sweepResearchFields = {
  search: z
    .strictObject({
      method: z
        .enum(['grid', 'random', 'tpe'])
        .default('grid')
        .describe('grid: every combination; random: uniform draws; tpe: Tree-structured Parzen Estimator.'),
      runs: z.number().int().min(1).max(100_000).optional().describe('Budget in runs (default: the whole grid; 50 for random and tpe).'),
      maxMinutes: z.number().positive().optional().describe('Budget in time: no new batch starts after this many minutes.'),
      seed: z.number().int().min(0).default(1).describe('Seed of the random and tpe draws.'),
      batch: z
        .number()
        .int()
        .min(1)
        .max(1024)
        .default(8)
        .describe('Runs proposed together; the proposals depend on finished batches only, not on the worker count.'),
      startupRuns: z.number().int().min(1).default(10).describe('tpe: random runs before the model proposes.'),
    })
    .default({ method: 'grid', seed: 1, batch: 8, startupRuns: 10 }),
  objective: z.string().optional().describe('sharpe, sortino, calmar, returnDrawdown, profitFactor, or a metric name (instead of rankBy).'),
  drawdownPenalty: z.number().min(0).default(2).describe('returnDrawdown: total return − drawdownPenalty · max drawdown.'),
  constraints: z
    .record(z.string(), z.strictObject({ min: z.number().optional(), max: z.number().optional() }))
    .optional()
    .describe('Metric name → { min, max }: results outside rank after every result inside (e.g. trades: { min: 20 }).'),
  walkForward: z
    .strictObject({
      mode: z.enum(['rolling', 'anchored']).default('rolling'),
      folds: z.number().int().min(1).max(100).default(4).describe('Test windows.'),
      trainSegments: z
        .number()
        .int()
        .min(1)
        .max(100)
        .default(2)
        .describe('Train length, in test-window lengths (anchored: the first one).'),
    })
    .optional()
    .describe('Walk-forward validation: choose by the train window, report the next test window.'),
  pruning: z
    .strictObject({
      method: z
        .literal('asha')
        .describe('asha: asynchronous successive halving (Li et al. 2020), decided per batch so results do not depend on the workers.'),
      eta: z
        .number()
        .int()
        .min(2)
        .max(100)
        .default(3)
        .describe('Reduction factor η: at each rung only the best 1/η of the runs that reached it go on.'),
      minRuns: z
        .number()
        .int()
        .min(1)
        .default(3)
        .describe('No run is stopped at a rung until this many runs of earlier batches reached it.'),
      rungs: z
        .number()
        .int()
        .min(1)
        .max(100)
        .default(3)
        .describe('Rungs without walkForward: equal cuts of the data span (with walkForward, its fold boundaries are the rungs).'),
    })
    .optional()
    .describe(
      'Stop runs that cannot win: at each rung a run whose objective so far is below the best 1/η of earlier runs there stops ("pruned at rung r", never ranked).',
    ),
};
