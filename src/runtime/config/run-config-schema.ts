/**
 * The run configuration (`perpetua run <config>`): one zod schema, unknown keys rejected at every
 * level, every field described (docs/config-reference.md is generated from these descriptions).
 *
 * Values stay plain JSON (decimals as strings) so the parsed config can be hashed canonically and
 * journaled; the mapping functions (to-runtime-settings.ts) turn them into Decimals and the options
 * objects of each layer.
 */
import { z } from 'zod';
import { isContractSymbol, isSpotSymbol } from '../../core/ids.js';
import { CONTRACT_KLINE_INTERVALS } from '../../domain/contract-enums.js';
import { SPOT_KLINE_INTERVALS } from '../../domain/spot-enums.js';
import { consoleSchema } from './console-config.js';
import { envName } from './env-name.js';

export const RUN_MODES = ['live', 'paper', 'backtest'] as const;
export type RunMode = (typeof RUN_MODES)[number];

const DECIMAL = /^[0-9]+(\.[0-9]+)?$/;

/** A decimal written as a YAML number or a string ("0.001"), kept as a plain decimal string. */
function decimal(bound: 'positive' | 'non-negative' | 'fraction') {
  const expected =
    bound === 'positive' ? 'a decimal number > 0' : bound === 'fraction' ? 'a decimal number > 0 and < 1' : 'a decimal number >= 0';
  return z
    .union([z.number(), z.string()])
    .transform((v, ctx) => {
      const text = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : 'NaN') : v.trim();
      const n = Number(text);
      const ok =
        (DECIMAL.test(text) || /^[0-9.]+e-?[0-9]+$/i.test(text)) &&
        Number.isFinite(n) &&
        (bound === 'non-negative' ? n >= 0 : n > 0) &&
        (bound !== 'fraction' || n < 1);
      if (!ok) {
        ctx.addIssue({ code: 'custom', message: `expected ${expected}, received ${JSON.stringify(v)}`, input: v });
        return z.NEVER;
      }
      return typeof v === 'number' ? String(v) : text;
    })
    .meta({ expected, typeName: 'decimal' });
}

const ms = (min: number, max: number) => z.number().int().min(min).max(max);

const received = (iss: { input?: unknown }): string => JSON.stringify(iss.input);
const spotSymbolSchema = z
  .string()
  .refine(isSpotSymbol, { error: (iss) => `expected a spot symbol like BTCUSDT, received ${received(iss)}` });
const instrumentSymbolSchema = z
  .string()
  .refine((s) => isSpotSymbol(s) || isContractSymbol(s), {
    error: (iss) => `expected a spot symbol (BTCUSDT) or a contract symbol (BTC_USDT), received ${received(iss)}`,
  })
  .meta({ expected: 'a spot symbol (BTCUSDT) or a contract symbol (BTC_USDT)', typeName: 'symbol' });

// ---------------------------------------------------------------- venue

export const venueSchema = z
  .strictObject({
    spotUrl: z
      .url()
      .default('https://api.mexc.com')
      .describe('Base URL of the spot REST API (/api/v3). Ignored in paper mode (the emulator is used).'),
    contractUrl: z
      .url()
      .default('https://contract.mexc.com')
      .describe('Base URL of the perpetual-futures REST API (/api/v1). Ignored in paper mode.'),
    apiKeyEnv: envName.default('PERPETUA_API_KEY').describe('Environment variable holding the API key.'),
    apiSecretEnv: envName
      .default('PERPETUA_API_SECRET')
      .describe('Environment variable holding the API secret. Secrets never go in the file (except the emulator demo key, below).'),
    apiKey: z.string().min(8).optional().describe("Inline API key: allowed only in paper mode, for the emulator's demo account."),
    apiSecret: z.string().min(8).optional().describe("Inline API secret: allowed only in paper mode, for the emulator's demo account."),
    recvWindowMs: ms(1, 60_000).default(5000).describe('Signed-request validity window (spot recvWindow; contract Recv-Window), ms.'),
    requestTimeoutMs: ms(100, 120_000)
      .default(10_000)
      .describe(
        'Deadline of one HTTP request, ms. A state-changing request that times out has an unknown outcome and is resolved by querying its client id.',
      ),
    startupDeadlineMs: ms(1_000, 3_600_000)
      .default(60_000)
      .describe(
        'How long start-up keeps retrying transient venue errors (429 after its Retry-After, timeouts, 5xx, refused connections) with backoff before giving up, ms. Account settings (position mode, leverage, margin mode) get as long to be confirmed by reading them back.',
      ),
    contractTrading: z
      .boolean()
      .default(false)
      .describe(
        'This account may place perpetual-futures orders. Off by default because the real venue refuses contract order placement for most API keys; a strategy on a contract symbol needs it on.',
      ),
  })
  .describe('Where the exchange is and how to authenticate.');

