/**
 * Starts the console of a run: read model, metrics, HTTP server and webhook, wired to the runtime's
 * read model and control port. `perpetua run` calls it when the config has a `console:` section.
 */
import { Writable } from 'node:stream';
import winston from 'winston';
import type { ClientLogger } from '../client/catalogue-client.js';
import type { Clock } from '../core/clock.js';
import { ConfigError } from '../core/errors.js';
import { globalRedactor } from '../core/redact.js';
import type { ConsoleConfig } from '../runtime/config/console-config.js';
import { ConsoleMetrics } from './console-metrics.js';
import type { ConsoleRun, ConsoleRunInfo } from './console-port.js';
import { buildConsoleServer } from './console-server.js';
import { ConsoleReadModel } from './read-model.js';
import { WebhookNotifier } from './webhook-notifier.js';

export const MIN_TOKEN_LENGTH = 16;

export interface StartConsoleOptions {
  readonly run: ConsoleRun;
  readonly info: ConsoleRunInfo;
  readonly config: ConsoleConfig;
  readonly env: NodeJS.ProcessEnv;
  readonly clock: Clock;
  readonly logger: ClientLogger;
  /** The run's winston logger: recent lines are kept for the console's log view. */
  readonly winston?: winston.Logger;
  /** Ends the run as a signal would (the console's stop action). */
  readonly requestStop: (reason: string) => void;
}

export interface RunningConsole {
  readonly url: string;
  readonly model: ConsoleReadModel;
  readonly metrics: ConsoleMetrics;
  readonly webhook?: WebhookNotifier;
  /** Stops the server and the feeds; waits for queued webhook notices. */
  close(): Promise<void>;
}

/** The bearer token from the environment; refuses a missing or short one (naming the variable, never the value). */
export function consoleToken(config: ConsoleConfig, env: NodeJS.ProcessEnv): string {
  const token = env[config.tokenEnv];
  if (!token || token.length < MIN_TOKEN_LENGTH) {
    const what = `the console's bearer token (${MIN_TOKEN_LENGTH}+ characters)`;
    const expected = `expected the environment variable ${config.tokenEnv} to hold ${what}`;
    throw new ConfigError('console.tokenEnv', `${expected}; it is ${token ? 'too short' : 'not set'}`);
  }
  return token;
}

export async function startConsole(o: StartConsoleOptions): Promise<RunningConsole> {
  const token = consoleToken(o.config, o.env);
  globalRedactor.register(token);
  const model = new ConsoleReadModel(o.run, o.info, o.clock);
  const metrics = new ConsoleMetrics(o.run, o.info, o.clock);
  const webhook = o.config.webhook ? new WebhookNotifier(o.config.webhook, o.clock, o.logger) : undefined;
  let transport: winston.transport | undefined;
  if (o.winston) {
    transport = new winston.transports.Stream({
      stream: new Writable({
        objectMode: true,
        write: (info: { level?: string; message?: unknown }, _enc, done) => {
          model.log(String(info.level ?? 'info'), String(info.message ?? ''));
          done();
        },
      }),
      // The logger's own format has already masked registered secrets.
      format: winston.format((i) => i)(),
    });
    o.winston.add(transport);
  }
  model.start();
  metrics.start();
  webhook?.attach(o.run.events$);
  const app = buildConsoleServer({
    model,
    metrics,
    token,
    control: (action, strategyId) => o.run.applyControl({ action, strategyId: strategyId as never }),
    stop: async (reason) => o.requestStop(reason),
    ...(webhook ? { webhook: () => webhook.view() } : {}),
  });
  await app.listen({ port: o.config.port, host: o.config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : o.config.port;
  const host = o.config.host.includes(':') ? `[${o.config.host}]` : o.config.host;
  const ids = o.info.strategies.map((s) => s.id);
  webhook?.notify('start', `run started (${o.info.mode}, ${ids.join(', ')})`, { mode: o.info.mode, strategies: ids });
  return {
    url: `http://${host}:${port}/`,
    model,
    metrics,
    ...(webhook ? { webhook } : {}),
    async close() {
      model.stop();
      metrics.stop();
      webhook?.detach();
      if (transport) o.winston?.remove(transport);
      await app.close();
      await webhook?.idle();
    },
  };
}
