/**
 * Headless Chromium for the report tests: opens a page from a file:// URL, as a user would offline,
 * and records console errors, page errors and every request. Needs /usr/bin/chromium (Debian package
 * `chromium`) and the npm package playwright-core; `requireChromiumOrSkip()` skips with the reason
 * which is absent, or fails where the browser is required (CI).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

// The slice of playwright-core the tests use (the package is optional, so no compile-time import).
interface PwConsoleMessage {
  type(): string;
  text(): string;
}
interface PwRequest {
  url(): string;
}
export interface PwPage {
  goto(url: string, options?: { waitUntil?: 'load' }): Promise<unknown>;
  on(event: 'console', fn: (m: PwConsoleMessage) => void): void;
  on(event: 'pageerror', fn: (e: Error) => void): void;
  evaluate<T>(expression: string): Promise<T>;
  mouse: { move(x: number, y: number): Promise<void> };
  setViewportSize(size: { width: number; height: number }): Promise<void>;
}
interface PwContext {
  newPage(): Promise<PwPage>;
  on(event: 'request', fn: (r: PwRequest) => void): void;
  close(): Promise<void>;
}
interface PwChromium {
  launchPersistentContext(
    userDataDir: string,
    options: { executablePath: string; headless: boolean; args: string[]; viewport: { width: number; height: number } },
  ): Promise<PwContext>;
}

function loadPlaywright(): PwChromium | undefined {
  try {
    // createRequire: resolves from node_modules (devDependency) and honours NODE_PATH for local runs.
    const req = createRequire(import.meta.url);
    return (req('playwright-core') as { chromium: PwChromium }).chromium;
  } catch {
    return undefined;
  }
}

/** Why the browser tests cannot run here, or undefined when they can. */
export function chromiumMissing(): string | undefined {
  if (!existsSync(CHROMIUM)) return `${CHROMIUM} not found (apt-get install -y chromium)`;
  if (!loadPlaywright()) return 'playwright-core is not installed (add it as a devDependency)';
  return undefined;
}

/**
 * Skips the suite when the browser is missing, with the reason; fails it instead where the browser is
 * required (.ci/run sets PERPETUA_REQUIRE_BROWSER): CI must never pass with the browser tests skipped.
 */
export function requireChromiumOrSkip(ctx: Mocha.Context): void {
  const missing = chromiumMissing();
  if (!missing) return;
  if (process.env['PERPETUA_REQUIRE_BROWSER'])
    throw new Error(`the browser tests must run here (PERPETUA_REQUIRE_BROWSER is set): ${missing}`);
  console.log(`      skipped: ${missing}`);
  ctx.skip();
}

export interface OpenedPage {
  readonly page: PwPage;
  readonly consoleErrors: string[];
  readonly pageErrors: string[];
  readonly requests: string[];
  close(): Promise<void>;
}

/** Opens `file` in a fresh profile under `dir` (1360 × 900). */
export async function openPage(file: string, dir: string): Promise<OpenedPage> {
  const chromium = loadPlaywright()!;
  const context = await chromium.launchPersistentContext(join(dir, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1360, height: 900 },
  });
  const opened: OpenedPage = {
    page: await context.newPage(),
    consoleErrors: [],
    pageErrors: [],
    requests: [],
    close: () => context.close(),
  };
  context.on('request', (r) => opened.requests.push(r.url()));
  opened.page.on('console', (m) => {
    if (m.type() === 'error') opened.consoleErrors.push(m.text());
  });
  opened.page.on('pageerror', (e) => opened.pageErrors.push(e.message));
  await opened.page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  return opened;
}
