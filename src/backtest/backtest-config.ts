/**
 * A backtest config: a run config (`perpetua run`'s schema, mode `backtest`: instruments, market data
 * cadence, ONE strategy, risk, execution) plus two sections of its own:
 *
 *   backtest:                 what to replay and how to fill
 *     initialCapital, seed, from, to, samplePeriodMs, pollLatencyMs, riskFreeRate
 *     fillModels: [optimistic, neutral, pessimistic]   (names, or {name, base, …overrides})
 *     instruments:            per symbol: preset / rules, the recorded instrument it maps to, fees,
 *                             the quantity unit of the recording, intra-bar path options
 *     data:                   record store folders, record files, or files for an importer
 *   sweep:                    parameter grid for `perpetua sweep`
 *
 * Relative data paths resolve against the working directory (the project), like the journal path.
 */
import { z } from 'zod';
import { D } from '../core/decimal.js';
import { ConfigError } from '../core/errors.js';
import { isContractSymbol } from '../core/ids.js';
import { ConfigInvalid, issueOf, issuesFromZod, stripKind, type ConfigIssue } from '../core/config/config-issues.js';
import { loadYamlConfig } from '../core/config/yaml-config.js';
import { parseRunConfig, type LoadedRunConfig, type StrategyCatalog } from '../runtime/config/load-run-config.js';
import { CONTRACT_PRESETS, SPOT_PRESETS } from '../emulator/config/instrument-presets.js';
import {
  contractInstrumentSchema,
  spotInstrumentSchema,
  toContractInstrument,
  toSpotInstrument,
} from '../emulator/config/instrument-schemas.js';
import type { Instrument } from '../domain/instrument.js';
import { KLINE_INTERVALS } from '../domain/kline-interval.js';
import { IMPORT_KINDS } from '../marketdata/import/import-kinds.js';
import { checkSweepResearch } from './research/sweep-settings.js';
import { sweepParameterSchema, sweepResearchFields } from './research/sweep-schema.js';
import {
  isStandardFillModel,
  resolveFillModel,
  STANDARD_FILL_MODEL_NAMES,
  type FillModel,
  type FillModelOverrides,
  type StandardFillModelName,
} from './fill-model.js';

const decimalString = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const s = typeof v === 'number' ? String(v) : v.trim();
  if (!/^[0-9]+(\.[0-9]+)?$/.test(s) || !(Number(s) > 0)) {
    ctx.addIssue({ code: 'custom', message: `expected a decimal number > 0, received ${JSON.stringify(v)}` });
    return z.NEVER;
  }
  return s;
});

const time = z.union([z.number().int(), z.string()]).transform((v, ctx) => {
  if (typeof v === 'number') return v;
  const t = Date.parse(v);
  if (!Number.isFinite(t)) {
    ctx.addIssue({
      code: 'custom',
      message: `expected epoch milliseconds or an ISO date-time (2024-08-08T23:55:00Z), received ${JSON.stringify(v)}`,
    });
    return z.NEVER;
  }
  return t;
});

const latencySchema = z.strictObject({
  orderEntryMs: z.number().int().min(0).max(60_000).optional(),
  cancelMs: z.number().int().min(0).max(60_000).optional(),
  responseMs: z.number().int().min(0).max(60_000).optional(),
  jitterMs: z.number().int().min(0).max(60_000).optional(),
});

const fillModelEntry = z.union([
  z.enum(STANDARD_FILL_MODEL_NAMES),
  z.strictObject({
    name: z
      .string()
      .regex(/^[a-z0-9][a-z0-9+_-]{0,31}$/)
      .describe('Name shown in the report.'),
    base: z.enum(STANDARD_FILL_MODEL_NAMES).optional().describe('Preset the overrides apply to (default: the name, when it is a preset).'),
    queue: z.enum(['front', 'displayed', 'back-plus']).optional(),
    queueExtraFraction: z.number().min(0).max(100).optional(),
    latency: latencySchema.optional(),
    takerDepthFraction: z.number().gt(0).max(1).optional(),
    adverseTicks: z.number().int().min(0).max(1000).optional(),
    tradeThroughFillsAll: z.boolean().optional(),
  }),
]);

const sourceSchema = z.strictObject({
  market: z.enum(['spot', 'contract']).describe('Market of the recorded instrument.'),
  symbol: z.string().min(1).describe('Symbol as the records name it (BTCUSDT for a Binance perpetual imported as is).'),
  quantityUnit: z
    .enum(['base', 'contracts'])
    .optional()
    .describe('Contracts: recorded quantities are base units (default; Binance) or contracts.'),
});

