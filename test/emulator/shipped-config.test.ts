import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { parse } from 'yaml';
import { emulatorConfigSchema, parseEmulatorConfig } from '../../src/emulator/emulator-config.js';

const SHIPPED = 'config/emulator.yaml';

/** Every key path of the config schema (`fees.contractSchedules.*.tieredFeeRates[].takerFeeRate`). */
function schemaKeys(schema: z.ZodType): string[] {
  const keys: string[] = [];
  const seen = new Set<unknown>();
  const walk = (s: unknown, path: string): void => {
    if (!s || seen.has(s)) return;
    seen.add(s);
    const d = (s as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
    if (!d) return;
    switch (d.type) {
      case 'object':
        for (const [k, v] of Object.entries(d.shape as Record<string, unknown>)) {
          const p = path ? `${path}.${k}` : k;
          keys.push(p);
          walk(v, p);
        }
        return;
      case 'optional':
      case 'default':
      case 'prefault':
      case 'nullable':
      case 'readonly':
        return walk(d.innerType, path);
      case 'pipe':
        walk(d.in, path);
        return walk(d.out, path);
      case 'array':
        return walk(d.element, `${path}[]`);
      case 'record':
        return walk(d.valueType, `${path}.*`);
      case 'union':
        for (const o of d.options as unknown[]) walk(o, path);
        return;
      default:
        return;
    }
  };
  walk(schema, '');
  return keys;
}

/** Lines of the form `# key: …` / `# - …` under a comment marker are examples; this uncomments them. */
function uncommentExamples(text: string): string {
  return text
    .split('\n')
    .map((line, i) => {
      const m = /^(\s*)# (.*)$/.exec(line);
      // The header (file comment) is prose; example lines start with a key, a list item or a flow map.
      if (!m || i < 8 || !/^\s*(- |[A-Za-z]\w*:)/.test(m[2]!)) return line;
      return `${m[1]}${m[2]}`;
    })
    .join('\n');
}

describe('the shipped emulator config', () => {
  it('documents_every_key_of_the_config_schema', async () => {
    const text = await readFile(SHIPPED, 'utf8');
    const missing = schemaKeys(emulatorConfigSchema).filter((path) => {
      const name = path.split('.').pop()!.replace(/\[\]$/, '');
      if (name === '*') return false;
      // As a key, in the active config or in a commented example (`name:` or `{ name: …`).
      return !new RegExp(`(^|[\\s{,#])${name}:`, 'm').test(text);
    });
    expect(missing).to.deep.equal([]);
  });

  it('keeps_every_commented_example_valid', async () => {
    const text = await readFile(SHIPPED, 'utf8');
    const lines = text.split('\n');
    // The replay and mirror forms are alternatives to the active `market:`: each is checked on its own.
    const alternatives: string[] = [];
    const rest: string[] = [];
    for (let i = 0; i < lines.length; i++) {
      if (lines[i] === '# market:') {
        const block = ['market:'];
        while (i + 1 < lines.length && lines[i + 1]!.startsWith('#   ')) block.push(lines[++i]!.slice(2));
        alternatives.push(block.join('\n'));
        continue;
      }
      rest.push(lines[i]!);
    }
    const markets = alternatives.map((b) => parseEmulatorConfig(parse(b) as object).market);
    expect(markets.map((m) => m.source)).to.deep.equal(['replay', 'mirror']);

    // Everything else uncommented at once: the examples under an empty `{}` / `[]` replace it, and the
    // virtual-clock keys need the virtual mode.
    const all = uncommentExamples(rest.join('\n'))
      .replace(/^(\s*)(contractSchedules|contractDiscounts|rules): (\{\}|\[\])/gm, '$1$2:')
      .replace('mode: system', 'mode: virtual');
    const c = parseEmulatorConfig(parse(all) as object, SHIPPED);
    expect(c.accounts.map((a) => [a.name, a.master])).to.deep.equal([
      ['demo', undefined],
      ['demo-sub', 'demo'],
    ]);
    expect(Object.entries(c.fees.contractSchedules).map(([s, x]) => [s, x.feeRateMode])).to.deep.equal([
      ['BTC_USDT', 'TIERED'],
      ['ETH_USDT', 'LEVERAGE'],
    ]);
    expect(c.fees.contractDiscounts.map((d) => d.currency)).to.deep.equal(['USDT']);
    expect(c.faults.rules.map((r) => r.kind)).to.deep.equal(['drop', 'delay', 'error5xx', 'rateLimit', 'reset']);
    expect(c.market.source === 'synthetic' && c.market.underlyings.BTC?.jumpsPerDay).to.equal(2);
  });
});
