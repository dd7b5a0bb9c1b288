/**
 * The installed `perpetua` command (package.json bin → bin/perpetua.js): it runs the compiled CLI,
 * prints the package version, and a reader closing the pipe early (`perpetua endpoints | head`) ends
 * it quietly instead of with an EPIPE stack trace.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../support/project-root.js';

const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string> };

describe('e2e: the perpetua launcher', function () {
  this.timeout(60_000);

  it('package_bin_is_the_launcher_and_prints_the_version', () => {
    expect(pkg.bin.perpetua).to.equal('bin/perpetua.js');
    const r = spawnSync(process.execPath, [join(PROJECT_ROOT, pkg.bin.perpetua), '--version'], { encoding: 'utf8' });
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout.trim()).to.equal(pkg.version);
  });

  it('closed_pipe_ends_quietly', () => {
    // What the user typed: `head` exits after one line; the JSON catalogue (~70 KB) outgrows the pipe
    // buffer, so the CLI's write meets EPIPE (before the fix: an unhandled 'error' event and a stack).
    const cmd = `"${process.execPath}" "${join(PROJECT_ROOT, pkg.bin.perpetua)}" endpoints --json | head -1`;
    const r = spawnSync('sh', ['-c', cmd], { encoding: 'utf8' });
    expect(r.stdout.trim()).to.equal('[');
    expect(r.stderr, 'stderr').to.equal('');
  });
});
