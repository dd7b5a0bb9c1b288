/**
 * `perpetua validate <config>`: any of the five config kinds (run, backtest, sweep, emulator, record),
 * recognised by a `kind:` key or by the keys only that kind has. Exit 0 with a one-line summary, or
 * exit 1 with every problem, one per line, each with its YAML path — the same form for every kind.
 *
 * Run configs: for an embedded emulator the emulator's own config is checked too, and every traded
 * symbol must be one it lists. Backtest configs: every data file must exist.
 */
import { resolve } from 'node:path';
import { CONFIG_KINDS, type ConfigKind, detectConfigKind } from '../../core/config-kind.js';
import { readYamlDocument } from '../../core/config/yaml-config.js';
import { ConfigError, PerpetuaError } from '../../core/errors.js';
import { isContractSymbol } from '../../core/ids.js';
import { assertPollBudget, DEFAULT_POLL_BUDGET } from '../../marketdata/poll/poll-budget.js';
import { resolvePollConfig } from '../../marketdata/poll/poll-config.js';
import { parseRecordConfig } from '../../marketdata/recorder/record-config.js';
import { loadEmulatorConfig, parseEmulatorConfig } from '../../emulator/emulator-config.js';
import type { StrategyClass } from '../../strategy/strategy.js';
import { type BacktestConfig, parseBacktestConfig } from '../../backtest/backtest-config.js';
import { checkDataSources } from '../../backtest/backtest-data.js';
import { type ConfigIssue, ConfigInvalid, formatIssue, issueOf } from '../../core/config/config-issues.js';
import { type LoadedRunConfig, parseRunConfig } from '../../runtime/config/load-run-config.js';
import { configHash, toPollConfig } from '../../runtime/config/runtime-settings.js';
import { strategyCatalog } from '../../runtime/container/strategy-module.js';
import { loadConfigStrategies } from '../../runtime/plugins/strategy-plugins.js';
import { plainMessageOf } from '../../core/message-of.js';

export interface ValidateResult {
  readonly ok: boolean;
  /** Summary line (ok) or problem lines. */
  readonly lines: readonly string[];
  /** The kind the file was checked as (undefined when it could not be told). */
  readonly kind?: ConfigKind;
  readonly loaded?: LoadedRunConfig;
}

const plural = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;
const failed = (file: string, issues: readonly ConfigIssue[], kind?: ConfigKind): ValidateResult => ({
  ok: false,
  lines: [`${file}: ${kind ? `${kind} config, ` : ''}${plural(issues.length, 'problem')}`, ...issues.map((i) => `  ${formatIssue(i)}`)],
  ...(kind ? { kind } : {}),
});

export async function validateConfig(file: string, classes?: readonly StrategyClass[]): Promise<ValidateResult> {
  let doc: unknown;
  try {
    doc = await readYamlDocument(file);
  } catch (e) {
    if (e instanceof ConfigInvalid) return failed(file, e.issues);
    if (e instanceof ConfigError) return { ok: false, lines: [e.message] };
    throw e;
  }
  const kind = detectConfigKind(doc);
  if (!kind) {
    const declared = doc !== null && typeof doc === 'object' && 'kind' in doc ? (doc as { kind: unknown }).kind : undefined;
    const message =
      declared !== undefined
        ? `expected one of ${CONFIG_KINDS.join(', ')}, received ${JSON.stringify(declared)}`
        : `cannot tell which kind of config this is: add \`kind: ${CONFIG_KINDS.join(' | ')}\` (a run config has mode:, a backtest config backtest:, an emulator config accounts: / market:, a record config out:)`;
    return failed(file, [{ path: declared !== undefined ? 'kind' : '', message }]);
  }
  try {
    switch (kind) {
      case 'run':
        return await validateRun(file, doc, classes);
      case 'backtest':
      case 'sweep':
        return await validateBacktest(file, doc, kind, classes);
      case 'emulator':
        return validateEmulator(file, doc);
      case 'record':
        return validateRecord(file, doc);
    }
  } catch (e) {
    if (e instanceof ConfigInvalid) return failed(file, e.issues, kind);
    if (e instanceof ConfigError) return failed(file, [issueOf(e)], kind);
    if (e instanceof PerpetuaError) return { ok: false, kind, lines: [`${file}: ${e.message}`] };
    throw e;
  }
}

async function validateRun(file: string, doc: unknown, classes?: readonly StrategyClass[]): Promise<ValidateResult> {
  if (!classes) await loadConfigStrategies(doc);
  const loaded = parseRunConfig(doc, strategyCatalog(classes), file);
  const issues = [...pollIssues(loaded), ...(await emulatorIssues(loaded))];
  if (issues.length > 0) return { ...failed(file, issues, 'run'), loaded };
  return { ok: true, kind: 'run', lines: [runSummary(file, loaded)], loaded };
}