// ---------------------------------------------------------------- paper

export const paperSchema = z
  .strictObject({
    emulatorConfig: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Emulator YAML to start IN-PROCESS (the embedded emulator with its synthetic market). Relative paths resolve against the working directory.',
      ),
    emulatorUrl: z
      .url()
      .optional()
      .describe('URL of an emulator that is already running (`perpetua emulator`), instead of an embedded one.'),
    account: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Embedded emulator only: name of the emulator account to trade as when no credentials are configured (default: its first account).',
      ),
  })
  .describe('Paper trading: the embedded emulator, or a running one. Exactly one of emulatorConfig / emulatorUrl.');

// ---------------------------------------------------------------- market data

const cadence = { everyMs: ms(1, 86_400_000).optional().describe('Fetch this stream at most this often (default: every cycle), ms.') };
const depth = z.strictObject({ ...cadence, limit: z.number().int().min(1).max(5000).optional().describe('Levels per side (default 20).') });
const trades = z.strictObject({
  ...cadence,
  limit: z.number().int().min(1).max(1000).optional().describe('Recent trades per fetch (default 100; contract deals at most 100).'),
});
const plain = z.strictObject({ ...cadence });

export const spotStreamsSchema = z
  .strictObject({
    depth: depth.optional().describe('Order book (best bid / ask come from it).'),
    bookTicker: plain.optional().describe('Best bid / ask only.'),
    trades: trades.optional().describe('Recent public trades.'),
    klines: z
      .strictObject({
        ...cadence,
        intervals: z.array(z.enum(SPOT_KLINE_INTERVALS)).min(1).describe('Candle intervals, one request each.'),
        limit: z.number().int().min(1).max(1000).optional().describe('Candles per interval (default 100).'),
      })
      .optional()
      .describe('Candles.'),
    ticker24h: plain.optional().describe('24 h ticker (last price, volume).'),
    avgPrice: plain.optional().describe('Average price.'),
  })
  .describe('Streams polled for each spot instrument.');

export const contractStreamsSchema = z
  .strictObject({
    depth: depth.optional().describe('Order book.'),
    ticker: plain.optional().describe('Last price, bid1 / ask1, fair and index price, funding rate in one call.'),
    fundingRate: plain.optional().describe('Funding rate and next settle time.'),
    fairPrice: plain.optional().describe('Fair (mark) price.'),
    indexPrice: plain.optional().describe('Index price.'),
    deals: trades.optional().describe('Recent public trades.'),
    klines: z
      .strictObject({
        ...cadence,
        intervals: z.array(z.enum(CONTRACT_KLINE_INTERVALS)).min(1).describe('Candle intervals, one request each.'),
        limit: z.number().int().min(1).max(2000).optional().describe('Candles per interval (default 100).'),
      })
      .optional()
      .describe('Candles.'),
  })
  .describe('Streams polled for each contract instrument.');

export const marketDataSchema = z
  .strictObject({
    maxSnapshotAgeMs: ms(1, 3_600_000)
      .default(5000)
      .describe(
        'Stale-data guard: a strategy never sees, and the risk engine never prices an order on, a snapshot older than this (our clock), ms.',
      ),
    spot: z
      .strictObject({
        cycleMs: ms(50, 3_600_000).default(1000).describe('One poll cycle per instrument → at most one snapshot, ms.'),
        streams: spotStreamsSchema.default({ depth: { limit: 20 }, ticker24h: {} }),
      })
      .prefault({})
      .describe('Polling of spot instruments.'),
    contract: z
      .strictObject({
        cycleMs: ms(50, 3_600_000).default(1000).describe('One poll cycle per instrument → at most one snapshot, ms.'),
        streams: contractStreamsSchema.default({ depth: { limit: 20 }, ticker: {} }),
      })
      .prefault({})
      .describe('Polling of contract instruments.'),
    backoff: z
      .strictObject({
        initialMs: ms(1, 600_000).default(500).describe('Delay before the first retry after a failed poll, ms.'),
        multiplier: z.number().min(1).max(10).default(2).describe('Growth per consecutive failure.'),
        maxMs: ms(1, 3_600_000).default(30_000).describe('Longest delay between retries, ms.'),
      })
      .prefault({})
      .describe('Failed polls back off and resume; the stream is never torn down.'),
  })
  .describe('Polled market data: cadence per stream and the stale-data guard.');

// ---------------------------------------------------------------- strategies

