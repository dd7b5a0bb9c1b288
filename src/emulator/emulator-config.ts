/**
 * The emulator's configuration: one zod schema, unknown keys rejected at every level, loaded from YAML.
 * A failing file is a ConfigInvalid listing every bad value with its path and what was expected
 * (`accounts[0].spot.permissions[1]: expected one of SPOT_ACCOUNT_READ, …, received "SPOT_TRADE"`).
 */
import { z } from 'zod';
import { loadYamlConfig, parseWithSchema } from '../core/config/yaml-config.js';
import { isCrowdAccount } from '../venue/market/crowd-accounts.js';
import { SPOT_PERMISSIONS, SPOT_PERMISSION_ALIASES, type SpotPermission } from '../domain/spot-enums.js';
import { CONTRACT_PERMISSIONS } from '../domain/contract-enums.js';
import {
  contractInstrumentSchema,
  nonNegativeDecimalText,
  positiveDecimalText,
  spotInstrumentSchema,
  type ContractInstrumentConfig,
  type SpotInstrumentConfig,
} from './config/instrument-schemas.js';
import { CONTRACT_PRESETS, SPOT_PRESETS } from './config/instrument-presets.js';
import { feeExtensionsShape } from './config/account-ext-config.js';

const spotPermission = z.string().transform((s, ctx): SpotPermission => {
  const p = (SPOT_PERMISSION_ALIASES[s] ?? s) as SpotPermission;
  if (!(SPOT_PERMISSIONS as readonly string[]).includes(p)) {
    ctx.addIssue({ code: 'custom', message: `one of ${SPOT_PERMISSIONS.join(', ')}` });
    return z.NEVER;
  }
  return p;
});
const contractPermission = z.enum(CONTRACT_PERMISSIONS, { error: `one of ${CONTRACT_PERMISSIONS.join(', ')}` });

const balances = z.record(z.string().regex(/^[A-Z0-9]{1,20}$/, 'an asset name like USDT'), nonNegativeDecimalText());

/** API keys of the real venue are short alphanumerics (`mx0vgl…`); anything else is 700001 on the wire. */
export const API_KEY_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

const accountSchema = z.strictObject({
  name: z.string().min(1, 'a non-empty name'),
  /** Account UID as the venue reports it (GET /api/v3/uid); derived from the name when omitted. */
  uid: z
    .string()
    .regex(/^\d{1,20}$/, 'a numeric string')
    .optional(),
  apiKey: z.string().regex(API_KEY_PATTERN, '8..64 characters of A-Z a-z 0-9 _ -'),
  secretKey: z.string().min(16, 'at least 16 characters').max(128, 'at most 128 characters'),
  kycStatus: z.enum(['1', '2', '3', '4'], { error: 'one of "1".."4"' }).default('2'),
  /** Market-maker accounts may call submit_batch and the contract STP-group endpoints. */
  marketMaker: z.boolean().default(false),
  /** Name of the master account this one is a sub-account of (STP groups, blacklists); absent for a master. */
  master: z.string().min(1).optional(),
  spot: z
    .strictObject({
      permissions: z.array(spotPermission).default([...SPOT_PERMISSIONS]),
      balances: balances.default({}),
      /** Fee deduction with the platform token (GET/POST /api/v3/platformDeduct/enable). */
      platformDeduct: z.boolean().default(false),
    })
    .default({ permissions: [...SPOT_PERMISSIONS], balances: {}, platformDeduct: false }),
  contract: z
    .strictObject({
      permissions: z.array(contractPermission).default([...CONTRACT_PERMISSIONS]),
      balances: balances.default({}),
      /** false → every order placement answers 1002 "contract not allowed to place orders", as the real venue does for most keys. */
      tradingAllowed: z.boolean().default(true),
      /** Contract fee deduction switched on (discountType.useFeeDeduct; fees.contractDeduct gives the ratio). */
      feeDeduct: z.boolean().default(false),
    })
    .default({ permissions: [...CONTRACT_PERMISSIONS], balances: {}, tradingAllowed: true, feeDeduct: false }),
});
export type AccountConfig = z.output<typeof accountSchema>;

