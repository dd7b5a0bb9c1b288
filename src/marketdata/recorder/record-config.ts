/**
 * The recorder's configuration (`perpetua record <config>`): one zod schema, unknown keys rejected at
 * every level, loaded from YAML. A failing file is a ConfigInvalid listing every problem as
 * `path: expected …, received …` (`instruments[0].streams.trades.everyMs: expected at least the cycle
 * (1000 ms), received 500`).
 *
 * Instruments use the shapes of the pollers' MarketPollConfig (poll-config.ts) — `kind`, `symbol`,
 * `cycleMs`, `streams` with per-stream `everyMs` / `limit` / `intervals` — so a block can be copied
 * between a run config and a record config. Differences: `kind` may be left out (BTC_USDT is a
 * contract, BTCUSDT spot), `cycleMs` defaults to 1000, and the spot `avgPrice` stream is refused (the
 * record model has no stream for it, so polling it would only spend rate budget).
 *
 * After the schema, the same cadence and rate-budget checks the live data source runs at start-up
 * (resolvePollConfig, assertPollBudget) run here, so a config that would be refused later is refused
 * while it is being read, with its path.
 */
import { z } from 'zod';
import { ConfigInvalid, zodIssueMessages } from '../../core/config/config-issues.js';
import { loadYamlConfig, parseWithSchema } from '../../core/config/yaml-config.js';
import { parseDuration } from '../../core/duration.js';
import { ConfigError } from '../../core/errors.js';
import { isContractSymbol, isSpotSymbol } from '../../core/ids.js';
import { CONTRACT_KLINE_INTERVALS } from '../../domain/contract-enums.js';
import { SPOT_KLINE_INTERVALS } from '../../domain/spot-enums.js';
import { assertPollBudget, DEFAULT_POLL_BUDGET } from '../poll/poll-budget.js';
import {
  resolvePollConfig,
  type ContractStreams,
  type InstrumentPoll,
  type MarketPollConfig,
  type SpotStreams,
} from '../poll/poll-config.js';

/** The real exchange's public hosts (no credentials: the recorder calls public endpoints only). */
export const DEFAULT_SPOT_URL = 'https://api.mexc.com';
export const DEFAULT_CONTRACT_URL = 'https://contract.mexc.com';

export const FSYNC_POLICIES = ['flush', 'chunk', 'close', 'never'] as const;
export type FsyncPolicy = (typeof FSYNC_POLICIES)[number];

const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;

const int = (min: number, max: number, what = 'an integer') =>
  z
    .number({ error: `${what} ${min}..${max}` })
    .int({ error: `${what} ${min}..${max}` })
    .min(min, { error: `${what} ${min}..${max}` })
    .max(max, { error: `${what} ${min}..${max}` });
const ms = (min: number, max: number) => int(min, max, 'a whole number of milliseconds');

const cadence = { everyMs: ms(1, 86_400_000).optional() };
const STREAM_OBJECT = { error: 'an object ({} polls every cycle)' };
/** depth (levels per side) and trades (recent trades per fetch): a cadence and a limit. */
const limited = (max: number) => z.strictObject({ ...cadence, limit: int(1, max).optional() }, STREAM_OBJECT);
const plain = z.strictObject({ ...cadence }, STREAM_OBJECT);
const klines = <I extends readonly [string, ...string[]]>(intervals: I, maxLimit: number) =>
  z.strictObject(
    {
      ...cadence,
      intervals: z
        .array(z.enum(intervals, { error: `one of ${intervals.join(', ')}` }), { error: `a list of ${intervals.join(', ')}` })
        .min(1, { error: `at least one of ${intervals.join(', ')}` }),
      limit: int(1, maxLimit).optional(),
    },
    STREAM_OBJECT,
  );

const spotStreamsSchema = z.strictObject({
  depth: limited(5000).optional(),
  bookTicker: plain.optional(),
  trades: limited(1000).optional(),
  klines: klines(SPOT_KLINE_INTERVALS, 1000).optional(),
  ticker24h: plain.optional(),
});

const contractStreamsSchema = z.strictObject({
  depth: limited(1000).optional(),
  ticker: plain.optional(),
  fundingRate: plain.optional(),
  fairPrice: plain.optional(),
  indexPrice: plain.optional(),
  deals: limited(100).optional(),
  klines: klines(CONTRACT_KLINE_INTERVALS, 2000).optional(),
});

