/**
 * FundingWatch's pass over the contract symbols, each reconciliation: every payment the venue lists is
 * booked once and none is lost when a read fails. The venue here is a list of payments per symbol whose
 * reads can be made to fail (the I/O edge; the watch itself is the real one). Every case runs through
 * read() over a gateway's promises and over a venue answering at once (ImmediateAccountReads: the
 * answer comes back at once too, not as a promise).
 */
import { expect } from 'chai';
import { VirtualClock } from '../../src/core/clock.js';
import { D } from '../../src/core/decimal.js';
import type { InstrumentSymbol, StrategyId } from '../../src/core/ids.js';
import type { FundingPayment } from '../../src/execution/exchange-gateway.js';
import { type FundingRead, FundingWatch } from '../../src/runtime/funding-watch.js';

const T0 = 1_700_000_000_000;
const HOUR = 3_600_000;
const BTC = 'BTC_USDT' as InstrumentSymbol;
const ETH = 'ETH_USDT' as InstrumentSymbol;
const OWNER = 'carry' as StrategyId;

const payment = (id: string, symbol: InstrumentSymbol, time: number, amount: string): FundingPayment => ({
  id,
  symbol,
  leg: 'long',
  amount: D(amount),
  asset: 'USDT',
  time,
});

/** A venue listing funding records per symbol; `failNext` makes the next reads of a symbol fail. */
class ListedFunding {
  readonly records = new Map<InstrumentSymbol, FundingPayment[]>();
  readonly failNext = new Map<InstrumentSymbol, 'reject' | 'throw'>();
  readonly asked: string[] = [];
  fundingSince(symbol: InstrumentSymbol, since: number): Promise<readonly FundingPayment[]> {
    this.asked.push(`${symbol}>${since - T0}`);
    const fail = this.failNext.get(symbol);
    this.failNext.delete(symbol);
    if (fail === 'throw') throw new Error(`${symbol}: socket closed`);
    if (fail === 'reject') return Promise.reject(new Error(`${symbol}: HTTP 503`));
    return Promise.resolve((this.records.get(symbol) ?? []).filter((p) => p.time >= since));
  }
  /** The same list answered at once; a failure is thrown. */
  fundingSinceNow(symbol: InstrumentSymbol, since: number): readonly FundingPayment[] {
    this.asked.push(`${symbol}>${since - T0}`);
    const fail = this.failNext.get(symbol);
    this.failNext.delete(symbol);
    if (fail !== undefined) throw new Error(`${symbol}: ${fail === 'reject' ? 'HTTP 503' : 'socket closed'}`);
    return (this.records.get(symbol) ?? []).filter((p) => p.time >= since);
  }
}

type Pass = (
  watch: FundingWatch,
  symbols: readonly InstrumentSymbol[],
  venue: ListedFunding,
  ownerOf: () => StrategyId,
) => Promise<FundingRead>;
const PASSES: readonly (readonly [string, Pass])[] = [
  ['a_gateway', async (watch, symbols, venue, ownerOf) => (await watch.read(symbols, venue, ownerOf))!],
  [
    'a_venue_answering_at_once',
    (watch, symbols, venue, ownerOf) => {
      const read = watch.read(symbols, { fundingSince: (s, t) => venue.fundingSinceNow(s, t) }, ownerOf);
      // Nothing to await: the reconciliation of a backtest takes this answer in the same turn.
      expect(read).to.not.be.instanceOf(Promise);
      return Promise.resolve(read!);
    },
  ],
];

const owned = (): StrategyId => OWNER;
const ids = (r: { booked: readonly { fundingId?: string }[] }): (string | undefined)[] => r.booked.map((e) => e.fundingId);

describe('FundingWatch', () => {
  for (const [name, pass] of PASSES) {
    it(`keeps_what_the_symbols_before_a_failed_read_gave_and_reads_the_failed_one_again_next_pass_through_${name}`, async () => {
      const clock = new VirtualClock(T0 + 10 * HOUR);
      const watch = new FundingWatch(clock, T0);
      const venue = new ListedFunding();
      venue.records.set(BTC, [payment('b1', BTC, T0 + 8 * HOUR, '-1.25')]);
      venue.records.set(ETH, [payment('e1', ETH, T0 + 8 * HOUR, '0.5')]);

      for (const how of ['reject', 'throw'] as const) {
        venue.records.set(BTC, [...venue.records.get(BTC)!, payment(`b-${how}`, BTC, clock.now(), '-0.75')]);
        venue.failNext.set(ETH, how);
        const failed = await pass(watch, [BTC, ETH], venue, owned);
        // BTC was read and its new payment counts as booked: it must come out of this pass, failure or not.
        expect(ids(failed)).to.deep.equal(how === 'reject' ? ['b1', 'b-reject'] : ['b-throw']);
        expect(String(failed.failure)).to.match(/ETH_USDT/);
        expect(failed.booked.every((e) => e.strategyId === OWNER && e.type === 'FundingSettled')).to.equal(true);
        clock.advanceBy(HOUR);
      }
      // The next pass reads ETH again (from the history's start: nothing of it was booked) and books e1 once.
      const next = await pass(watch, [BTC, ETH], venue, owned);
      expect(ids(next)).to.deep.equal(['e1']);
      expect(next.failure).to.equal(undefined);
      expect(venue.asked.slice(-1)).to.deep.equal(['ETH_USDT>0']);
      const quiet = await pass(watch, [BTC, ETH], venue, owned);
      expect(quiet.booked).to.have.length(0);
    });

    it(`books_none_of_a_read_whose_events_could_not_be_built_and_all_of_it_on_the_next_pass_through_${name}`, async () => {
      const clock = new VirtualClock(T0 + 20 * HOUR);
      const watch = new FundingWatch(clock, T0);
      const venue = new ListedFunding();
      venue.records.set(BTC, [payment('b1', BTC, T0 + 8 * HOUR, '-1'), payment('b2', BTC, T0 + 16 * HOUR, '2')]);
      let calls = 0;
      const failsOnSecond = (): StrategyId => {
        if (++calls === 2) throw new Error('owners not loaded');
        return OWNER;
      };
      const failed = await pass(watch, [BTC], venue, failsOnSecond);
      expect(failed.booked).to.have.length(0);
      expect(String(failed.failure)).to.match(/owners not loaded/);
      // b1 was not marked booked half-way: the next pass books both, and from where it started before.
      const next = await pass(watch, [BTC], venue, owned);
      expect(ids(next)).to.deep.equal(['b1', 'b2']);
      expect(venue.asked).to.deep.equal(['BTC_USDT>0', 'BTC_USDT>0']);
      // After it, reads start an hour before the newest payment (16 h − 1 h) and find nothing new.
      const after = await pass(watch, [BTC], venue, owned);
      expect(after.booked).to.have.length(0);
      expect(venue.asked[2]).to.equal(`BTC_USDT>${15 * HOUR}`);
    });

    it(`books_a_record_listed_twice_in_one_read_once_through_${name}`, async () => {
      const watch = new FundingWatch(new VirtualClock(T0 + 9 * HOUR), T0);
      const venue = new ListedFunding();
      const p = payment('b1', BTC, T0 + 8 * HOUR, '-1');
      venue.records.set(BTC, [p, p]);
      expect(ids(await pass(watch, [BTC], venue, owned))).to.deep.equal(['b1']);
    });
  }
});
