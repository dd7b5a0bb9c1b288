/**
 * YAML → validated RunConfig. Every problem is reported at once with its path: the document schema's
 * issues and, for each strategy whose name is registered, the issues of its parameters against the
 * strategy's own zod schema (`strategies[0].params.spreadBps: expected a number > 0, received "x"`).
 */
import { COMMAND_OF_KIND, detectConfigKind } from '../../core/config-kind.js';
import { loadYamlConfig } from '../../core/config/yaml-config.js';
import type { InstrumentSymbol, StrategyId } from '../../core/ids.js';
import type { StrategyClass } from '../../strategy/strategy.js';
import { type ConfigIssue, ConfigInvalid, formatPath, issuesFromZod, stripKind } from '../../core/config/config-issues.js';
import { type RunConfig, runConfigSchema } from './run-config-schema.js';

/** What the loader needs from the strategy registry. */
export interface StrategyCatalog {
  get(name: string): StrategyClass | undefined;
  names(): string[];
}

export interface ResolvedStrategy {
  readonly id: StrategyId;
  readonly name: string;
  readonly cls: StrategyClass;
  /** Parameters as the strategy's schema output them (defaults filled in). */
  readonly params: unknown;
  readonly instruments: readonly InstrumentSymbol[];
  /** Client-id tag, when configured. */
  readonly tag?: string;
}

export interface LoadedRunConfig {
  readonly config: RunConfig;
  readonly strategies: readonly ResolvedStrategy[];
  /** File name (or label) the config came from. */
  readonly source: string;
}

/** Validates a parsed YAML document; throws ConfigInvalid listing every issue. */
export function parseRunConfig(input: unknown, catalog: StrategyCatalog, source = 'config'): LoadedRunConfig {
  const issues: ConfigIssue[] = [];
  const doc = stripKind(input, ['run'], source);
  const looks = detectConfigKind(doc);
  if (looks === 'emulator' || looks === 'record') {
    const article = looks === 'emulator' ? 'an' : 'a';
    throw new ConfigInvalid(source, [
      {
        path: '',
        message: `expected a run config (mode:, instruments:, strategies: …); this is ${article} ${looks} config, read by \`${COMMAND_OF_KIND[looks]}\``,
      },
    ]);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new ConfigInvalid(source, [
      {
        path: '',
        message: `expected a YAML mapping (mode:, instruments:, strategies: …), received ${doc === null || doc === undefined ? 'an empty document' : Array.isArray(doc) ? 'a list' : typeof doc}`,
      },
    ]);
  }
  const r = runConfigSchema.safeParse(doc, { reportInput: true });
  if (!r.success) issues.push(...issuesFromZod(r.error.issues, runConfigSchema, doc));

  // Strategy parameters: checked even when the rest failed, so one run of `validate` shows all.
  const rawStrategies = (doc as { strategies?: unknown }).strategies;
  const resolved: ResolvedStrategy[] = [];
  if (Array.isArray(rawStrategies)) {
    rawStrategies.forEach((entry: unknown, i) => {
      if (entry === null || typeof entry !== 'object') return;
      const e = entry as { id?: unknown; name?: unknown; params?: unknown; instruments?: unknown; tag?: unknown };
      if (typeof e.name !== 'string') return;
      const cls = catalog.get(e.name);
      if (!cls) {
        issues.push({
          path: formatPath(['strategies', i, 'name']),
          message: `expected a registered strategy (${catalog.names().join(', ') || 'none registered'}), received ${JSON.stringify(e.name)}`,
        });
        return;
      }
      const params = e.params ?? {};
      const p = cls.paramsSchema.safeParse(params, { reportInput: true });
      if (!p.success) {
        issues.push(...issuesFromZod(p.error.issues, cls.paramsSchema, params, ['strategies', i, 'params']));
        return;
      }
      if (r.success) {
        const s = r.data.strategies[i]!;
        resolved.push({
          id: s.id as StrategyId,
          name: s.name,
          cls,
          params: p.data,
          instruments: s.instruments as InstrumentSymbol[],
          ...(s.tag !== undefined ? { tag: s.tag } : {}),
        });
      }
    });
  }
  if (issues.length > 0 || !r.success) throw new ConfigInvalid(source, sortIssues(issues));
  return { config: r.data, strategies: resolved, source };
}

/** Reads, parses and validates a YAML config file (core/config/yaml-config.ts: the loader every kind shares). */
export async function loadRunConfig(file: string, catalog: StrategyCatalog): Promise<LoadedRunConfig> {
  return loadYamlConfig(file, (doc, source) => parseRunConfig(doc, catalog, source));
}

/** Document order: issues of earlier sections first (the order zod found them in, stably by path). */
function sortIssues(issues: readonly ConfigIssue[]): ConfigIssue[] {
  const order = ['mode', 'venue', 'paper', 'instruments', 'marketData', 'strategies', 'risk', 'execution', 'journal', 'logging'];
  const rank = (p: string): number => {
    const head = p.split(/[.[]/)[0] ?? '';
    const i = order.indexOf(head);
    return i < 0 ? order.length : i;
  };
  return issues
    .map((iss, i) => ({ iss, i }))
    .sort((a, b) => rank(a.iss.path) - rank(b.iss.path) || a.i - b.i)
    .map((x) => x.iss);
}