const SYMBOL_EXPECTED = 'a spot symbol (BTCUSDT) or a contract symbol (BTC_USDT)';

const instrumentSchema = z
  .strictObject({
    symbol: z.string({ error: SYMBOL_EXPECTED }).refine((s) => isSpotSymbol(s) || isContractSymbol(s), {
      error: (iss) => `expected ${SYMBOL_EXPECTED}, received ${JSON.stringify(iss.input)}`,
    }),
    kind: z.enum(['spot', 'contract'], { error: 'spot or contract' }).optional(),
    cycleMs: ms(50, 3_600_000).default(1000),
    streams: z.record(z.string(), z.unknown(), { error: 'an object of streams (e.g. { depth: { limit: 20 }, trades: {} })' }),
  })
  .transform((v, ctx): RecordInstrument => {
    const kind = v.kind ?? (isContractSymbol(v.symbol) ? 'contract' : 'spot');
    if (kind === 'spot' ? !isSpotSymbol(v.symbol) : !isContractSymbol(v.symbol)) {
      ctx.addIssue({
        code: 'custom',
        path: ['symbol'],
        message: `expected a ${kind} symbol (${kind === 'spot' ? 'BTCUSDT' : 'BTC_USDT'}), received ${JSON.stringify(v.symbol)}`,
      });
      return z.NEVER;
    }
    const schema = kind === 'spot' ? spotStreamsSchema : contractStreamsSchema;
    const r = schema.safeParse(v.streams, { reportInput: true });
    if (!r.success) {
      for (const one of zodIssueMessages(r.error.issues, schema, v.streams))
        ctx.addIssue({ code: 'custom', path: ['streams', ...one.path], message: one.message });
      return z.NEVER;
    }
    const streams = Object.fromEntries(Object.entries(r.data).filter(([, s]) => s !== undefined));
    if (Object.keys(streams).length === 0) {
      ctx.addIssue({ code: 'custom', path: ['streams'], message: `expected at least one of ${Object.keys(schema.shape).join(', ')}` });
      return z.NEVER;
    }
    return kind === 'spot'
      ? { kind, symbol: v.symbol, cycleMs: v.cycleMs, streams: streams as SpotStreams }
      : { kind, symbol: v.symbol, cycleMs: v.cycleMs, streams: streams as ContractStreams };
  });

/** Seconds (a number) or a duration text: `90s`, `15m`, `2h`, `1d`, `500ms`. */
const durationSchema = z
  .union([z.number(), z.string()], { error: 'seconds (a number) or a duration like 90s, 15m, 2h, 1d' })
  .transform((v, ctx) => {
    const msValue = parseDuration(v);
    if (msValue === undefined) {
      ctx.addIssue({ code: 'custom', message: `expected seconds > 0 or a duration like 90s, 15m, 2h, 1d, received ${JSON.stringify(v)}` });
      return z.NEVER;
    }
    return msValue;
  });

