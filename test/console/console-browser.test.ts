/**
 * The web console in headless Chromium against a paper run: it loads with no console or page error
 * and fetches nothing outside its own origin, shows the run's open orders and positions (as the API
 * and the venue have them), updates by itself when a fill happens, and its Pause button (with its
 * confirmation) pauses the strategy in the runtime.
 *
 * Needs /usr/bin/chromium (Debian package `chromium`) and the npm package playwright-core; skips with
 * a message when either is missing. PERPETUA_SCREENSHOT=<file.png> also saves a screenshot.
 */
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionEvent } from '../../src/domain/execution-event.js';
import { waitFor } from '../integration/support/paper-harness.js';
import { call, PERP, startConsoleRun, TOKEN, until, type ConsoleRunKit } from './support/console-run.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

// The slice of playwright-core this test uses (an optional package: no compile-time import).
interface PwPage {
  goto(url: string, options?: { waitUntil?: 'load' }): Promise<unknown>;
  on(event: 'console', fn: (m: { type(): string; text(): string }) => void): void;
  on(event: 'pageerror', fn: (e: Error) => void): void;
  evaluate<T>(expression: string): Promise<T>;
  click(selector: string): Promise<void>;
  screenshot(options: { path: string; fullPage?: boolean }): Promise<unknown>;
}
interface PwContext {
  newPage(): Promise<PwPage>;
  on(event: 'request', fn: (r: { url(): string }) => void): void;
  close(): Promise<void>;
}
interface PwChromium {
  launchPersistentContext(dir: string, o: PwLaunch): Promise<PwContext>;
}
interface PwLaunch {
  executablePath: string;
  headless: boolean;
  args: string[];
  viewport: { width: number; height: number };
}

function loadPlaywright(): PwChromium | undefined {
  try {
    return (createRequire(import.meta.url)('playwright-core') as { chromium: PwChromium }).chromium;
  } catch {
    return undefined;
  }
}

