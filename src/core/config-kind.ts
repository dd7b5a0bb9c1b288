/**
 * The five kinds of YAML config perpetua reads, and how one is recognised: an explicit `kind:` key, or
 * the keys only that kind has. `perpetua validate` routes on it; every loader accepts (and drops) a
 * `kind:` naming its own kind, and names the right command for any other.
 */
import { ConfigError } from './errors.js';

export const CONFIG_KINDS = ['run', 'backtest', 'sweep', 'emulator', 'record'] as const;
export type ConfigKind = (typeof CONFIG_KINDS)[number];

/** The command that reads each kind, for messages. */
export const COMMAND_OF_KIND: Readonly<Record<ConfigKind, string>> = {
  run: 'perpetua run <config>',
  backtest: 'perpetua backtest <config>',
  sweep: 'perpetua sweep <config>',
  emulator: 'perpetua emulator --config <config>',
  record: 'perpetua record <config>',
};

/** Keys no run / backtest config has, that an emulator config is made of. */
const EMULATOR_KEYS = [
  'accounts',
  'market',
  'clock',
  'rateLimits',
  'faults',
  'persistence',
  'limits',
  'funding',
  'fees',
  'host',
  'port',
  'seed',
];
/** Keys of a record config (its `instruments` are objects with a symbol and streams). */
const RECORD_KEYS = ['out', 'store', 'duration', 'budget', 'backoff', 'log', 'source'];

const isMapping = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The kind a parsed document declares or looks like; undefined when it is neither (an empty file, or
 * none of the distinguishing keys). A `kind:` that is not one of CONFIG_KINDS is returned as undefined
 * too: the caller reports it.
 */
export function detectConfigKind(doc: unknown): ConfigKind | undefined {
  if (!isMapping(doc)) return undefined;
  if (typeof doc.kind === 'string') return (CONFIG_KINDS as readonly string[]).includes(doc.kind) ? (doc.kind as ConfigKind) : undefined;
  if ('sweep' in doc) return 'sweep';
  if ('backtest' in doc) return 'backtest';
  if ('mode' in doc || 'strategies' in doc) return 'run';
  const keys = Object.keys(doc);
  const recordInstruments = Array.isArray(doc.instruments) && doc.instruments.some((i) => isMapping(i) && 'symbol' in i);
  if (recordInstruments || keys.some((k) => RECORD_KEYS.includes(k))) return 'record';
  if (
    keys.some((k) => EMULATOR_KEYS.includes(k)) ||
    (isMapping(doc.instruments) && ('spot' in doc.instruments || 'contract' in doc.instruments))
  )
    return 'emulator';
  return undefined;
}

/**
 * The document without its `kind:` key, when that key names one of `accepted` (or is absent). A
 * `kind:` for another command is refused at `kind`, naming the command that reads it.
 */
export function withoutKind(doc: unknown, accepted: readonly ConfigKind[]): unknown {
  if (!isMapping(doc) || !('kind' in doc)) return doc;
  const { kind, ...rest } = doc;
  if (typeof kind === 'string' && (accepted as readonly string[]).includes(kind)) return rest;
  const other = typeof kind === 'string' && (CONFIG_KINDS as readonly string[]).includes(kind) ? (kind as ConfigKind) : undefined;
  throw new ConfigError(
    'kind',
    other
      ? `expected ${accepted.join(' or ')}, received "${other}": this is ${other === 'emulator' ? 'an' : 'a'} ${other} config, read by \`${COMMAND_OF_KIND[other]}\``
      : `expected one of ${CONFIG_KINDS.join(', ')}, received ${JSON.stringify(kind)}`,
  );
}
