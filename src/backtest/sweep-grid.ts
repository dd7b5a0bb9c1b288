/**
 * The parameter grid of a sweep: every combination of the values listed per strategy parameter, in a
 * fixed order (parameter names sorted, values in the order given), so the same config always gives
 * the same list of runs whatever finishes first.
 */
import { ConfigError } from '../core/errors.js';
import { type ParamSpec, dimensionsOf, gridOf } from './research/search-space.js';

export type GridPoint = Readonly<Record<string, unknown>>;

export function sweepGrid(parameters: Readonly<Record<string, ParamSpec>>, maxRuns = Infinity): GridPoint[] {
  return gridOf(dimensionsOf(parameters), maxRuns);
}

/** A copy of `params` with each grid value set at its dotted path (`unwind.capBps`). */
export function applyGridPoint(params: Readonly<Record<string, unknown>>, point: GridPoint): Record<string, unknown> {
  const out = structuredClone(params) as Record<string, unknown>;
  for (const [path, value] of Object.entries(point)) {
    const keys = path.split('.');
    let obj = out;
    for (const k of keys.slice(0, -1)) {
      const child = obj[k];
      if (child === undefined || child === null || typeof child !== 'object' || Array.isArray(child)) obj[k] = {};
      obj = obj[k] as Record<string, unknown>;
    }
    obj[keys[keys.length - 1]!] = value;
  }
  return out;
}

/** The config document with the strategy's params changed by a grid point (validated by the caller). */
export function documentWithParams(doc: Readonly<Record<string, unknown>>, point: GridPoint): Record<string, unknown> {
  const strategies = doc.strategies;
  if (!Array.isArray(strategies) || strategies.length !== 1) throw new ConfigError('strategies', 'expected exactly one strategy to sweep');
  const s = strategies[0] as Record<string, unknown>;
  const params = (s.params ?? {}) as Record<string, unknown>;
  const { sweep: _sweep, ...rest } = doc;
  return { ...rest, strategies: [{ ...s, params: applyGridPoint(params, point) }] };
}
