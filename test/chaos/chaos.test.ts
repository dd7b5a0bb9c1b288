/**
 * The chaos suite (issue 10): `perpetua run` as a child process, SIGKILLed at seeded random moments;
 * the emulator injecting dropped answers, resets, 5xx, delays and 429s; afterwards the journal is
 * audited against the venue read over the client (src/app/audit/journal-venue-audit.ts). Bounded to
 * about three minutes; `npm run soak -- --minutes N` runs the same for longer and prints the table.
 */
import { expect } from 'chai';
import type { InstrumentSymbol } from '../../src/core/ids.js';
import { formatChaosTable, runChaos, type ChaosTable } from './chaos-driver.js';

function expectClean(t: ChaosTable): void {
  // The table is the suite's account of what it did (issue 10 asks for it in the report).
  process.stdout.write(`${formatChaosTable(t).replace(/^/gm, '      ')}\n`);
  const table = `\n${formatChaosTable(t)}\n${[...t.audit.problems, ...t.restartProblems].slice(0, 30).join('\n')}`;
  expect(t.botKills, `the bot was killed${table}`).to.be.greaterThan(1);
  expect(t.botCrashes, `bot runs that died by themselves${table}\n${t.crashOutputs.join('\n')}`).to.equal(0);
  expect(t.audit.venueOrders, `the bot traded${table}`).to.be.greaterThan(5);
  expect(t.audit.duplicates, `duplicate orders${table}`).to.equal(0);
  expect(t.audit.lostFills, `lost fills${table}`).to.equal(0);
  expect(t.audit.phantomFills, `phantom fills${table}`).to.equal(0);
  expect(t.audit.unattributedFills, `unattributed fills${table}`).to.equal(0);
  expect(t.audit.orderMismatches, `order mismatches${table}`).to.equal(0);
  expect(t.audit.positionMismatches, `position mismatches${table}`).to.equal(0);
  expect(t.audit.orphanOrders, `orphan orders${table}`).to.equal(0);
  expect(t.audit.problems, table).to.deep.equal([]);
}

describe('chaos: SIGKILLs and injected faults, then the journal against the venue', function () {
  // A run takes about 3 min at a load average of 25-30 on 2 cores (start-ups of 3-12 s each, the settle restart).
  this.timeout(420_000);

  it('spot_market_maker_survives_bot_sigkills_and_faults_with_the_books_agreeing', async () => {
    // The emulator lives in this process (never restarted): what is checked is the bot's side alone.
    const t = await runChaos({ seed: 7, durationMs: 50_000, strategies: ['spot-market-maker'], emulator: 'in-process' });
    expect(
      Object.values(t.faults).reduce((a, b) => a + b, 0),
      'faults injected',
    ).to.be.greaterThan(3);
    expectClean(t);
  });

  // Was flaky (27 Nov, seed 5, load 10-15): (1) an orphan quote after a clean stop — one refused cancel at
  // shutdown was never retried (fixed: cancel → reconcile → cancel rounds, test/integration/exit-cancel-retry);
  // (2) a TP/SL close not in the journal (CI, e4da250: "venue order 3263 (no client id) dealt 20 and is not in
  // the journal; trend1 journal 20, venue 0") — the settling run's market was not still: σ 0 left the index
  // noise (±8.75 USDT a step) and the premium moving the fair price, so a stop could fire in the seconds
  // between the settling run's last reconciliation and the audit's read (fixed: the settle also sets
  // indexNoise 0 and premium.std 0, test/emulator/calm-market.test.ts; the audit now says when an unjournaled
  // execution traded among the runs); (3) perp-trend placed no order in short lives (fixed: lives count
  // from "trading", and the first lasts until perp-trend has an order at the venue).
  it('perp_trend_with_tp_sl_and_the_market_maker_survive_bot_sigkills_and_faults', async () => {
    const t = await runChaos({
      seed: 5,
      durationMs: 55_000,
      strategies: ['spot-market-maker', 'perp-trend'],
      emulator: 'in-process',
      botLifeMs: [12_000, 22_000],
      tradeFirst: ['BTC_USDT' as InstrumentSymbol],
    });
    expect(t.audit.venueOrdersBySymbol.BTC_USDT ?? 0, `perp-trend traded\n${formatChaosTable(t)}`).to.be.greaterThan(0);
    expectClean(t);
  });

  // Was flaky: "BTC_USDT venue order 4737 (no client id) dealt 20 and is not in the journal; trend1 journal -20,
  // venue 0" (5 bot runs, 4 kills, 2 emulator kills) — the same settle that was not still (see above).
  it('market_maker_and_perp_trend_survive_sigkills_of_both_processes', async () => {
    // The emulator as its own process with a state file, killed while the bot is down: every account
    // read endpoint must answer the same after its restart, and the books must agree at the end.
    const t = await runChaos({
      seed: 11,
      durationMs: 70_000,
      strategies: ['spot-market-maker', 'perp-trend'],
      emulator: 'process',
      emulatorKillChance: 0.5,
      tradeFirst: ['BTC_USDT' as InstrumentSymbol],
    });
    expect(t.emulatorKills, 'the emulator was killed').to.be.greaterThan(0);
    expect(t.restartProblems, 'emulator state across its restarts').to.deep.equal([]);
    expectClean(t);
  });
});
