/**
 * Where the run trades and with which key: the real exchange (live), an emulator started in-process
 * (paper, embedded) or an emulator already running (paper, by URL). The three differ only here; every
 * layer after this sees the same two base URLs and credentials.
 *
 * Secrets come from environment variables (or, for the emulator's demo account, from the config or
 * the emulator's own account list). They are registered with the process-wide redactor at once, so no
 * log line can carry them, and only a masked key is ever shown.
 */
import { resolve } from 'node:path';
import type { Credentials } from '../../client/credentials.js';
import { ConfigError } from '../../core/errors.js';
import { globalRedactor, mask } from '../../core/redact.js';
import { loadEmulatorConfig } from '../../emulator/emulator-config.js';
import { startEmulator, type RunningEmulator } from '../../emulator/start-emulator.js';
import type { RunConfig } from '../config/run-config-schema.js';

export interface VenueAccess {
  /** For the banner: `MEXC https://api.mexc.com`, `embedded emulator http://127.0.0.1:41234` … */
  readonly label: string;
  readonly spotUrl: string;
  readonly contractUrl: string;
  readonly credentials?: Credentials;
  /** Where the key came from, with the key masked: `env PERPETUA_API_KEY (mx0v…3f)`. */
  readonly credentialSource: string;
  /**
   * The venue was created for this run (an embedded emulator without persistence): nothing the
   * journal holds exists there, so the run starts a fresh journal instead of resuming.
   */
  readonly fresh: boolean;
  /** The embedded emulator, when there is one (tests reach its engines and fault hooks). */
  readonly emulator?: RunningEmulator;
  close(): Promise<void>;
}

interface Resolved {
  readonly credentials?: Credentials;
  readonly source: string;
}

/** Inline (paper demo key) or from the environment variables the config names. */
export function resolveCredentials(venue: RunConfig['venue'], env: NodeJS.ProcessEnv): Resolved {
  if (venue.apiKey !== undefined && venue.apiSecret !== undefined) {
    globalRedactor.register(venue.apiSecret, venue.apiKey);
    return { credentials: { apiKey: venue.apiKey, secretKey: venue.apiSecret }, source: `inline demo key ${mask(venue.apiKey)}` };
  }
  const apiKey = env[venue.apiKeyEnv]?.trim();
  const secretKey = env[venue.apiSecretEnv]?.trim();
  if (!apiKey && !secretKey) return { source: 'none' };
  if (!apiKey) throw new ConfigError('venue.apiKeyEnv', `${venue.apiKeyEnv} is not set but ${venue.apiSecretEnv} is`);
  if (!secretKey) throw new ConfigError('venue.apiSecretEnv', `${venue.apiSecretEnv} is not set but ${venue.apiKeyEnv} is`);
  globalRedactor.register(secretKey, apiKey);
  return { credentials: { apiKey, secretKey }, source: `env ${venue.apiKeyEnv} ${mask(apiKey)}` };
}

export function liveVenueAccess(config: RunConfig, env: NodeJS.ProcessEnv): VenueAccess {
  const r = resolveCredentials(config.venue, env);
  if (!r.credentials) {
    throw new ConfigError(
      'venue.apiKeyEnv',
      `live trading needs API credentials: set the environment variables ${config.venue.apiKeyEnv} and ${config.venue.apiSecretEnv}`,
    );
  }
  return {
    label: `exchange ${config.venue.spotUrl} / ${config.venue.contractUrl}`,
    spotUrl: config.venue.spotUrl,
    contractUrl: config.venue.contractUrl,
    credentials: r.credentials,
    credentialSource: r.source,
    fresh: false,
    close: async () => undefined,
  };
}

/** Paper trading against an emulator someone else started (`perpetua emulator`). */
export function runningEmulatorAccess(config: RunConfig, env: NodeJS.ProcessEnv): VenueAccess {
  const url = config.paper?.emulatorUrl;
  if (!url) throw new ConfigError('paper.emulatorUrl', 'expected the URL of a running emulator');
  const r = resolveCredentials(config.venue, env);
  if (!r.credentials)
    throw new ConfigError(
      'venue',
      `a running emulator is reached with one of its accounts' keys: set venue.apiKey / venue.apiSecret (demo key) or ${config.venue.apiKeyEnv} / ${config.venue.apiSecretEnv}`,
    );
  const base = url.replace(/\/+$/, '');
  return {
    label: `emulator ${base}`,
    spotUrl: base,
    contractUrl: base,
    credentials: r.credentials,
    credentialSource: r.source,
    fresh: false,
    close: async () => undefined,
  };
}

/** Starts the emulator in this process from its YAML; trades as one of its accounts. */
export async function embeddedEmulatorAccess(
  config: RunConfig,
  env: NodeJS.ProcessEnv,
  onInternalError?: (err: unknown, endpointId: string | undefined) => void,
  /** Overrides the emulator config's port (`run --emulator-port`). */
  port?: number,
): Promise<VenueAccess> {
  const file = config.paper?.emulatorConfig;
  if (!file) throw new ConfigError('paper.emulatorConfig', 'expected the emulator config to start');
  const loaded = await loadEmulatorConfig(resolve(file));
  const emuConfig = port === undefined ? loaded : { ...loaded, port };
  const configured = resolveCredentials(config.venue, env);
  let credentials = configured.credentials;
  let source = configured.source;
  if (!credentials) {
    const wanted = config.paper?.account;
    const account = wanted === undefined ? emuConfig.accounts[0] : emuConfig.accounts.find((a) => a.name === wanted);
    if (!account) {
      throw new ConfigError(
        wanted === undefined ? 'paper.emulatorConfig' : 'paper.account',
        wanted === undefined ? `${file} defines no account to trade as` : `${file} has no account named ${JSON.stringify(wanted)}`,
      );
    }
    globalRedactor.register(account.secretKey, account.apiKey);
    credentials = { apiKey: account.apiKey, secretKey: account.secretKey };
    source = `emulator account ${account.name} ${mask(account.apiKey)}`;
  }
  const emu = await startEmulator(emuConfig, onInternalError ? { onInternalError } : {});
  return {
    label: `embedded emulator ${emu.url} (${file})`,
    spotUrl: emu.url,
    contractUrl: emu.url,
    credentials,
    credentialSource: source,
    fresh: emuConfig.persistence === undefined,
    emulator: emu,
    close: () => emu.stop(),
  };
}
