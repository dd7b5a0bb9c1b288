/**
 * `perpetua validate <config>`: exit 0 with a one-line summary, or exit 1 with every problem, one per
 * line, each with its YAML path. For an embedded emulator the emulator's own config is checked too,
 * and every traded symbol must be one it lists.
 */
import { resolve } from 'node:path';
import { ConfigError, PerpetuaError } from '../../core/errors.js';
import { isContractSymbol } from '../../core/ids.js';
import { assertPollBudget, DEFAULT_POLL_BUDGET } from '../../marketdata/poll/poll-budget.js';
import { resolvePollConfig } from '../../marketdata/poll/poll-config.js';
import { loadEmulatorConfig } from '../../emulator/emulator-config.js';
import type { StrategyClass } from '../../strategy/strategy.js';
import { type ConfigIssue, ConfigInvalid, formatIssue } from '../config/config-issues.js';
import { type LoadedRunConfig, loadRunConfig } from '../config/load-run-config.js';
import { configHash, toPollConfig } from '../config/runtime-settings.js';
import { strategyCatalog } from '../container/strategy-module.js';

export interface ValidateResult {
  readonly ok: boolean;
  /** Summary line (ok) or problem lines. */
  readonly lines: readonly string[];
  readonly loaded?: LoadedRunConfig;
}

export async function validateConfig(file: string, classes?: readonly StrategyClass[]): Promise<ValidateResult> {
  let loaded: LoadedRunConfig;
  try {
    loaded = await loadRunConfig(file, strategyCatalog(classes));
  } catch (e) {
    if (e instanceof ConfigInvalid) return { ok: false, lines: [`${file}: ${e.issues.length} problem${e.issues.length === 1 ? '' : 's'}`, ...e.lines().map((l) => `  ${l}`)] };
    if (e instanceof PerpetuaError) return { ok: false, lines: [`${file}: ${e.message}`] };
    throw e;
  }
  const issues = [...pollIssues(loaded), ...(await emulatorIssues(loaded))];
  if (issues.length > 0) return { ok: false, lines: [`${file}: ${issues.length} problem${issues.length === 1 ? '' : 's'}`, ...issues.map((i) => `  ${formatIssue(i)}`)], loaded };
  return { ok: true, lines: [summary(file, loaded)], loaded };
}

/** Cadences over the rate budget would live on 429s: refused here rather than at start-up. */
function pollIssues(loaded: LoadedRunConfig): ConfigIssue[] {
  const c = loaded.config;
  try {
    assertPollBudget(resolvePollConfig(toPollConfig(c)), DEFAULT_POLL_BUDGET);
    return [];
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    // The poller names its own option paths (marketData.instruments[i]); say it in the YAML's terms.
    const m = /^marketData\.instruments\[(\d+)\](.*)$/.exec(e.path);
    const symbol = m ? c.instruments[Number(m[1])] : undefined;
    const path = m && symbol ? `marketData.${isContractSymbol(symbol) ? 'contract' : 'spot'}${m[2]}` : e.path;
    return [{ path, message: e.message.slice(e.path.length + 2) }];
  }
}

async function emulatorIssues(loaded: LoadedRunConfig): Promise<ConfigIssue[]> {
  const c = loaded.config;
  const file = c.mode === 'paper' ? c.paper?.emulatorConfig : undefined;
  if (!file) return [];
  try {
    const emu = await loadEmulatorConfig(resolve(file));
    const listed = new Set<string>([...emu.instruments.spot.map((s) => s.symbol), ...emu.instruments.contract.map((s) => s.symbol)]);
    const out: ConfigIssue[] = [];
    c.instruments.forEach((s, i) => {
      if (!listed.has(s)) out.push({ path: `instruments[${i}]`, message: `expected a symbol the embedded emulator lists (${[...listed].join(', ')}), received ${JSON.stringify(s)}` });
    });
    if (emu.accounts.length === 0 && c.venue.apiKey === undefined) out.push({ path: 'paper.emulatorConfig', message: `expected an emulator config with at least one account to trade as; ${file} has none` });
    if (c.paper?.account !== undefined && !emu.accounts.some((a) => a.name === c.paper?.account)) {
      out.push({ path: 'paper.account', message: `expected one of the emulator's accounts (${emu.accounts.map((a) => a.name).join(', ')}), received ${JSON.stringify(c.paper.account)}` });
    }
    return out;
  } catch (e) {
    return [{ path: 'paper.emulatorConfig', message: e instanceof Error ? e.message : String(e) }];
  }
}

function summary(file: string, loaded: LoadedRunConfig): string {
  const c = loaded.config;
  const where =
    c.mode === 'paper' ? (c.paper?.emulatorConfig ? `embedded emulator ${c.paper.emulatorConfig}` : `emulator ${c.paper?.emulatorUrl ?? '?'}`) : c.mode === 'live' ? `exchange ${c.venue.spotUrl}` : 'recorded data';
  const strategies = loaded.strategies.map((s) => `${s.id} (${s.name})`).join(', ');
  return `${file}: ok — ${c.mode} on ${where}; ${c.instruments.length} instrument${c.instruments.length === 1 ? '' : 's'} (${c.instruments.join(', ')}); strategies ${strategies}; journal ${c.journal.path}; config ${configHash(c).slice(0, 12)}`;
}