export const recordConfigSchema = z.strictObject({
  /** Record store folder: created when missing, continued when present (crash recovery on open). */
  out: z.string({ error: 'a folder for the record store' }).min(1, { error: 'a folder for the record store' }),
  venue: z
    .strictObject({
      spotUrl: z.url({ error: 'an http(s) URL' }).default(DEFAULT_SPOT_URL),
      contractUrl: z.url({ error: 'an http(s) URL' }).default(DEFAULT_CONTRACT_URL),
      /** Deadline of one request, ms. */
      requestTimeoutMs: ms(100, 120_000).default(10_000),
      /** The client-side rate limiter (requests wait instead of drawing 429s). Off only for a local emulator. */
      rateLimit: z.boolean({ error: 'true or false' }).default(true),
    })
    .prefault({}),
  instruments: z.array(instrumentSchema, { error: 'a list of instruments' }).min(1, { error: 'at least one instrument' }),
  backoff: z
    .strictObject({
      initialMs: ms(1, 600_000).optional(),
      multiplier: z.number({ error: 'a factor 1..10' }).min(1, { error: 'a factor 1..10' }).max(10, { error: 'a factor 1..10' }).optional(),
      maxMs: ms(1, 3_600_000).optional(),
    })
    .optional(),
  /** Rate budget the cadences must fit in (poll-budget.ts); default DEFAULT_POLL_BUDGET. */
  budget: z
    .strictObject({
      spotWeightPerSecond: z.number({ error: 'a number > 0' }).positive({ error: 'a number > 0' }),
      contractCallsPerSecondPerEndpoint: z.number({ error: 'a number > 0' }).positive({ error: 'a number > 0' }),
    })
    .optional(),
  /** Stop by itself after this long (ms after parsing); absent: until Ctrl-C / SIGTERM. */
  duration: durationSchema.optional(),
  store: z
    .strictObject({
      /** Buffered records reach the file at least this often (wall time on the recorder's clock), ms. */
      flushMs: ms(10, 3_600_000).default(5000),
      /**
       * close: fsync at segment roll and close (survives a killed process); flush: also at every
       * periodic flush (survives power loss up to flushMs); chunk: after every chunk; never: scratch.
       */
      fsync: z.enum(FSYNC_POLICIES, { error: `one of ${FSYNC_POLICIES.join(', ')}` }).default('close'),
      codec: z.enum(['deflate', 'brotli', 'none'], { error: 'one of deflate, brotli, none' }).default('deflate'),
      /** day: a new segment file per UTC day (old days can be archived as files). */
      segmentPeriod: z.enum(['day', 'none'], { error: 'day or none' }).default('day'),
    })
    .prefault({}),
  log: z
    .strictObject({
      /** JSON-lines log file; without it warnings go to stderr. */
      file: z.string().min(1, { error: 'a file path' }).optional(),
      level: z.enum(LOG_LEVELS, { error: `one of ${LOG_LEVELS.join(', ')}` }).default('info'),
      /** Period of the one-line progress on stderr, ms. */
      progressMs: ms(100, 3_600_000).default(5000),
    })
    .prefault({}),
  /** Written into the store's meta record (where the data came from). */
  source: z.string().min(1).optional(),
});

export type RecordInstrument =
  | { readonly kind: 'spot'; readonly symbol: string; readonly cycleMs: number; readonly streams: SpotStreams }
  | { readonly kind: 'contract'; readonly symbol: string; readonly cycleMs: number; readonly streams: ContractStreams };

type Parsed = z.output<typeof recordConfigSchema>;

export interface RecordConfig extends Omit<Parsed, 'instruments' | 'duration'> {
  readonly instruments: readonly RecordInstrument[];
  /** ms; absent = until stopped. */
  readonly duration?: number;
}
export type RecordConfigInput = z.input<typeof recordConfigSchema>;

/** The pollers' config for the instruments of a record config. */
export function toMarketPollConfig(c: RecordConfig): MarketPollConfig {
  return {
    instruments: c.instruments.map((i): InstrumentPoll => ({ ...i })),
    ...(c.backoff ? { backoff: c.backoff } : {}),
    ...(c.budget ? { budget: c.budget } : {}),
  };
}

/** Validates a config object (parsed YAML); throws ConfigInvalid naming every bad path. */
export function parseRecordConfig(raw: unknown, source = 'record config'): RecordConfig {
  const config = parseWithSchema(recordConfigSchema, raw, ['record'], source) as RecordConfig;
  const poll = toMarketPollConfig(config);
  try {
    const resolved = resolvePollConfig(poll, ROOT);
    assertPollBudget(resolved, poll.budget ?? DEFAULT_POLL_BUDGET);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    const path = e.path.startsWith(`${ROOT}.`) ? e.path.slice(ROOT.length + 1) : e.path === ROOT ? '' : e.path;
    const message = e.message.startsWith(`${e.path}: `) ? e.message.slice(e.path.length + 2) : e.message;
    throw new ConfigInvalid(source, [{ path, message: message.replace(/, got /, ', received ') }]);
  }
  return config;
}

const ROOT = '$record';

/** Reads and validates a YAML record config (core/config/yaml-config.ts: the loader every config kind shares). */
export async function loadRecordConfig(file: string): Promise<RecordConfig> {
  return loadYamlConfig(file, parseRecordConfig);
}

/** `90s` → 90 000; a bare number is seconds (one syntax everywhere: core/duration.ts). */
export { parseDuration } from '../../core/duration.js';