const timestamp = z
  .union([z.number().int().min(0), z.string()], { error: 'a millisecond timestamp or an ISO date' })
  .transform((v, ctx) => {
    if (typeof v === 'number') return v;
    const ms = /^\d+$/.test(v) ? Number(v) : Date.parse(v);
    if (!Number.isFinite(ms)) {
      ctx.addIssue({ code: 'custom', message: 'a millisecond timestamp or an ISO date' });
      return z.NEVER;
    }
    return ms;
  });

const clockSchema = z.discriminatedUnion(
  'mode',
  [
    z.strictObject({ mode: z.literal('system') }),
    z.strictObject({
      mode: z.literal('virtual'),
      /** Where virtual time starts (ms or ISO). */
      start: timestamp.default(1_767_225_600_000),
      /** Virtual ms added before each HTTP request is handled; 0 = time moves only through the test hook. */
      stepMs: z.number().int().min(0).default(0),
    }),
  ],
  { error: 'mode: one of system, virtual' },
);

const underlyingSchema = z.strictObject({
  /** Starting reference price (defaults per asset in instrument-presets). */
  price: positiveDecimalText().optional(),
  /** Annualised volatility σ of the reference price. */
  volatilityPerYear: z.number().min(0).max(20).optional(),
  driftPerYear: z.number().min(-10).max(10).optional(),
  /** Expected price jumps per day (jump size N(0, jumpStd) in log terms). */
  jumpsPerDay: z.number().min(0).max(1000).optional(),
  jumpStd: z.number().min(0).max(1).optional(),
});
export type UnderlyingConfig = z.output<typeof underlyingSchema>;

const bookSchema = z.strictObject({
  /** Ask touch − bid touch, in ticks. Default ≈ 0.1 bp of the price. */
  spreadTicks: z.number().int().min(1).optional(),
  /** Crowd price levels per side. Default 10. */
  levels: z.number().int().min(1).max(200).optional(),
  /** Ticks between crowd levels. Default ≈ 0.05 bp of the price. */
  levelGapTicks: z.number().int().min(1).optional(),
  /** Quote value resting at the touch (the deeper levels thin out). Default 50000. */
  touchNotional: z.number().positive().optional(),
  /** Crowd taker orders per second. Default 1. */
  takerArrivalPerSec: z.number().min(0).max(1000).optional(),
  /** Mean quote value of a crowd taker order. Default 2000. */
  takerMeanNotional: z.number().positive().optional(),
});
export type SyntheticBookSettings = z.output<typeof bookSchema>;

const marketSchema = z.discriminatedUnion(
  'source',
  [
    z.strictObject({
      source: z.literal('synthetic'),
      /** Period of the market model's steps in (virtual or system) ms. */
      stepMs: z.number().int().min(10).max(3_600_000).default(1000),
      /** Default σ of every underlying. */
      volatilityPerYear: z.number().min(0).max(20).default(0.5),
      /**
       * ε: relative noise of each index sample around the underlying (default 0.0001). With σ 0, this 0
       * and `premium.std` 0 the fair price stands still: nothing a trigger watches moves (a settled audit).
       */
      indexNoise: z.number().min(0).max(0.01).optional(),
      /** The perpetual's premium over the index: a mean-reverting process (defaults: mean 0, std 0.0002, half-life 10 min). */
      premium: z
        .strictObject({
          mean: z.number().min(-0.05).max(0.05).optional(),
          std: z.number().min(0).max(0.05).optional(),
          halfLifeMs: z.number().int().min(1).optional(),
        })
        .optional(),
      /** Per base asset (BTC drives BTCUSDT and BTC_USDT alike). */
      underlyings: z.record(z.string().regex(/^[A-Z0-9]{1,20}$/, 'an asset name like BTC'), underlyingSchema).default({}),
      /** Per symbol: the crowd book. */
      books: z.record(z.string(), bookSchema).default({}),
    }),
    z.strictObject({
      source: z.literal('replay'),
      /** A recorded file (the record format of src/marketdata/record). */
      file: z.string().min(1),
      /** Replay speed: 1 = recorded pace. */
      speed: z.number().positive().default(1),
      loop: z.boolean().default(false),
    }),
    z.strictObject({
      source: z.literal('mirror'),
      /** Base URL of a real venue whose public market data the emulator copies, e.g. https://api.mexc.com. */
      url: z.url({ error: 'an http(s) URL' }),
      pollMs: z.number().int().min(200).default(1000),
    }),
  ],
  { error: 'source: one of synthetic, replay, mirror' },
);

