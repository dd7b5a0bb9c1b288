/**
 * A small strict parser of the Prometheus text exposition format (version 0.0.4), written from the
 * format's description and independent of prom-client: every line is a HELP, a TYPE, a blank line or
 * a sample `name{label="value",…} value`; a sample's family must have been TYPEd before it (histogram
 * samples end in _bucket, _sum or _count); label values are unescaped; the same series twice is an
 * error. Throws on the first bad line, naming it.
 */
export interface PromSample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

export function parsePromText(text: string): { types: Map<string, string>; samples: PromSample[] } {
  const types = new Map<string, string>();
  const samples: PromSample[] = [];
  const seen = new Set<string>();
  const lines = text.split('\n');
  if (lines.at(-1) !== '') throw new Error('the exposition must end with a newline');
  lines.forEach((line, n) => {
    const where = `line ${n + 1} ${JSON.stringify(line)}`;
    if (line === '') return;
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!m) throw new Error(`${where}: a comment must be # HELP or # TYPE`);
      if (!NAME.test(m[2]!)) throw new Error(`${where}: bad metric name`);
      if (m[1] === 'TYPE') {
        if (!TYPES.has(m[3]!)) throw new Error(`${where}: unknown type`);
        if (types.has(m[2]!)) throw new Error(`${where}: TYPE given twice`);
        types.set(m[2]!, m[3]!);
      }
      return;
    }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`${where}: not a sample line`);
    const name = m[1]!;
    const labels: Record<string, string> = {};
    let rest = m[3] ?? '';
    while (rest.length > 0) {
      const l = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/.exec(rest);
      if (!l) throw new Error(`${where}: bad label set at ${JSON.stringify(rest)}`);
      if (l[1]! in labels) throw new Error(`${where}: label ${l[1]} twice`);
      labels[l[1]!] = l[2]!.replace(/\\(["\\n])/g, (_x, c: string) => (c === 'n' ? '\n' : c));
      rest = rest.slice(l[0].length);
    }
    const raw = m[4]!;
    const value = raw === '+Inf' ? Infinity : raw === '-Inf' ? -Infinity : raw === 'NaN' ? NaN : Number(raw);
    if (raw !== 'NaN' && Number.isNaN(value)) throw new Error(`${where}: bad value`);
    const family = types.has(name) ? name : name.replace(/_(bucket|sum|count)$/, '');
    const type = types.get(family);
    if (!type) throw new Error(`${where}: sample before its # TYPE`);
    if (family !== name && type !== 'histogram' && type !== 'summary') throw new Error(`${where}: suffix on a ${type}`);
    if (name.endsWith('_bucket') && type === 'histogram' && labels.le === undefined) throw new Error(`${where}: bucket without le`);
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seen.has(key)) throw new Error(`${where}: series given twice`);
    seen.add(key);
    samples.push({ name, labels, value });
  });
  return { types, samples };
}

/** The value of one series, or undefined. */
export function sampleValue(samples: readonly PromSample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}
