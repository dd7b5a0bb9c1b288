/**
 * Every risk rule family denies through the real pipeline: a scripted strategy emits intents that are
 * each wrong in exactly one way; each must come back as an IntentDenied event naming its rule, and
 * none of them may reach the emulator.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { D, type Decimal, roundToTick } from '../../src/core/decimal.js';
import { contractSymbol, spotSymbol } from '../../src/core/ids.js';
import type { ExecutionEvent } from '../../src/domain/execution-event.js';
import type { Intent } from '../../src/domain/intent.js';
import { fairPrice, lastPrice, midPrice } from '../../src/domain/snapshot.js';
import { CONTRACT_PRESETS, SPOT_PRESETS } from '../../src/emulator/config/instrument-presets.js';
import type { RunningEmulator } from '../../src/emulator/start-emulator.js';
import type { StrategyContext } from '../../src/strategy/strategy-context.js';
import { REFERENCE_STRATEGIES } from '../../strategies/index.js';
import { emulatorConfig, IT_ACCOUNT, runDoc, startRun, startTestEmulator, tempDir, waitFor } from './support/paper-harness.js';
import { SCRIPTS, ScriptedStrategy } from './support/scripted-strategy.js';

const BTC = spotSymbol('BTCUSDT');
const ETH = spotSymbol('ETHUSDT');
const SOL = spotSymbol('SOLUSDT');
const XRP = spotSymbol('XRPUSDT');
const PERP = contractSymbol('BTC_USDT');

/** intentId → the rule that must deny it ('venue' = must reach the venue and be rejected there). */
const EXPECTED = new Map<string, string>();
const expectRule = (rule: string, intent: Intent): Intent => {
  EXPECTED.set(intent.intentId, rule);
  return intent;
};
/** Intents that must pass risk and rest at the venue. */
const PASSING = new Set<string>();
const pass = (intent: Intent): Intent => {
  PASSING.add(intent.intentId);
  return intent;
};

const tick = D('0.01');
const below = (p: Decimal, bps: number): Decimal => roundToTick(p.mul(1 - bps / 10_000), tick, 'down');

SCRIPTS.set('limits', (ctx: StrategyContext) => {
  const mid = midPrice(ctx.lastSnapshot(BTC))!;
  // 0.01 BTC against a 0.001 BTC position limit.
  return [expectRule('strategy-limits', ctx.intents.limit(BTC, 'buy', below(mid, 50), '0.01'))];
});

SCRIPTS.set('bad', (ctx: StrategyContext) => {
  const i = ctx.intents;
  const btc = ctx.lastSnapshot(BTC)!;
  const mid = midPrice(btc)!;
  const last = lastPrice(btc)!;
  const ok = below(mid, 50); // a valid resting buy price
  const eth = midPrice(ctx.lastSnapshot(ETH)) ?? D(2950);
  const fair = fairPrice(ctx.lastSnapshot(PERP)) ?? lastPrice(ctx.lastSnapshot(PERP))!;
  const perpTick = D('0.1');
  const out: Intent[] = [
    expectRule('instrument-status', i.limit(SOL, 'buy', '140', '0.1')),
    expectRule('api-trading-permission', i.limit(XRP, 'buy', '1.9', '10')),
    expectRule('trade-side-type', i.limit(ETH, 'buy', roundToTick(eth.mul(0.99), tick, 'down'), '0.01')),
    expectRule('price-tick', i.limit(BTC, 'buy', ok.plus('0.001'), '0.001')),
    expectRule('quantity-step', i.limit(BTC, 'buy', ok, '0.0010000001')),
    expectRule('quantity-bounds', i.limit(BTC, 'buy', ok, '0.0000001')),
    expectRule('notional-bounds', i.limit(BTC, 'buy', ok, '0.00001')),
    expectRule('percent-price-by-side', i.limit(BTC, 'buy', roundToTick(last.mul(1.01), tick, 'down'), '0.001')),
    expectRule('free-balance', i.limit(BTC, 'sell', roundToTick(mid.mul(1.001), tick, 'up'), '10')),
    // Spot open-order cap 2: two resting buys pass, the third is one too many.
    pass(i.limit(BTC, 'buy', below(mid, 60), '0.001')),
    pass(i.limit(BTC, 'buy', below(mid, 70), '0.001')),
    expectRule('max-open-orders', i.limit(BTC, 'buy', below(mid, 80), '0.001')),
    // The account starts hedged; the contract intents below are written for one-way mode.
    i.positionMode('one-way'),
    // Contract: price beyond bidLimitPriceRate, leverage beyond the maximum, a close with nothing to close.
    expectRule(
      'contract-price-limit',
      i.limit(PERP, 'buy', roundToTick(fair.mul(1.2), perpTick, 'down'), '10', { leverage: 5, marginMode: 'isolated' }),
    ),
    expectRule('leverage', i.leverage(PERP, 1000, { marginMode: 'isolated' })),
    expectRule(
      'reduce-only',
      i.limit(PERP, 'sell', roundToTick(fair.mul(1.01), perpTick, 'up'), '10', { reduceOnly: true, marginMode: 'isolated' }),
    ),
    // maxNumOrders [1, 1]: the first resting contract order passes, the second is one too many.
    pass(i.limit(PERP, 'buy', roundToTick(fair.mul(0.95), perpTick, 'down'), '10', { leverage: 5, marginMode: 'isolated' })),
    expectRule(
      'max-open-orders',
      i.limit(PERP, 'buy', roundToTick(fair.mul(0.94), perpTick, 'down'), '10', { leverage: 5, marginMode: 'isolated' }),
    ),
    // Free the spot cap again, then the kill switch (maxRejects 1): a post-only buy through the ask is rejected by the venue, which
    // trips the switch; the next opening intent is denied by it.
    i.cancelAll(BTC),
    expectRule('venue', i.limit(BTC, 'buy', roundToTick(mid.mul(1.001), tick, 'up'), '0.001', { timeInForce: 'post-only' })),
    expectRule('kill-switch', i.limit(BTC, 'buy', below(mid, 90), '0.001')),
  ];
  return out;
});

