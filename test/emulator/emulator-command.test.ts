import { expect } from 'chai';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { emulatorCommand } from '../../src/app/cli/emulator-command.js';
import { loadEmulatorConfig } from '../../src/emulator/emulator-config.js';
import { hmac, raw } from './support/emulator-kit.js';

describe('emulator command', () => {
  it('loads_the_shipped_config_with_its_demo_account', async () => {
    const c = await loadEmulatorConfig('config/emulator.yaml');
    expect(c.accounts.map((a) => a.name)).to.deep.equal(['demo']);
    expect(c.accounts[0]!.spot.permissions).to.have.length(4);
    expect(c.accounts[0]!.contract.permissions).to.have.length(3);
  });

  it('starts_from_a_config_file_on_the_given_port_and_serves_the_demo_account', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'emu-cmd-'));
    const shipped = parse(await readFile('config/emulator.yaml', 'utf8')) as Record<string, unknown>;
    const file = join(dir, 'emulator.yaml');
    // The shipped file with its journal moved into the temporary folder.
    await writeFile(file, JSON.stringify({ ...shipped, persistence: { path: join(dir, 'state.sqlite') } }));
    const lines: string[] = [];
    const emu = await emulatorCommand({ config: file, port: 0, detach: true, out: (l) => lines.push(l) });
    try {
      expect(lines[0]).to.match(/^emulator listening on http:\/\/127\.0\.0\.1:\d+/);
      const demo = (shipped.accounts as { apiKey: string; secretKey: string }[])[0]!;
      const q = `timestamp=${emu.clock.now()}`;
      const res = await raw(emu.url, 'GET', `/api/v3/account?${q}&signature=${hmac(demo.secretKey, q)}`, {
        headers: { 'X-MEXC-APIKEY': demo.apiKey },
      });
      const balances = (res.json as { balances: { asset: string; free: string }[] }).balances;
      expect(balances.find((b) => b.asset === 'USDT')?.free).to.equal('100000');
    } finally {
      await emu.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