const pathSchema = z.strictObject({
  stepsPerLeg: z.number().int().min(1).max(100).optional(),
  levels: z.number().int().min(1).max(100).optional(),
  levelLots: z.number().int().min(1).optional(),
});

const instrumentSchema = z.strictObject({
  preset: z.string().optional().describe('Built-in rules to start from (default: the symbol when it is a preset).'),
  rules: z.record(z.string(), z.unknown()).optional().describe('Rule fields overriding the preset (the emulator config shape).'),
  source: sourceSchema.optional().describe('The recorded instrument (default: same market and symbol).'),
  fees: z
    .strictObject({ maker: z.union([z.number(), z.string()]).optional(), taker: z.union([z.number(), z.string()]).optional() })
    .optional()
    .describe('Our commission rates.'),
  path: pathSchema.optional().describe('Intra-bar path of kline-only data.'),
  barInterval: z.enum(KLINE_INTERVALS).optional().describe('Kline-only data: the interval expanded into paths (default: the first seen).'),
});

const dataSchema = z.strictObject({
  kind: z
    .enum(['store', ...IMPORT_KINDS])
    .describe(
      'store: a record store folder; records: JSON-lines record files; klines / mark / index / funding / trades / l2: files for that importer.',
    ),
  path: z.string().min(1).optional(),
  files: z.array(z.string().min(1)).min(1).optional(),
  market: z.enum(['spot', 'contract']).optional(),
  symbol: z.string().min(1).optional().describe('Instrument written into every imported record (the source symbol).'),
  interval: z.enum(KLINE_INTERVALS).optional(),
  pricePoint: z.enum(['open', 'close']).optional(),
  cycleHours: z.number().int().min(1).max(24).optional(),
});

export const backtestSectionSchema = z.strictObject({
  initialCapital: decimalString.describe('Starting balance of the valuation asset (risk.valuationAsset).'),
  contractCapital: decimalString
    .optional()
    .describe(
      'A run trading spot and perpetual instruments: the part of initialCapital that starts in the contract wallet (the rest in spot; the two are separate wallets, as on the venue). Default: half.',
    ),
  seed: z.number().int().min(0).default(1).describe('Seed of every random draw in the run.'),
  from: time.optional().describe('Replay from this time (inclusive).'),
  to: time.optional().describe('Replay until this time (exclusive).'),
  samplePeriodMs: z.number().int().min(1).max(86_400_000).default(60_000).describe('Equity / position sampling period, ms.'),
  pollLatencyMs: z
    .number()
    .int()
    .min(0)
    .max(60_000)
    .default(50)
    .describe('A polled snapshot shows the market this long before it arrives.'),
  riskFreeRate: z.number().min(0).max(1).optional(),
  venueTpsl: z
    .boolean()
    .default(false)
    .describe('Perpetuals: simulate position TP/SL triggers at the venue (off: attachTpSl is refused and strategies protect themselves).'),
  fillModels: z
    .array(fillModelEntry)
    .min(1)
    .default([...STANDARD_FILL_MODEL_NAMES])
    .describe('Fill models to run; the report shows the band of outcomes.'),
  instruments: z.record(z.string(), instrumentSchema).default({}),
  data: z.array(dataSchema).min(1).describe('What to replay.'),
});

export const sweepSectionSchema = z.strictObject({
  parameters: z
    .record(z.string(), sweepParameterSchema)
    .describe('Strategy parameter → values to try, or a range { min, max, step?, log?, integer? } (dotted paths for nested parameters).'),
  fillModel: z.string().default('neutral').describe('Fill model each grid point runs with (the band is run for the best ones).'),
  rankBy: z.string().optional().describe('Metric to rank by (default sharpe); or give sweep.objective.'),
  ...sweepResearchFields,
  workers: z.number().int().min(1).max(64).optional(),
  bestN: z.number().int().min(0).max(100).default(5),
  maxRuns: z.number().int().min(1).max(100_000).default(1000),
});

export type BacktestSection = z.output<typeof backtestSectionSchema>;
export type SweepSection = z.output<typeof sweepSectionSchema>;
export type DataSource = z.output<typeof dataSchema>;

export interface BacktestInstrument {
  readonly instrument: Instrument;
  readonly source: { readonly market: 'spot' | 'contract'; readonly symbol: string };
  /** Recorded quantity × this = our quantity. */
  readonly quantityFactor: number;
  readonly fees?: { readonly maker?: string; readonly taker?: string };
  readonly path?: z.output<typeof pathSchema>;
  readonly barInterval?: (typeof KLINE_INTERVALS)[number];
}