describe('integration: risk denials through the pipeline', function () {
  this.timeout(90_000);
  let emu: RunningEmulator;
  const tmp = tempDir('risk');

  before(async () => {
    const base = emulatorConfig();
    emu = await startTestEmulator({
      instruments: {
        spot: [
          'BTCUSDT',
          { ...SPOT_PRESETS.ETHUSDT!, tradeSideType: 3 },
          { ...SPOT_PRESETS.ETHUSDT!, symbol: 'SOLUSDT', baseAsset: 'SOL', status: '2' },
          { ...SPOT_PRESETS.ETHUSDT!, symbol: 'XRPUSDT', baseAsset: 'XRP', apiTradable: false },
        ],
        contract: [{ ...CONTRACT_PRESETS.BTC_USDT!, maxNumOrders: [1, 1] }],
      },
      market: {
        ...(base.market as object),
        underlyings: { BTC: { price: '87500' }, ETH: { price: '2950' }, SOL: { price: '150' }, XRP: { price: '2' } },
      } as never,
    });
  });
  after(async () => {
    await emu.stop();
    tmp.remove();
  });

  it('denies_each_rule_family_with_the_rule_named', async () => {
    const all = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'XRPUSDT', 'BTC_USDT'];
    const run = await startRun(
      runDoc(emu.url, join(tmp.dir, 'risk.sqlite'), {
        venue: { contractTrading: true },
        instruments: all,
        marketData: {
          maxSnapshotAgeMs: 5000,
          spot: { cycleMs: 1000, streams: { depth: { limit: 5 }, ticker24h: {} } },
          contract: { cycleMs: 500, streams: { depth: { limit: 5 }, ticker: {} } },
        },
        strategies: [
          { id: 'lim', name: 'scripted', instruments: all, params: { script: 'limits' } },
          { id: 'bad', name: 'scripted', instruments: all, params: { script: 'bad' } },
        ],
        risk: { spotOpenOrderCap: 2, strategies: { lim: { maxPositionQty: '0.001' } }, killSwitch: { maxRejects: 1 } },
      }),
      [...REFERENCE_STRATEGIES, ScriptedStrategy],
    );
    const denials = (): Extract<ExecutionEvent, { type: 'IntentDenied' }>[] =>
      run.journal.events().filter((e): e is Extract<ExecutionEvent, { type: 'IntentDenied' }> => e.type === 'IntentDenied');
    try {
      await waitFor(() => denials().some((d) => d.rule === 'kill-switch'), 45_000, 'the last scripted intent (kill switch)');
    } finally {
      await run.stop('test over');
    }
    const events = run.journal.events();
    const byIntent = new Map(denials().map((d) => [d.intent.intentId, d]));
    for (const [intentId, rule] of EXPECTED) {
      if (rule === 'venue') continue;
      expect(byIntent.get(intentId)?.rule, `intent ${intentId}`).to.equal(rule);
      expect(byIntent.get(intentId)?.reason).to.be.a('string').and.not.be.empty;
    }
    // The venue-rejected order tripped the switch; the passing orders reached the venue.
    expect(events.filter((e) => e.type === 'OrderRejected')).to.have.length(1);
    expect(events.some((e) => e.type === 'KillSwitchTripped')).to.equal(true);
    const submitted = events
      .filter((e): e is Extract<ExecutionEvent, { type: 'OrderSubmitted' }> => e.type === 'OrderSubmitted')
      .map((e) => e.order.intentId);
    expect(new Set(submitted)).to.deep.equal(new Set([...PASSING, ...[...EXPECTED].filter(([, r]) => r === 'venue').map(([id]) => id)]));
    // Nothing denied reached the emulator: its only orders of ours are the passing ones (+ the rejected one).
    const atVenue = emu.spot.reader.allOrders(IT_ACCOUNT.name, 'BTCUSDT').length;
    expect(atVenue).to.be.at.most(3);
    run.dispose();
  });
});
