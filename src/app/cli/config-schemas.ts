/**
 * JSON Schemas of every config kind, generated from the zod schemas the loaders use (so they cannot
 * drift from what `validate` accepts, beyond cross-field rules JSON Schema cannot say). Editors with
 * a YAML language server complete and check keys from them: the shipped configs start with
 * `# yaml-language-server: $schema=../docs/schemas/<kind>.schema.json`. `perpetua schema <kind>`
 * prints one; docs/schemas/ holds them all (a test keeps them current).
 */
import { z } from 'zod';
import { CONFIG_KINDS, type ConfigKind } from '../../core/config-kind.js';
import { backtestSectionSchema, sweepSectionSchema } from '../../backtest/backtest-config.js';
import { emulatorConfigSchema } from '../../emulator/emulator-config.js';
import { recordConfigSchema } from '../../marketdata/recorder/record-config.js';
import { runConfigSchema } from '../../runtime/config/run-config-schema.js';

type JsonSchema = { properties?: Record<string, unknown>; required?: string[]; [k: string]: unknown };

/** The input side (what a user writes: defaults optional, durations as text); refinements are left out. */
const toJson = (schema: z.ZodType): JsonSchema => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

export function configJsonSchema(kind: ConfigKind): JsonSchema {
  let out: JsonSchema;
  if (kind === 'emulator') out = toJson(emulatorConfigSchema);
  else if (kind === 'record') out = toJson(recordConfigSchema);
  else {
    out = toJson(runConfigSchema);
    if (kind !== 'run') {
      // A backtest (or sweep) config is a run config without `mode` plus its own sections.
      out.properties = { ...out.properties, backtest: toJson(backtestSectionSchema), sweep: toJson(sweepSectionSchema) };
      out.required = [...(out.required ?? []).filter((k) => k !== 'mode'), 'backtest', ...(kind === 'sweep' ? ['sweep'] : [])];
    }
  }
  const { $schema, ...rest } = out;
  return {
    $schema,
    title: `Perpetua ${kind} config`,
    ...rest,
    properties: {
      kind: { const: kind, description: 'Optional: names the config kind (validate otherwise tells it from the keys).' },
      ...rest.properties,
    },
  };
}

export const SCHEMA_FILE = (kind: ConfigKind): string => `${kind}.schema.json`;

export const allConfigSchemas = (): { kind: ConfigKind; file: string; text: string }[] =>
  CONFIG_KINDS.map((kind) => ({ kind, file: SCHEMA_FILE(kind), text: `${JSON.stringify(configJsonSchema(kind), null, 2)}\n` }));
