import { expect } from 'chai';
import { inspect } from 'node:util';
import { spotCatalogue } from '../../src/api/spot/catalogue.js';
import { contractCatalogue } from '../../src/api/contract/catalogue.js';
import { VirtualClock } from '../../src/core/clock.js';
import { ConfigError } from '../../src/core/errors.js';
import type { ClientLogger } from '../../src/client/catalogue-client.js';
import { ContractClient } from '../../src/client/contract-client.js';
import { credentialsFromEnv } from '../../src/client/credentials.js';
import { SpotClient } from '../../src/client/spot-client.js';
import { FakeVenue, reply, settle } from './support/fake-venue.js';
import { drive, FAR_DEADLINE_MS, rejectionOf } from './support/drive.js';

const SECRET = 'TOPSECRET-9a8b7c6d5e4f3a2b1c0d';
const API_KEY = 'mx0vglKEY-5566778899';
const T0 = 1_767_204_000_000;

/** A logger that keeps every line as text (message + metadata), for leak checks only. */
function recordingLogger(lines: string[]): ClientLogger {
  const rec = (level: string) => (message: string, meta?: Record<string, unknown>) =>
    void lines.push(`${level} ${message} ${JSON.stringify(meta ?? {})}`);
  return { debug: rec('debug'), info: rec('info'), warn: rec('warn'), error: rec('error') };
}

function expectNoSecret(text: string): void {
  expect(text).to.not.include(SECRET);
}

describe('client/secrets', () => {
  let venue: FakeVenue;
  before(async () => {
    venue = await FakeVenue.start();
  });
  after(async () => {
    await venue.close();
  });

  it('never_puts_the_secret_into_errors_or_log_lines', async () => {
    // arrange: a venue that misbehaves in every way, including echoing the secret back
    const clock = new VirtualClock(T0);
    const lines: string[] = [];
    const logger = recordingLogger(lines);
    const spot = new SpotClient({
      baseUrl: venue.baseUrl,
      credentials: { apiKey: API_KEY, secretKey: SECRET },
      clock,
      logger,
      timeSync: false,
      timeouts: { requestMs: FAR_DEADLINE_MS },
    });
    const contract = new ContractClient({
      baseUrl: venue.baseUrl,
      credentials: { apiKey: API_KEY, secretKey: SECRET },
      clock,
      logger,
      timeouts: { requestMs: FAR_DEADLINE_MS },
    });
    const errors: Error[] = [];
    try {
      venue.reset((_h, res) =>
        reply(res, 400, { code: 700002, msg: `Signature for this request is not valid. key=${API_KEY} secret=${SECRET}` }),
      );
      errors.push(await rejectionOf(spot.account()));
      venue.reset((hit, res) =>
        hit.path === '/api/v1/contract/ping'
          ? reply(res, 200, { success: true, code: 0, data: clock.now() })
          : reply(res, 200, { success: false, code: 602, message: `Signature verification failed! ${SECRET}` }),
      );
      errors.push(await rejectionOf(contract.assets()));
      venue.reset((_h, res) => reply(res, 500, `internal error while handling secret ${SECRET}`));
      errors.push(await rejectionOf(drive(clock, spot.newOrder(spotCatalogue.newOrder.example))));
      errors.push(await rejectionOf(drive(clock, contract.createOrder(contractCatalogue.createOrder.example))));
      venue.reset((_h, res) => reply(res, 200, `{"not":"json" ${SECRET}`));
      errors.push(await rejectionOf(spot.depth({ symbol: 'BTCUSDT' })));
      venue.reset((_h, res) => {
        res.socket?.destroy();
      });
      errors.push(await rejectionOf(drive(clock, spot.cancelOrder({ symbol: 'BTCUSDT', orderId: '1' }))));
      errors.push(await rejectionOf(spot.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: SECRET })));
      await settle();
    } finally {
      await spot.close();
      await contract.close();
    }
    // assert
    expect(errors.length).to.equal(7);
    expect(lines.length).to.be.greaterThan(0);
    for (const e of errors) {
      expectNoSecret(e.message);
      expectNoSecret(String(e.stack));
      expectNoSecret(inspect(e, { depth: 10 }));
    }
    for (const line of lines) expectNoSecret(line);
    expectNoSecret(inspect(spot, { depth: 10, showHidden: true }));
    expectNoSecret(inspect(contract, { depth: 10, showHidden: true }));
    expectNoSecret(JSON.stringify(lines));
  });

  it('never_logs_signatures_or_key_headers', async () => {
    const clock = new VirtualClock(T0);
    const lines: string[] = [];
    const spot = new SpotClient({
      baseUrl: venue.baseUrl,
      credentials: { apiKey: API_KEY, secretKey: SECRET },
      clock,
      logger: recordingLogger(lines),
      timeSync: false,
    });
    venue.reset((_h, res) => reply(res, 200, { uid: '1' }));
    try {
      await spot.uid();
    } finally {
      await spot.close();
    }
    const signature = venue.hits[0]!.query.get('signature')!;
    expect(lines.join('\n')).to.not.include(signature);
    expect(lines.join('\n')).to.not.include(API_KEY);
  });

  describe('credentialsFromEnv', () => {
    it('reads_both_variables', () => {
      expect(credentialsFromEnv({ PERPETUA_API_KEY: 'k', PERPETUA_API_SECRET: 's' })).to.deep.equal({ apiKey: 'k', secretKey: 's' });
    });

    it('returns_nothing_when_neither_is_set', () => {
      expect(credentialsFromEnv({})).to.equal(undefined);
    });

    it('names_the_missing_variable_without_echoing_the_secret', () => {
      const err = (() => {
        try {
          credentialsFromEnv({ PERPETUA_API_SECRET: SECRET });
        } catch (e) {
          return e as ConfigError;
        }
        throw new Error('expected a ConfigError');
      })();
      expect(err).to.be.instanceOf(ConfigError);
      expect(err.path).to.equal('PERPETUA_API_KEY');
      expectNoSecret(err.message);
    });
  });
});
