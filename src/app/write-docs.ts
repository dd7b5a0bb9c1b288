/**
 * `perpetua docs`: regenerates the generated documents. Generated, so they cannot drift from the code.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import { endpointRows, renderEndpointsMarkdown } from './endpoints-report.js';
import { emulatorConfigSchema } from '../emulator/emulator-config.js';
import { recordConfigSchema } from '../marketdata/recorder/record-config.js';
import { backtestSectionSchema, sweepSectionSchema } from '../backtest/backtest-config.js';
import { renderConsoleOpenApi } from '../console/openapi.js';
import { referenceRows, referenceTable, renderConfigReference } from './config/config-reference.js';

/** The other YAML files a user writes, each rendered from its own zod schema. */
const OTHER_CONFIGS: readonly { title: string; intro: string; schema: z.ZodType; prefix?: string }[] = [
  {
    title: 'Backtest section (`backtest:` in a run config)',
    intro: '`perpetua backtest <file>` reads a run config with this extra section: the data to replay, the range and the fill models.',
    schema: backtestSectionSchema,
    prefix: 'backtest',
  },
  {
    title: 'Sweep section (`sweep:` in a backtest config)',
    intro:
      '`perpetua sweep <file>` searches the strategy parameters given here (grid, random or TPE) in worker threads, ranks the runs by the objective with the constraints applied, validates them walk-forward when asked, and reports the deflated Sharpe ratio and the probability of backtest overfitting.',
    schema: sweepSectionSchema,
    prefix: 'sweep',
  },
  {
    title: 'Emulator configuration (`perpetua emulator --config <file>`)',
    intro:
      'The local exchange: instruments, market model, accounts and their keys, fees, rate limits, persistence and fault injection. `config/emulator.yaml` is a commented example.',
    schema: emulatorConfigSchema,
  },
  {
    title: 'Recorder configuration (`perpetua record <file>`)',
    intro: 'What to poll and where to store it. `config/record-emulator.yaml` and `config/record-mexc.yaml` are examples.',
    schema: recordConfigSchema,
  },
];

export function renderAllConfigReference(): string {
  const parts = [renderConfigReference().trimEnd()];
  for (const c of OTHER_CONFIGS) parts.push('', `## ${c.title}`, '', c.intro, '', referenceTable(referenceRows(c.schema, c.prefix ?? '')));
  return `${parts.join('\n')}\n`;
}

export async function writeDocs(outDir: string): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const endpointsFile = join(outDir, 'endpoints.md');
  await writeFile(endpointsFile, renderEndpointsMarkdown(endpointRows()));
  const configFile = join(outDir, 'config-reference.md');
  await writeFile(configFile, renderAllConfigReference());
  const openapiFile = join(outDir, 'console-openapi.json');
  await writeFile(openapiFile, renderConsoleOpenApi());
  return [endpointsFile, configFile, openapiFile];
}
