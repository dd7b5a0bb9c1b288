/**
 * The JSON Schemas editors use (docs/schemas/, generated from the zod schemas): the files are current,
 * every shipped config passes its kind's schema under an independent validator (ajv, draft 2020-12),
 * and a misspelt key fails there as it fails `validate`.
 */
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parse } from 'yaml';
import { allConfigSchemas } from '../../../src/app/cli/config-schemas.js';

interface Validator {
  (data: unknown): boolean;
  errors?: { instancePath: string; message?: string; params?: unknown }[] | null;
}
// ajv comes with fastify; loaded by name so the test needs no compile-time types for it.
const Ajv2020 = (createRequire(import.meta.url)('ajv/dist/2020') as { default: new (o: object) => { compile(s: object): Validator } })
  .default;

describe('config JSON Schemas (perpetua schema)', () => {
  const schemas = allConfigSchemas();

  it('docs/schemas holds the current schema of every kind', () => {
    for (const s of schemas)
      expect(
        readFileSync(join('docs', 'schemas', s.file), 'utf8'),
        `${s.file}: run \`npx perpetua schema all --write docs/schemas\``,
      ).to.equal(s.text);
  });

  it('accepts_every_shipped_config_under_the_schema_its_first_line_names', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    const byFile = new Map(schemas.map((s) => [s.file, ajv.compile(JSON.parse(s.text) as object)]));
    const files = readdirSync('config').filter((f) => f.endsWith('.yaml'));
    expect(files.length).to.be.greaterThan(5);
    for (const f of files) {
      const text = readFileSync(join('config', f), 'utf8');
      const m = /^# yaml-language-server: \$schema=\.\.\/docs\/schemas\/(\w+\.schema\.json)$/m.exec(text.split('\n')[0]!);
      expect(m, `${f} names its schema on line 1`).to.not.equal(null);
      const validate = byFile.get(m![1]!)!;
      expect(validate(parse(text)), `${f}: ${JSON.stringify(validate.errors)}`).to.equal(true);
    }
  });

  it('rejects_a_misspelt_key', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const run = ajv.compile(JSON.parse(schemas.find((s) => s.kind === 'run')!.text) as object);
    const doc = parse(readFileSync('config/default.yaml', 'utf8')) as Record<string, unknown>;
    expect(run(doc)).to.equal(true);
    expect(run({ ...doc, strategys: [] })).to.equal(false);
  });
});