export const strategyEntrySchema = z
  .strictObject({
    id: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/)
      .describe('Unique id of this strategy instance (journal, limits, logs).')
      .meta({ expected: 'an id of 1..32 characters A-Z a-z 0-9 _ - (starting with a letter or digit)' }),
    name: z.string().min(1).describe('Registered strategy name (e.g. spot-market-maker, perp-trend).'),
    tag: z
      .string()
      .regex(/^[a-z0-9]{1,8}$/)
      .optional()
      .describe(
        'Client-order-id tag (1..8 of a-z 0-9) that attributes venue orders to this strategy after a restart. Default: derived from the id.',
      )
      .meta({ expected: '1..8 characters a-z 0-9' }),
    instruments: z.array(instrumentSymbolSchema).min(1).describe('Symbols this strategy trades; each must be listed under `instruments`.'),
    params: z
      .record(z.string(), z.unknown())
      .default({})
      .describe("Parameters, validated by the strategy's own schema at load time (see docs/writing-a-strategy.md)."),
  })
  .describe('One strategy instance.');

// ---------------------------------------------------------------- risk

export const strategyLimitsSchema = z
  .strictObject({
    maxPositionQty: decimal('positive')
      .optional()
      .describe(
        'Largest absolute position (base units or contracts) the strategy may reach on one symbol, counting its open orders as filled.',
      ),
    maxNotional: decimal('positive').optional().describe('The same, valued at the mark (quote / settle units).'),
  })
  .describe('Per-strategy limits.');

export const riskSchema = z
  .strictObject({
    spotOpenOrderCap: z.number().int().min(1).max(10_000).default(500).describe('Open spot orders per account (the venue allows 500).'),
    strategies: z.record(z.string(), strategyLimitsSchema).default({}).describe('Limits per strategy id.'),
    killSwitch: z
      .strictObject({
        maxDrawdown: decimal('fraction').optional().describe('Trip when equity falls this fraction below its peak (0.2 = 20 %).'),
        maxDailyLoss: decimal('positive')
          .optional()
          .describe('Trip when equity falls this much (valuation asset) below the start of the UTC day.'),
        maxRejects: z.number().int().min(1).optional().describe('Trip after this many venue rejections within rejectWindowMs.'),
        rejectWindowMs: ms(1000, 86_400_000).default(60_000).describe('Window of the reject counter, ms.'),
      })
      .prefault({})
      .describe('Kill switches: once tripped, every intent that is not risk-reducing is denied and resting quotes are pulled.'),
    valuationAsset: z
      .string()
      .regex(/^[A-Z0-9]{1,20}$/)
      .default('USDT')
      .describe('Asset equity, PnL and loss limits are counted in.'),
  })
  .describe('Risk limits (the venue rules are always checked; these are yours).');

// ---------------------------------------------------------------- execution

export const executionSchema = z
  .strictObject({
    reconcileIntervalMs: ms(500, 3_600_000)
      .default(5000)
      .describe('Open orders, fills, balances and positions are compared with the exchange this often, ms.'),
    cancelOnExit: z
      .boolean()
      .default(true)
      .describe("Cancel this run's own orders on Ctrl-C / SIGTERM / --duration (`--no-cancel-on-exit` overrides)."),
    spotAmendPolicy: z
      .enum(['cancel-then-place'])
      .default('cancel-then-place')
      .describe(
        'How a spot order is amended (the spot API has no amend): cancel first, then place the remainder at the new price. The cancel answer settles how much filled, so the replacement never over-fills.',
      ),
    chase: z
      .strictObject({
        maxReprices: z
          .number()
          .int()
          .min(1)
          .max(1000)
          .default(20)
          .describe('Upper bound on the reprices of one chase (a strategy asking for more gets this many).'),
        priceCapBps: decimal('positive')
          .optional()
          .describe("Default price cap of a chase that names none: this many basis points beyond the order's original price."),
      })
      .prefault({})
      .describe('Chase limits.'),
    unknownGraceMs: ms(1000, 600_000)
      .optional()
      .describe('How long an order missing at the exchange may still arrive there after sending, ms (default: recvWindowMs + 60 s).'),
  })
  .describe('Order handling.');

// ---------------------------------------------------------------- journal, logging

export const journalSchema = z
  .strictObject({
    path: z
      .string()
      .min(1)
      .default('var/journal.sqlite')
      .describe('SQLite journal (orders, fills, positions, runs). A restart resumes from it. Relative to the working directory.'),
  })
  .describe('The write-ahead journal.');

export const loggingSchema = z
  .strictObject({
    level: z.enum(['error', 'warn', 'info', 'debug']).default('info').describe('Log level.'),
    file: z.string().min(1).optional().describe('JSON-lines log file (everything at `level`).'),
    statusIntervalMs: ms(200, 600_000)
      .default(1000)
      .describe('Status line refresh on a terminal; off a terminal a status log line is written every 10 × this.'),
  })
  .describe('Logs and the status line.');