describe('console page in headless Chromium', function () {
  this.timeout(120_000);
  let kit: ConsoleRunKit;
  let hook: Server;
  let dir: string;
  let context: PwContext;
  let page: PwPage;
  const consoleErrors: string[] = [];
  const pageErrors: string[] = [];
  const requests: string[] = [];

  const rows = (table: string): Promise<string[][]> =>
    page.evaluate<string[][]>(`[...document.querySelectorAll('#${table} tbody tr')].map(tr => [...tr.children].map(td => td.textContent))`);
  const isFill = (e: ExecutionEvent): boolean => e.type === 'OrderFilled' || e.type === 'OrderPartiallyFilled';
  const fills = (): number => kit.run.journal.events().filter(isFill).length;

  before(async function () {
    const chromium = loadPlaywright();
    if (!existsSync(CHROMIUM) || !chromium) {
      console.log(`      skipped: needs ${CHROMIUM} (apt-get install -y chromium) and playwright-core`);
      this.skip();
    }
    // A webhook receiver that refuses the start notice (404) and takes every fill: the page's webhook
    // section must show the target, the failure and the deliveries.
    hook = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += String(c)));
      req.on('end', () => {
        res.statusCode = (JSON.parse(body) as { kind: string }).kind === 'start' ? 404 : 200;
        res.end();
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    const hookPort = (hook.address() as AddressInfo).port;
    kit = await startConsoleRun('console-browser', `http://127.0.0.1:${hookPort}/hook?token=in-the-webhook-url`);
    dir = await mkdtemp(join(tmpdir(), 'perpetua-console-browser-'));
    const viewport = { width: 1440, height: 1000 };
    const launch = { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, viewport };
    context = await chromium!.launchPersistentContext(join(dir, 'profile'), launch);
    context.on('request', (r) => requests.push(r.url()));
    page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => pageErrors.push(e.message));
    // The token travels in the fragment: the page keeps it in sessionStorage and removes it from the address.
    await page.goto(`${kit.web.url}#token=${TOKEN}`, { waitUntil: 'load' });
  });

  after(async () => {
    hook?.close();
    if (context) await context.close();
    if (dir) await rm(dir, { recursive: true, force: true });
    if (kit) await kit.dispose();
  });

  it('shows_the_runs_open_orders_and_positions', async () => {
    // pos1's two resting contract orders, as the API (checked against the venue in console-api) lists them.
    await until(async () => (await rows('orders')).filter((r) => r[0] === 'pos1').length === 2, 20_000, 'pos1 orders on the page');
    const api = (await call<Record<string, string>[]>(kit.web.url, '/api/orders')).json().filter((o) => o.strategyId === 'pos1');
    const shown = (await rows('orders'))
      .filter((r) => r[0] === 'pos1')
      .map((r) => `${r[1]} ${r[2]} ${r[3]} ${r[4]}`)
      .sort();
    expect(shown).to.deep.equal(api.map((o) => `${o.symbol} ${o.side} ${o.price} ${o.quantity}`).sort());
    const accountLong = async (): Promise<boolean> =>
      (await rows('positions')).some((r) => r[0] === PERP && r[1] === 'long' && r[2] === '10' && r[4] === 'account');
    await until(accountLong, 20_000, 'the 10-contract long on the page');
    expect((await rows('positions')).some((r) => r[0] === PERP && r[2] === '10' && r[4] === 'pos1')).to.equal(true);
    const cards = await page.evaluate<string[]>(
      `[...document.querySelectorAll('.card')].map(c => c.dataset.strategy + ' ' + c.querySelector('.state').textContent)`,
    );
    expect(cards).to.deep.equal(['mm1 running', 'pos1 running']);
  });

  it('updates_live_when_a_fill_happens', async () => {
    // The page polls nothing: a new fill can only appear through the event stream's refresh.
    const shownBefore = (await rows('fills')).length;
    const before = fills();
    await waitFor(() => fills() > before, 60_000, 'a new fill of the market maker');
    await until(async () => (await rows('fills')).length > shownBefore, 10_000, 'the new fill on the page');
    expect(await page.evaluate<string>(`document.getElementById('live').className`)).to.equal('live on');
    const equity = await page.evaluate<number>(`document.querySelectorAll('#chart-equity canvas').length`);
    expect(equity).to.be.greaterThan(0);
  });

  it('shows_the_webhook_target_its_failures_and_its_deliveries', async () => {
    const webhookRows = async (): Promise<string[][]> => (await rows('webhook')).map((r) => [r[1]!, r[2]!, r[3]!]);
    await until(async () => (await webhookRows()).some((r) => r[0] === 'fill' && r[1] === 'delivered'), 60_000, 'a delivered fill notice');
    const shown = await webhookRows();
    expect(shown).to.deep.include(['start', 'failed: HTTP 404', '1']);
    const target = await page.evaluate<string>(`document.getElementById('webhook-target').textContent`);
    expect(target).to.match(/^POST to 127\.0\.0\.1:\d+ on fill, start — \d+ delivered, 1 failed/);
    // The target is named by host only: the URL's token never reaches the page.
    expect(await page.evaluate<string>(`document.body.innerHTML`)).to.not.include('in-the-webhook-url');
  });

  it('pauses_the_strategy_from_its_card_after_a_confirmation', async () => {
    await page.click('.card[data-strategy="mm1"] button[data-action="pause"]');
    // Nothing happens before the confirmation.
    expect(await page.evaluate<boolean>(`document.getElementById('confirm').hidden`)).to.equal(false);
    expect(kit.run.runtime.isPaused('mm1')).to.equal(false);
    await page.click('#confirm-yes');
    await waitFor(() => kit.run.runtime.isPaused('mm1'), 10_000, 'mm1 paused');
    const cardState = (): Promise<string> =>
      page.evaluate<string>(`document.querySelector('.card[data-strategy="mm1"] .state').textContent`);
    await until(async () => (await cardState()) === 'paused', 10_000, 'the card to say paused');
    expect(kit.run.runtime.isPaused('pos1')).to.equal(false);
    if (process.env.PERPETUA_SCREENSHOT) await page.screenshot({ path: process.env.PERPETUA_SCREENSHOT });
  });

  it('loaded_with_no_errors_and_no_request_outside_the_page', () => {
    expect(pageErrors).to.deep.equal([]);
    expect(consoleErrors).to.deep.equal([]);
    const origin = new URL(kit.web.url).origin;
    expect(requests.length).to.be.greaterThan(5);
    expect(requests.filter((u) => !u.startsWith(`${origin}/`))).to.deep.equal([]);
  });
});