export interface BacktestConfig {
  /** The run part, exactly as `perpetua run` validates it (mode backtest). */
  readonly run: LoadedRunConfig;
  readonly backtest: BacktestSection;
  readonly sweep?: SweepSection;
  readonly instruments: readonly BacktestInstrument[];
  readonly fillModels: readonly FillModel[];
  /** The whole document as validated (JSON values), hashed into the run. */
  readonly document: Record<string, unknown>;
  readonly source: string;
}

/** Validates a parsed YAML document. Throws ConfigInvalid listing every issue. */
export function parseBacktestConfig(input: unknown, catalog: StrategyCatalog, source = 'config'): BacktestConfig {
  const doc = stripKind(input, ['backtest', 'sweep'], source);
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc))
    throw new ConfigInvalid(source, [{ path: '', message: 'expected a YAML mapping (instruments:, strategies:, backtest: …)' }]);
  const { backtest, sweep, ...rest } = doc as Record<string, unknown>;
  const runDoc: Record<string, unknown> = { mode: 'backtest', ...rest };
  // No real venue refuses contract orders here: allow them unless the file says otherwise.
  const venue = (runDoc.venue ?? {}) as Record<string, unknown>;
  if (
    typeof venue === 'object' &&
    venue !== null &&
    venue.contractTrading === undefined &&
    Array.isArray(runDoc.instruments) &&
    runDoc.instruments.some((s) => typeof s === 'string' && isContractSymbol(s))
  ) {
    runDoc.venue = { ...venue, contractTrading: true };
  }
  const issues: ConfigIssue[] = [];
  let run: LoadedRunConfig | undefined;
  try {
    run = parseRunConfig(runDoc, catalog, source);
  } catch (e) {
    if (e instanceof ConfigInvalid) issues.push(...e.issues);
    else throw e;
  }
  if (run && run.config.mode !== 'backtest')
    issues.push({ path: 'mode', message: `expected backtest (or no mode), received ${JSON.stringify(run.config.mode)}` });
  if (run && run.strategies.length !== 1)
    issues.push({
      path: 'strategies',
      message: `expected exactly one strategy in a backtest (one report per strategy), received ${run.strategies.length}`,
    });
  if (backtest === undefined) issues.push({ path: 'backtest', message: 'expected a backtest section (initialCapital, data …)' });
  const b = backtestSectionSchema.safeParse(backtest ?? {}, { reportInput: true });
  if (backtest !== undefined && !b.success) issues.push(...issuesFromZod(b.error.issues, backtestSectionSchema, backtest, ['backtest']));
  const s = sweep === undefined ? undefined : sweepSectionSchema.safeParse(sweep, { reportInput: true });
  if (s && !s.success) issues.push(...issuesFromZod(s.error.issues, sweepSectionSchema, sweep, ['sweep']));
  if (s?.success) issues.push(...checkSweepResearch(s.data));
  let instruments: BacktestInstrument[] = [];
  let fillModels: FillModel[] = [];
  if (run && b.success) {
    try {
      instruments = run.config.instruments.map((sym) => instrumentOf(sym, b.data.instruments[sym]));
      for (const key of Object.keys(b.data.instruments))
        if (!(run.config.instruments as readonly string[]).includes(key))
          issues.push({
            path: `backtest.instruments.${key}`,
            message: `expected a symbol listed under \`instruments\` (${run.config.instruments.join(', ')})`,
          });
      fillModels = b.data.fillModels.map((f, i) => fillModelOf(f, `backtest.fillModels[${i}]`));
      const names = new Set<string>();
      fillModels.forEach((m, i) => {
        if (names.has(m.name))
          issues.push({ path: `backtest.fillModels[${i}]`, message: `expected a unique name; ${m.name} is listed twice` });
        names.add(m.name);
      });
      b.data.data.forEach((d, i) => {
        if (d.kind === 'store' && !d.path) issues.push({ path: `backtest.data[${i}].path`, message: 'expected the record store folder' });
        if (d.kind !== 'store' && !d.files && !d.path)
          issues.push({ path: `backtest.data[${i}].files`, message: 'expected the files to import (or `path` for one file)' });
        if (d.kind !== 'store' && d.kind !== 'records' && !d.market)
          issues.push({ path: `backtest.data[${i}].market`, message: 'expected spot or contract' });
      });
      if (b.data.from !== undefined && b.data.to !== undefined && b.data.to <= b.data.from)
        issues.push({ path: 'backtest.to', message: 'expected a time after backtest.from' });
      if (b.data.contractCapital !== undefined) {
        const kinds = new Set(instruments.map((i) => i.instrument.kind));
        if (!(kinds.has('spot') && kinds.has('contract')))
          issues.push({
            path: 'backtest.contractCapital',
            message: 'expected only in a run trading both spot and contract instruments (otherwise all the capital goes to the one wallet)',
          });
        else if (!D(b.data.contractCapital).lt(D(b.data.initialCapital)))
          issues.push({
            path: 'backtest.contractCapital',
            message: `expected less than backtest.initialCapital (${b.data.initialCapital}): the spot wallet gets the rest, received ${b.data.contractCapital}`,
          });
      }
    } catch (e) {
      if (e instanceof ConfigError) issues.push(issueOf(e));
      else throw e;
    }
  }
  if (issues.length > 0 || !run || !b.success)
    throw new ConfigInvalid(source, issues.length > 0 ? issues : [{ path: '', message: 'invalid backtest config' }]);
  return {
    run,
    backtest: b.data,
    ...(s?.success ? { sweep: s.data } : {}),
    instruments,
    fillModels,
    document: doc as Record<string, unknown>,
    source,
  };
}

