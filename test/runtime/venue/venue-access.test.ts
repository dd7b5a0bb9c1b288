import { expect } from 'chai';
import { parseRunConfig } from '../../../src/runtime/config/load-run-config.js';
import { strategyCatalog } from '../../../src/runtime/container/strategy-module.js';
import { createServer } from 'node:net';
import { embeddedEmulatorAccess, liveVenueAccess, resolveCredentials } from '../../../src/runtime/venue/venue-access.js';
import { ConfigError } from '../../../src/core/errors.js';

/** A port nothing listens on right now: the OS hands one out for port 0 and we give it back. */
const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });

const live = (venue: Record<string, unknown> = {}) =>
  parseRunConfig(
    {
      mode: 'live',
      venue,
      instruments: ['BTCUSDT'],
      strategies: [
        { id: 'mm1', name: 'spot-market-maker', instruments: ['BTCUSDT'], params: { orderSize: '0.001', maxInventory: '0.01' } },
      ],
    },
    strategyCatalog(),
  ).config;

describe('venue access', () => {
  const key = 'mx0vglLiveKey1234';
  const secret = 'live-secret-abcdefghijklmnop';

  it('reads_credentials_from_the_configured_environment_variables_and_masks_the_key', () => {
    const r = resolveCredentials(live({ apiKeyEnv: 'MY_KEY', apiSecretEnv: 'MY_SECRET' }).venue, { MY_KEY: key, MY_SECRET: secret });
    expect(r.credentials).to.deep.equal({ apiKey: key, secretKey: secret });
    expect(r.source).to.equal('env MY_KEY mx0v…34');
    expect(r.source).to.not.contain(secret);
  });

  it('names_the_missing_variable_without_echoing_the_one_that_is_set', () => {
    try {
      resolveCredentials(live().venue, { PERPETUA_API_SECRET: secret });
      expect.fail('expected a ConfigError');
    } catch (e) {
      expect(e).to.be.instanceOf(ConfigError);
      expect((e as Error).message).to.contain('PERPETUA_API_KEY is not set');
      expect((e as Error).message).to.not.contain(secret);
    }
  });

  it('refuses_live_trading_without_credentials', () => {
    expect(() => liveVenueAccess(live(), {})).to.throw(ConfigError, /live trading needs API credentials/);
  });

  it('uses_the_configured_urls_in_live_mode', () => {
    const a = liveVenueAccess(live({ spotUrl: 'https://spot.example', contractUrl: 'https://contract.example' }), {
      PERPETUA_API_KEY: key,
      PERPETUA_API_SECRET: secret,
    });
    expect([a.spotUrl, a.contractUrl, a.fresh]).to.deep.equal(['https://spot.example', 'https://contract.example', false]);
  });

  it('starts_the_embedded_emulator_on_the_port_run_--emulator-port_asks_for', async () => {
    // config/paper-emulator.yaml leaves the port to the OS (0); the override must be the one listened on.
    const paper = parseRunConfig(
      {
        mode: 'paper',
        paper: { emulatorConfig: 'config/paper-emulator.yaml' },
        instruments: ['BTCUSDT'],
        strategies: [
          { id: 'mm1', name: 'spot-market-maker', instruments: ['BTCUSDT'], params: { orderSize: '0.001', maxInventory: '0.01' } },
        ],
      },
      strategyCatalog(),
    ).config;
    const port = await freePort();
    const access = await embeddedEmulatorAccess(paper, {}, undefined, port);
    try {
      expect(new URL(access.spotUrl).port).to.equal(String(port));
      const res = await fetch(`${access.spotUrl}/api/v3/ping`);
      expect(res.status).to.equal(200);
    } finally {
      await access.close();
    }
  });
});