const feePair = z.strictObject({ maker: nonNegativeDecimalText().optional(), taker: nonNegativeDecimalText().optional() });

const windowLimit = z.strictObject({
  limit: z.number().int().min(1, 'an integer >= 1'),
  windowMs: z.number().int().min(1, 'an integer >= 1 (ms)'),
});
export type WindowLimit = z.output<typeof windowLimit>;

export const DEFAULT_RATE_LIMITS = {
  enabled: true,
  // The venue documents weights per IP but not the budget; 500 weight per 10 s is its published
  // per-endpoint figure, and it is well above the ~20 requests/s the client paces itself to.
  ipWeight: { limit: 500, windowMs: 10_000 },
  spotOrders: { limit: 12, windowMs: 1000 },
  spotAccount: { limit: 2, windowMs: 1000 },
  spotBatch: { limit: 2, windowMs: 1000 },
  contractEndpoint: { limit: 20, windowMs: 2000 },
} as const;

const rateLimitsSchema = z.strictObject({
  enabled: z.boolean().default(true),
  ipWeight: windowLimit.default(DEFAULT_RATE_LIMITS.ipWeight),
  spotOrders: windowLimit.default(DEFAULT_RATE_LIMITS.spotOrders),
  spotAccount: windowLimit.default(DEFAULT_RATE_LIMITS.spotAccount),
  spotBatch: windowLimit.default(DEFAULT_RATE_LIMITS.spotBatch),
  contractEndpoint: windowLimit.default(DEFAULT_RATE_LIMITS.contractEndpoint),
});
export type RateLimitsConfig = z.output<typeof rateLimitsSchema>;

/**
 * Transport limits: a client that sends its request slowly, or not at all, is cut off instead of holding
 * a socket for ever, and one client address cannot pile up connections (issue 10, defect 5).
 */
export const DEFAULT_TRANSPORT_LIMITS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  bodyTimeoutMs: 10_000,
  maxConnectionsPerClient: 128,
} as const;

const transportLimitsShape = {
  /** All request headers must arrive within this many ms of the connection's first byte (else 408 and close). */
  headersTimeoutMs: z.number().int().min(100).max(600_000).default(DEFAULT_TRANSPORT_LIMITS.headersTimeoutMs),
  /** The whole request (headers and body) must arrive within this many ms (else 408 and close). */
  requestTimeoutMs: z.number().int().min(100).max(600_000).default(DEFAULT_TRANSPORT_LIMITS.requestTimeoutMs),
  /** Longest pause between two pieces of a request body, ms (else 408 and close). */
  bodyTimeoutMs: z.number().int().min(100).max(600_000).default(DEFAULT_TRANSPORT_LIMITS.bodyTimeoutMs),
  /** Open connections one client address may hold; more are closed at once. */
  maxConnectionsPerClient: z.number().int().min(1).max(100_000).default(DEFAULT_TRANSPORT_LIMITS.maxConnectionsPerClient),
};
export type TransportLimits = typeof DEFAULT_TRANSPORT_LIMITS extends infer T ? { readonly [K in keyof T]: number } : never;

