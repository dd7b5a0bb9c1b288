/**
 * docs/risk-rules.md lists every rule name a denial can carry: the names are read from the rule
 * sources (their `rule: '…'` / `RULE = '…'` literals, and the runtime's own denials), so a new rule
 * without a line in the doc fails.
 */
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../support/project-root.js';

describe('docs/risk-rules.md', () => {
  it('documents_every_rule_name_the_rules_deny_with', () => {
    const dir = join(PROJECT_ROOT, 'src', 'risk', 'rules');
    const names = new Set<string>();
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
      for (const m of readFileSync(join(dir, f), 'utf8').matchAll(/(?:rule: |RULE = )'([a-z-]+)'/g)) names.add(m[1]!);
    }
    // The runtime denies one thing itself, after the rules: a close of a position the venue no longer holds.
    for (const m of readFileSync(join(PROJECT_ROOT, 'src', 'runtime', 'trading-runtime.ts'), 'utf8').matchAll(/this\.deny\([^,]+, '([a-z-]+)'/g)) names.add(m[1]!);
    expect(names.size).to.be.greaterThan(20);
    const doc = readFileSync(join(PROJECT_ROOT, 'docs', 'risk-rules.md'), 'utf8');
    const documented = new Set([...doc.matchAll(/^\| \d+ \| `([a-z-]+)` \|/gm)].map((m) => m[1]!));
    expect([...names].filter((n) => !documented.has(n)), 'rules missing from the doc').to.deep.equal([]);
    expect([...documented].filter((n) => !names.has(n)), 'documented rules that do not exist').to.deep.equal([]);
  });
});