// ---------------------------------------------------------------- the document

export const runConfigSchema = z
  .strictObject({
    mode: z
      .enum(RUN_MODES)
      .describe(
        'live: the real exchange. paper: the emulator (embedded or running). backtest: recorded data (`perpetua backtest`, issue 5).',
      ),
    venue: venueSchema.prefault({}),
    paper: paperSchema.optional(),
    instruments: z
      .array(instrumentSymbolSchema)
      .min(1)
      .describe('Every symbol the run trades or watches (BTCUSDT spot, BTC_USDT perpetual).'),
    marketData: marketDataSchema.prefault({}),
    strategyModules: z
      .array(z.string().min(1))
      .default([])
      .describe(
        'Your own strategies: module files (.ts, .js) or folders of them, outside the framework source; their exported strategy classes are registered by name.',
      ),
    strategies: z.array(strategyEntrySchema).min(1).describe('Strategy instances, each chosen by its registered name.'),
    risk: riskSchema.prefault({}),
    execution: executionSchema.prefault({}),
    journal: journalSchema.prefault({}),
    logging: loggingSchema.prefault({}),
    console: consoleSchema.optional(),
  })
  .superRefine((c, ctx) => {
    const issue = (path: (string | number)[], message: string): void => {
      ctx.addIssue({ code: 'custom', path, message });
    };
    const listed = new Set<string>();
    c.instruments.forEach((s, i) => {
      if (listed.has(s)) issue(['instruments', i], `expected each symbol once; ${s} is listed twice`);
      listed.add(s);
    });
    const ids = new Set<string>();
    const tags = new Map<string, string>();
    c.strategies.forEach((s, i) => {
      if (ids.has(s.id)) issue(['strategies', i, 'id'], `expected a unique id; ${JSON.stringify(s.id)} is used twice`);
      ids.add(s.id);
      const tag =
        s.tag ??
        s.id
          .toLowerCase()
          .replace(/[^a-z0-9]/g, '')
          .slice(0, 8);
      const owner = tags.get(tag);
      if (owner !== undefined && owner !== s.id)
        issue(
          ['strategies', i, 'tag'],
          `expected a client-id tag not used by strategy ${owner}; both give ${JSON.stringify(tag)} (set \`tag\`)`,
        );
      tags.set(tag, s.id);
      s.instruments.forEach((sym, j) => {
        if (!listed.has(sym)) issue(['strategies', i, 'instruments', j], `expected a symbol listed under \`instruments\`; ${sym} is not`);
        if (isContractSymbol(sym) && !c.venue.contractTrading) {
          issue(
            ['strategies', i, 'instruments', j],
            `${sym} is a contract symbol but venue.contractTrading is false (the real venue refuses contract orders for most API keys; set it to true if this account may trade them)`,
          );
        }
      });
    });
    for (const id of Object.keys(c.risk.strategies))
      if (!ids.has(id)) issue(['risk', 'strategies', id], `expected the id of a strategy under \`strategies\` (${[...ids].join(', ')})`);
    const inline = c.venue.apiKey !== undefined || c.venue.apiSecret !== undefined;
    if (inline && c.mode !== 'paper') {
      issue(
        ['venue', c.venue.apiSecret !== undefined ? 'apiSecret' : 'apiKey'],
        `inline credentials are allowed only in paper mode (the emulator's demo key); in ${c.mode} mode use apiKeyEnv / apiSecretEnv`,
      );
    }
    if ((c.venue.apiKey === undefined) !== (c.venue.apiSecret === undefined))
      issue(['venue', c.venue.apiKey === undefined ? 'apiKey' : 'apiSecret'], 'expected apiKey and apiSecret together');
    if (c.mode === 'paper') {
      const p = c.paper;
      if (!p || (p.emulatorConfig === undefined) === (p.emulatorUrl === undefined))
        issue(
          ['paper'],
          'expected exactly one of paper.emulatorConfig (embedded emulator) or paper.emulatorUrl (a running one) in paper mode',
        );
      if (p?.account !== undefined && p.emulatorConfig === undefined)
        issue(['paper', 'account'], 'expected only with paper.emulatorConfig (a running emulator is reached with credentials)');
    } else if (c.paper !== undefined) {
      issue(['paper'], `expected no paper section in ${c.mode} mode`);
    }
  })
  .describe('A Perpetua run: `perpetua run <file>`.');

export type RunConfig = z.output<typeof runConfigSchema>;
export type RunConfigInput = z.input<typeof runConfigSchema>;
export type StrategyEntry = z.output<typeof strategyEntrySchema>;

export { spotSymbolSchema };