/** Reads, parses and validates a YAML backtest or sweep config (core/config/yaml-config.ts). */
export async function loadBacktestConfig(file: string, catalog: StrategyCatalog): Promise<BacktestConfig> {
  return loadYamlConfig(file, (doc, source) => parseBacktestConfig(doc, catalog, source));
}

function fillModelOf(entry: z.output<typeof fillModelEntry>, path: string): FillModel {
  if (typeof entry === 'string') return resolveFillModel(entry, {}, entry, path);
  const { name, base, ...o } = entry;
  const preset: StandardFillModelName | undefined = base ?? (isStandardFillModel(name) ? name : undefined);
  if (!preset)
    throw new ConfigError(`${path}.base`, `expected one of ${STANDARD_FILL_MODEL_NAMES.join(', ')} for the custom model ${name}`);
  const overrides: FillModelOverrides = {
    ...(o.queue !== undefined ? { queue: o.queue } : {}),
    ...(o.queueExtraFraction !== undefined ? { queueExtraFraction: o.queueExtraFraction } : {}),
    ...(o.latency !== undefined ? { latency: o.latency as FillModelOverrides['latency'] & object } : {}),
    ...(o.takerDepthFraction !== undefined ? { takerDepthFraction: o.takerDepthFraction } : {}),
    ...(o.adverseTicks !== undefined ? { adverseTicks: o.adverseTicks } : {}),
    ...(o.tradeThroughFillsAll !== undefined ? { tradeThroughFillsAll: o.tradeThroughFillsAll } : {}),
  };
  return resolveFillModel(preset, overrides, name, path);
}

function instrumentOf(symbol: string, cfg: z.output<typeof instrumentSchema> | undefined): BacktestInstrument {
  const path = `backtest.instruments.${symbol}`;
  const contract = isContractSymbol(symbol);
  const presetName = cfg?.preset ?? symbol;
  const preset = (contract ? CONTRACT_PRESETS : SPOT_PRESETS)[presetName];
  if (!preset && !cfg?.rules)
    throw new ConfigError(
      `${path}.preset`,
      `a built-in preset (${Object.keys(contract ? CONTRACT_PRESETS : SPOT_PRESETS).join(', ')}) or the instrument's rules under \`rules\` for ${symbol}`,
    );
  const raw = { ...(preset ?? {}), ...(cfg?.rules ?? {}), symbol };
  const fees = cfg?.fees
    ? {
        ...(cfg.fees.maker !== undefined ? { maker: String(cfg.fees.maker) } : {}),
        ...(cfg.fees.taker !== undefined ? { taker: String(cfg.fees.taker) } : {}),
      }
    : undefined;
  let instrument: Instrument;
  if (contract) {
    const r = contractInstrumentSchema.safeParse(raw);
    if (!r.success) throw new ConfigError(`${path}.rules.${r.error.issues[0]!.path.join('.')}`, r.error.issues[0]!.message);
    instrument = toContractInstrument(r.data, fees);
  } else {
    const r = spotInstrumentSchema.safeParse(raw);
    if (!r.success) throw new ConfigError(`${path}.rules.${r.error.issues[0]!.path.join('.')}`, r.error.issues[0]!.message);
    instrument = toSpotInstrument(r.data, fees);
  }
  const source = {
    market: cfg?.source?.market ?? (contract ? ('contract' as const) : ('spot' as const)),
    symbol: cfg?.source?.symbol ?? symbol,
  };
  const unit = cfg?.source?.quantityUnit ?? 'base';
  const quantityFactor = instrument.kind === 'contract' && unit === 'base' ? D(1).div(instrument.contractSize).toNumber() : 1;
  return {
    instrument,
    source,
    quantityFactor,
    ...(fees ? { fees } : {}),
    ...(cfg?.path ? { path: cfg.path } : {}),
    ...(cfg?.barInterval ? { barInterval: cfg.barInterval } : {}),
  };
}
