/**
 * `perpetua docs`: regenerates the generated documents. Generated, so they cannot drift from the code.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { endpointRows, renderEndpointsMarkdown } from './endpoints-report.js';
import { servedEndpointIds } from '../emulator/served-endpoints.js';

export async function writeDocs(outDir: string): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const endpointsFile = join(outDir, 'endpoints.md');
  await writeFile(endpointsFile, renderEndpointsMarkdown(endpointRows(), servedEndpointIds()));
  return [endpointsFile];
}
