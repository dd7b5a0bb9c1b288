/**
 * `perpetua strategies [--config <file>] [--module <path>…]`: every strategy this build offers (and
 * those a config's strategyModules or --module load), each with its description and parameters —
 * name, type, default and meaning, read from its zod schema like the config reference.
 */
import { referenceRows } from '../config/config-reference.js';
import { addPluginStrategies, availableStrategies } from '../../runtime/container/strategy-module.js';
import { loadConfigFileStrategies, loadStrategyModules } from '../../runtime/plugins/strategy-plugins.js';
import type { StrategyClass } from '../../strategy/strategy.js';

export interface StrategyListing {
  readonly name: string;
  readonly className: string;
  readonly description?: string;
  readonly params: readonly {
    readonly name: string;
    readonly type: string;
    readonly required: boolean;
    readonly default?: string;
    readonly description?: string;
  }[];
}

export async function listStrategies(opts: { config?: string; modules?: readonly string[] } = {}): Promise<StrategyListing[]> {
  if (opts.config) await loadConfigFileStrategies(opts.config);
  if (opts.modules?.length) addPluginStrategies(await loadStrategyModules(opts.modules, process.cwd(), '--module'), '--module');
  return availableStrategies().map(listing);
}

function listing(cls: StrategyClass): StrategyListing {
  return {
    name: cls.strategyName,
    className: cls.name,
    ...(cls.description ? { description: cls.description } : {}),
    params: referenceRows(cls.paramsSchema).map((r) => ({
      name: r.path,
      type: r.type,
      required: r.required,
      ...(r.default ? { default: r.default } : {}),
      ...(r.description ? { description: r.description } : {}),
    })),
  };
}

export function renderStrategies(list: readonly StrategyListing[]): string {
  const out: string[] = [];
  for (const s of list) {
    out.push(`${s.name}  (${s.className})`);
    if (s.description) out.push(`  ${s.description}`);
    const w = Math.max(4, ...s.params.map((p) => p.name.length));
    const typeOf = (p: { type: string }): string => (p.type.length > 28 ? `${p.type.slice(0, 27)}…` : p.type);
    const t = Math.max(4, ...s.params.map((p) => typeOf(p).length));
    for (const p of s.params) {
      const dflt = p.default !== undefined ? `= ${p.default}` : p.required ? 'required' : 'optional';
      out.push(`    ${p.name.padEnd(w)}  ${typeOf(p).padEnd(t)}  ${dflt.padEnd(12)}  ${p.description ?? ''}`.trimEnd());
    }
    out.push('');
  }
  return out.join('\n');
}
