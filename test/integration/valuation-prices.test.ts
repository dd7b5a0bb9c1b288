/**
 * Issue 15: equity values every held asset by itself. The account holds ETH, the run trades BTCUSDT
 * only and sets a drawdown limit (which needs equity): the runtime reads ETHUSDT's price for valuation
 * at each reconciliation, so equity is known and the strategy's order is not denied. Before, every
 * order was denied "equity unknown (no price for ETH (ETHUSDT) …)" unless the user added ETHUSDT to
 * the run's instruments.
 *
 * Expected equity is summed here from the venue's own balances (read by a separate client) and the
 * marks the runtime valued them at; the ETH mark is checked against the venue's ticker price.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { SpotClient } from '../../src/client/spot-client.js';
import { D, ZERO } from '../../src/core/decimal.js';
import { spotSymbol, strategyId } from '../../src/core/ids.js';
import type { ExecutionEvent } from '../../src/domain/execution-event.js';
import type { RunningEmulator } from '../../src/emulator/start-emulator.js';
import { REFERENCE_STRATEGIES } from '../../strategies/index.js';
import {
  clock,
  emulatorConfig,
  IT_ACCOUNT,
  type PaperRun,
  runDoc,
  startRun,
  startTestEmulator,
  tempDir,
  waitFor,
} from './support/paper-harness.js';
import { SCRIPTS, ScriptedStrategy } from './support/scripted-strategy.js';

const BTCUSDT = spotSymbol('BTCUSDT');
const ETHUSDT = spotSymbol('ETHUSDT');

SCRIPTS.set('rest-a-bid', (ctx) => [ctx.intents.limit(BTCUSDT, 'buy', '80000', '0.001')]);

describe('integration: valuation prices of held assets no strategy trades', function () {
  this.timeout(60_000);
  let emu: RunningEmulator;
  let run: PaperRun | undefined;
  let tmp: ReturnType<typeof tempDir>;
  let reader: SpotClient;

  beforeEach(async () => {
    tmp = tempDir('valuation');
    const base = emulatorConfig();
    const account = { ...base.accounts![0]!, spot: { balances: { USDT: '50000', BTC: '0.5', ETH: '3' } } };
    emu = await startTestEmulator({ instruments: { spot: ['BTCUSDT', 'ETHUSDT'], contract: ['BTC_USDT'] }, accounts: [account] });
    reader = new SpotClient({
      baseUrl: emu.url,
      clock,
      rateLimits: false,
      timeSync: false,
      credentials: { apiKey: IT_ACCOUNT.apiKey, secretKey: IT_ACCOUNT.secretKey },
    });
  });
  afterEach(async () => {
    await run?.stop('test over').catch(() => undefined);
    run?.dispose();
    run = undefined;
    await reader.close();
    await emu.stop();
    tmp.remove();
  });

  it('values_eth_held_in_the_account_and_lets_a_btcusdt_order_through_a_drawdown_limit', async () => {
    run = await startRun(
      runDoc(emu.url, join(tmp.dir, 'bot.sqlite'), {
        instruments: ['BTCUSDT'],
        risk: { killSwitch: { maxDrawdown: '0.2' } },
        strategies: [{ id: 's1', name: 'scripted', instruments: ['BTCUSDT'], params: { script: 'rest-a-bid' } }],
      }),
      [...REFERENCE_STRATEGIES, ScriptedStrategy],
    );
    const r = run;
    const events = () => r.journal.events().filter((e: ExecutionEvent) => e.strategyId === strategyId('s1'));
    await waitFor(
      () => events().some((e) => e.type === 'OrderAccepted' || e.type === 'IntentDenied'),
      20_000,
      'the bid accepted or denied',
    );
    expect(
      events().filter((e) => e.type === 'IntentDenied'),
      'denials',
    ).to.deep.equal([]);

    // The ETH mark is the venue's ETHUSDT last price (the market moves: within 1 %).
    const ethMark = r.runtime.state.mark(ETHUSDT);
    expect(ethMark, 'ETHUSDT priced without being traded').to.not.equal(undefined);
    const [ticker] = await reader.tickerPrice({ symbol: 'ETHUSDT' });
    expect(ethMark!.minus(ticker!.price).abs().div(ticker!.price).toNumber()).to.be.lessThan(0.01);

    // Equity = Σ balance · mark over the venue's balances (free + locked), at the runtime's marks: read
    // together with no await in between, so a new snapshot cannot move a mark between them.
    const info = await reader.account();
    const total = (asset: string) => {
      const b = info.balances.find((x) => x.asset === asset);
      return b ? b.free.plus(b.locked) : ZERO;
    };
    expect(total('ETH').toFixed(), 'the account still holds its ETH').to.equal('3');
    await waitFor(() => r.runtime.state.updateEquity(clock.now()), 10_000, 'equity known');
    const equity = r.runtime.state.updateEquity(clock.now())!;
    const expected = total('USDT')
      .plus(total('BTC').mul(r.runtime.state.mark(BTCUSDT)!))
      .plus(total('ETH').mul(r.runtime.state.mark(ETHUSDT)!));
    expect(equity.toFixed()).to.equal(expected.toFixed());
    expect(expected.gt(D('50000'))).to.equal(true);
  });
});
