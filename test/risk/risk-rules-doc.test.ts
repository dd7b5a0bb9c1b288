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
      for (const m of readFileSync(join(dir, f), 'utf8').matchAll(/(?:rule:\s*|RULE\s*=\s*)'([a-z-]+)'/g)) names.add(m[1]!);
    }
    // The runtime denies a few things itself, after the rules (a paused strategy, no account of that kind,
    // a close of a position the venue no longer holds): `this.deny(intent, 'rule', …)` in any runtime
    // module. Whitespace and line breaks between the arguments are allowed, so a formatter that wraps a
    // long call does not hide a rule from this test.
    const runtimeDir = join(PROJECT_ROOT, 'src', 'runtime');
    let runtimeDenials = 0;
    for (const f of readdirSync(runtimeDir).filter((n) => n.endsWith('.ts'))) {
      for (const m of readFileSync(join(runtimeDir, f), 'utf8').matchAll(/this\.deny\(\s*[^,]+,\s*'([a-z-]+)'/g)) {
        names.add(m[1]!);
        runtimeDenials++;
      }
    }
    expect(runtimeDenials, 'the runtime denial calls were not found').to.be.greaterThan(0);
    expect(names.size).to.be.greaterThan(20);
    const doc = readFileSync(join(PROJECT_ROOT, 'docs', 'risk-rules.md'), 'utf8');
    const documented = new Set([...doc.matchAll(/^\| \d+ \| `([a-z-]+)` \|/gm)].map((m) => m[1]!));
    expect(
      [...names].filter((n) => !documented.has(n)),
      'rules missing from the doc',
    ).to.deep.equal([]);
    expect(
      [...documented].filter((n) => !names.has(n)),
      'documented rules that do not exist',
    ).to.deep.equal([]);
  });
});