async function validateBacktest(
  file: string,
  doc: unknown,
  kind: 'backtest' | 'sweep',
  classes?: readonly StrategyClass[],
): Promise<ValidateResult> {
  if (!classes) await loadConfigStrategies(doc);
  const config = parseBacktestConfig(doc, strategyCatalog(classes), file);
  const issues: ConfigIssue[] = [];
  if (kind === 'sweep' && !config.sweep) issues.push({ path: 'sweep', message: 'expected a sweep section (the parameters to vary)' });
  // Every missing data file at once: each source is checked on its own and its index put back.
  config.backtest.data.forEach((source, i) => {
    try {
      checkDataSources([source]);
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      const issue = issueOf(e);
      issues.push({ ...issue, path: issue.path.replace(/^backtest\.data\[0\]/, `backtest.data[${i}]`) });
    }
  });
  if (issues.length > 0) return failed(file, issues, kind);
  return { ok: true, kind, lines: [backtestSummary(file, config)] };
}

function validateEmulator(file: string, doc: unknown): ValidateResult {
  const c = parseEmulatorConfig(doc, file);
  const symbols = [...c.instruments.spot.map((s) => s.symbol), ...c.instruments.contract.map((s) => s.symbol)];
  return {
    ok: true,
    kind: 'emulator',
    lines: [
      `${file}: ok — emulator on ${c.host}:${c.port}; ${c.market.source} market; ${plural(symbols.length, 'instrument')} (${symbols.join(', ')}); ${plural(c.accounts.length, 'account')}${c.persistence ? `; state in ${c.persistence.path}` : '; state in memory'}`,
    ],
  };
}

function validateRecord(file: string, doc: unknown): ValidateResult {
  const c = parseRecordConfig(doc, file);
  const symbols = c.instruments.map((i) => i.symbol);
  const duration = c.duration === undefined ? 'until stopped' : `for ${Math.round(c.duration / 1000)} s`;
  return {
    ok: true,
    kind: 'record',
    lines: [`${file}: ok — record ${plural(symbols.length, 'instrument')} (${symbols.join(', ')}) into ${c.out} ${duration}`],
  };
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
      if (!listed.has(s))
        out.push({
          path: `instruments[${i}]`,
          message: `expected a symbol the embedded emulator lists (${[...listed].join(', ')}), received ${JSON.stringify(s)}`,
        });
    });
    if (emu.accounts.length === 0 && c.venue.apiKey === undefined)
      out.push({
        path: 'paper.emulatorConfig',
        message: `expected an emulator config with at least one account to trade as; ${file} has none`,
      });
    if (c.paper?.account !== undefined && !emu.accounts.some((a) => a.name === c.paper?.account)) {
      out.push({
        path: 'paper.account',
        message: `expected one of the emulator's accounts (${emu.accounts.map((a) => a.name).join(', ')}), received ${JSON.stringify(c.paper.account)}`,
      });
    }
    return out;
  } catch (e) {
    return [{ path: 'paper.emulatorConfig', message: plainMessageOf(e) }];
  }
}

function runSummary(file: string, loaded: LoadedRunConfig): string {
  const c = loaded.config;
  const where =
    c.mode === 'paper'
      ? c.paper?.emulatorConfig
        ? `embedded emulator ${c.paper.emulatorConfig}`
        : `emulator ${c.paper?.emulatorUrl ?? '?'}`
      : c.mode === 'live'
        ? `exchange ${c.venue.spotUrl}`
        : 'recorded data';
  const strategies = loaded.strategies.map((s) => `${s.id} (${s.name})`).join(', ');
  return `${file}: ok — ${c.mode} on ${where}; ${plural(c.instruments.length, 'instrument')} (${c.instruments.join(', ')}); strategies ${strategies}; journal ${c.journal.path}; config ${configHash(c).slice(0, 12)}`;
}

function backtestSummary(file: string, b: BacktestConfig): string {
  const s = b.run.strategies[0]!;
  const files = b.backtest.data.reduce((n, d) => n + (d.files?.length ?? 1), 0);
  const sweep = b.sweep
    ? `; sweep over ${Object.keys((b.sweep as { parameters?: object }).parameters ?? {}).join(', ') || 'its search space'}`
    : '';
  return `${file}: ok — backtest of ${s.id} (${s.name}) on ${b.run.config.instruments.join(', ')}; ${plural(files, 'data file')} present; fill models ${b.fillModels.map((m) => m.name).join(', ')}${sweep}`;
}
