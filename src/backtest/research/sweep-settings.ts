/**
 * A config's `sweep:` section resolved into what the sweep runs: the objective, the constraints, the
 * search space and budget, and the walk-forward folds. Every name is checked here, so
 * `perpetua validate` and `perpetua sweep` refuse the same mistakes before anything runs.
 */
import { ConfigError } from '../../core/errors.js';
import type { ConfigIssue } from '../../core/config/config-issues.js';
import type { SweepSection } from '../backtest-config.js';
import { type Constraint, type Objective, resolveConstraints, resolveObjective } from './objective.js';
import { type Dimension, type SearchSettings, dimensionsOf, spaceSize } from './search-space.js';
import type { WalkForwardSettings } from './walk-forward.js';
import type { PruningSettings } from './asha.js';

export interface SweepSettings {
  readonly objective: Objective;
  readonly constraints: readonly Constraint[];
  readonly dims: readonly Dimension[];
  readonly search: SearchSettings & {
    /** Most runs of the search (the band for the best comes on top). */
    readonly runs: number;
    readonly maxMs?: number;
    readonly batch: number;
  };
  readonly walkForward?: WalkForwardSettings;
  readonly pruning?: PruningSettings;
  /** How a worker rebuilds the objective (resolveObjective's arguments). */
  readonly objectiveSpec: { readonly name: string; readonly drawdownPenalty?: number };
}

/** Random and TPE searches run this many points unless `search.runs` says otherwise. */
export const DEFAULT_SEARCH_RUNS = 50;

export function sweepSettings(section: SweepSection): SweepSettings {
  if (section.objective !== undefined && section.rankBy !== undefined)
    throw new ConfigError('sweep.objective', 'expected sweep.objective or sweep.rankBy, not both');
  const objective =
    section.objective !== undefined
      ? resolveObjective(section.objective, { drawdownPenalty: section.drawdownPenalty }, 'sweep.objective')
      : resolveObjective(section.rankBy ?? 'sharpe', {}, 'sweep.rankBy');
  if (section.rankBy !== undefined && objective.metric === undefined)
    throw new ConfigError('sweep.rankBy', `expected a metric name; ${section.rankBy} is an objective: write objective: ${section.rankBy}`);
  const constraints = resolveConstraints(section.constraints);
  const dims = dimensionsOf(section.parameters);
  const s = section.search;
  const size = spaceSize(dims);
  if (s.method === 'grid' && !Number.isFinite(size)) {
    const d = dims.find((x) => x.kind === 'range' && x.step === undefined && !x.integer)!;
    throw new ConfigError(
      `sweep.parameters.${d.name}`,
      'expected a step (or integer: true) for a grid search; or use search.method random or tpe',
    );
  }
  if (s.method === 'grid' && size > section.maxRuns) {
    throw new ConfigError(
      'sweep.parameters',
      `the grid has more than ${section.maxRuns} points (sweep.maxRuns); narrow it or use search.method random or tpe with search.runs`,
    );
  }
  const runs = Math.min(s.runs ?? (s.method === 'grid' ? size : DEFAULT_SEARCH_RUNS), size, section.maxRuns);
  return {
    objective,
    constraints,
    dims,
    search: {
      method: s.method,
      seed: s.seed,
      startupRuns: s.startupRuns,
      batch: s.batch,
      runs,
      ...(s.maxMinutes !== undefined ? { maxMs: s.maxMinutes * 60_000 } : {}),
    },
    ...(section.walkForward ? { walkForward: section.walkForward } : {}),
    ...(section.pruning ? { pruning: section.pruning } : {}),
    objectiveSpec:
      section.objective !== undefined
        ? { name: section.objective, drawdownPenalty: section.drawdownPenalty }
        : { name: section.rankBy ?? 'sharpe' },
  };
}

/** The section's problems as config issues (none when sweepSettings would succeed). */
export function checkSweepResearch(section: SweepSection): ConfigIssue[] {
  try {
    sweepSettings(section);
    return [];
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    return [{ path: e.path, message: e.message.startsWith(`${e.path}: `) ? e.message.slice(e.path.length + 2) : e.message }];
  }
}