export const FAULT_KINDS = ['delay', 'drop', 'reset', 'error5xx', 'rateLimit'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export const faultRuleSchema = z.strictObject({
  /** Endpoint id (`spot.newOrder`), a path (`/api/v3/order`) or `*`. */
  match: z.string().min(1).default('*'),
  /** HTTP method to match; any when omitted. */
  method: z.enum(['GET', 'POST', 'DELETE']).optional(),
  /**
   * delay: answer after delayMs; drop: handle the request, then never answer (the client times out);
   * reset: handle it, then close the connection; error5xx: answer `status` (before or after handling);
   * rateLimit: answer 429 with Retry-After without handling.
   */
  kind: z.enum(FAULT_KINDS, { error: `one of ${FAULT_KINDS.join(', ')}` }),
  delayMs: z.number().int().min(0).max(600_000).default(0),
  status: z.number().int().min(500).max(599).default(503),
  /** error5xx only: 'after' runs the request first, so the effect happened but the client sees 5xx. */
  phase: z.enum(['before', 'after']).default('before'),
  retryAfterSec: z.number().int().min(1).max(3600).default(1),
  /** Chance that a matching request is hit (seeded, deterministic). */
  probability: z.number().min(0).max(1).default(1),
  /** Matching requests to let through before the rule starts firing. */
  skip: z.number().int().min(0).default(0),
  /** How many times the rule fires; unlimited when omitted. */
  times: z.number().int().min(1).optional(),
});
export type FaultRule = z.output<typeof faultRuleSchema>;
export type FaultRuleInput = z.input<typeof faultRuleSchema>;

const instrumentEntry = <T extends z.ZodType>(schema: T, presets: Readonly<Record<string, unknown>>) =>
  z
    .union([z.string(), z.record(z.string(), z.unknown())], {
      error: `a preset name (${Object.keys(presets).join(', ')}) or a full instrument object`,
    })
    .transform((v, ctx): z.output<T> => {
      const raw = typeof v === 'string' ? presets[v] : v;
      if (raw === undefined) {
        ctx.addIssue({ code: 'custom', message: `a preset name (${Object.keys(presets).join(', ')}) or a full instrument object` });
        return z.NEVER;
      }
      const r = schema.safeParse(raw);
      if (r.success) return r.data as z.output<T>;
      for (const iss of r.error.issues) ctx.addIssue({ code: 'custom', path: [...iss.path], message: iss.message });
      return z.NEVER;
    });

export const emulatorConfigSchema = z
  .strictObject({
    /** Interface to bind; the emulator is a local tool, so loopback by default. */
    host: z.string().default('127.0.0.1'),
    /** 0 = any free port. */
    port: z.number().int().min(0).max(65535).default(0),
    /** Seeds the market model, fault probabilities and ids: same seed + config + requests → same tape. */
    seed: z.union([z.number().int(), z.string()]).default(1),
    clock: clockSchema.default({ mode: 'system' }),
    instruments: z
      .strictObject({
        spot: z.array(instrumentEntry(spotInstrumentSchema, SPOT_PRESETS)).prefault(['BTCUSDT', 'ETHUSDT']),
        contract: z.array(instrumentEntry(contractInstrumentSchema, CONTRACT_PRESETS)).prefault(['BTC_USDT', 'ETH_USDT']),
      })
      .prefault({}),
    market: marketSchema.prefault({ source: 'synthetic' }),
    /** Fee overrides for every instrument (otherwise each instrument's own rates). */
    fees: z.strictObject({ spot: feePair.optional(), contract: feePair.optional(), ...feeExtensionsShape }).prefault({}),
    funding: z
      .strictObject({
        /** Funding interval in hours (contract collectCycle). */
        cycleHours: z.number().int().min(1).max(24).default(8),
        /** A fixed funding rate instead of the model's (e.g. 0.0001 per cycle). */
        rate: z.number().min(-0.1).max(0.1).optional(),
      })
      .default({ cycleHours: 8 }),
    rateLimits: rateLimitsSchema.default({ ...DEFAULT_RATE_LIMITS }),
    limits: z
      .strictObject({
        /** Larger request bodies are answered 413. */
        maxBodyBytes: z
          .number()
          .int()
          .min(1024)
          .max(64 * 1024 * 1024)
          .default(256 * 1024),
        /** Open spot orders per account (the venue's 500). */
        maxOpenOrders: z.number().int().min(1).default(500),
        ...transportLimitsShape,
      })
      .superRefine((l, ctx) => {
        // node:http refuses a header deadline beyond the whole-request one.
        if (l.headersTimeoutMs > l.requestTimeoutMs)
          ctx.addIssue({ code: 'custom', path: ['headersTimeoutMs'], message: `at most requestTimeoutMs (${l.requestTimeoutMs})` });
      })
      .default({ maxBodyBytes: 256 * 1024, maxOpenOrders: 500, ...DEFAULT_TRANSPORT_LIMITS }),
    accounts: z.array(accountSchema).default([]),
    persistence: z
      .strictObject({
        /** SQLite command journal with engine snapshots (engine/command-journal.ts); created when missing, restored when present. */
        path: z.string().min(1),
      })
      .optional(),
    faults: z
      .strictObject({
        rules: z.array(faultRuleSchema).default([]),
        /** Write one line per injected fault to stderr (`emulator fault <kind> <endpoint>`): what a soak run did. */
        log: z.boolean().default(false),
      })
      .default({ rules: [], log: false }),
  })
  .superRefine((c, ctx) => {
    const keys = new Set<string>();
    c.accounts.forEach((a, i) => {
      if (keys.has(a.apiKey))
        ctx.addIssue({ code: 'custom', path: ['accounts', i, 'apiKey'], message: 'an API key not used by another account' });
      keys.add(a.apiKey);
    });
    const spot = new Set<string>();
    c.instruments.spot.forEach((s: SpotInstrumentConfig, i) => {
      if (spot.has(s.symbol)) ctx.addIssue({ code: 'custom', path: ['instruments', 'spot', i, 'symbol'], message: 'a symbol listed once' });
      spot.add(s.symbol);
    });
    const contract = new Set<string>();
    c.instruments.contract.forEach((s: ContractInstrumentConfig, i) => {
      if (contract.has(s.symbol))
        ctx.addIssue({ code: 'custom', path: ['instruments', 'contract', i, 'symbol'], message: 'a symbol listed once' });
      contract.add(s.symbol);
    });
    if (c.market.source === 'synthetic') {
      for (const sym of Object.keys(c.market.books)) {
        if (!spot.has(sym) && !contract.has(sym))
          ctx.addIssue({ code: 'custom', path: ['market', 'books', sym], message: 'a symbol listed under instruments' });
      }
    }
    c.accounts.forEach((a, i) => {
      if (isCrowdAccount(a.name))
        ctx.addIssue({
          code: 'custom',
          path: ['accounts', i, 'name'],
          message: 'a name not starting with "crowd-" (reserved for the market model)',
        });
    });
  });

export type EmulatorConfig = z.output<typeof emulatorConfigSchema>;
export type EmulatorConfigInput = z.input<typeof emulatorConfigSchema>;

/** Checks a config object; throws ConfigInvalid listing every bad path and the expected value. */
export function parseEmulatorConfig(input: unknown, source = 'emulator config'): EmulatorConfig {
  return parseWithSchema(emulatorConfigSchema, input, ['emulator'], source);
}

/** Reads and checks a YAML config file (core/config/yaml-config.ts: the loader every config kind shares). */
export async function loadEmulatorConfig(file: string): Promise<EmulatorConfig> {
  return loadYamlConfig(file, parseEmulatorConfig);
}

export type { SpotInstrumentConfig, ContractInstrumentConfig };
export { positiveDecimalText };
