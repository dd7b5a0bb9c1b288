/**
 * The perpetual side of the emulator: one ContractVenue (matching, margin, positions, funding,
 * liquidation), a TapeAggregator per contract fed by its trade events (deals, candles, 24h ticker),
 * and the crowd's LiquidityPort.
 *
 * Funding and marking are driven from the market model, not from venue timers, so that they replay
 * from the journal: after each model step the fair and index prices are pushed into the venue, and each
 * settlement of the model's funding cycle becomes setFundingRate + settleFunding.
 *
 * The crowd trades in one-way mode (buys and sells net out, so its position stays bounded) from a few
 * maker accounts per contract taken round-robin, because one-way accounts may hold at most
 * maxNumOrders[1] (50 on the captured contracts) open orders per contract.
 */
import type { Clock } from '../../core/clock.js';
import { Decimal } from '../../core/decimal.js';
import { accountId as toAccountId, type AccountId } from '../../core/ids.js';
import { ContractOrderState, ContractOrderType } from '../../domain/contract-enums.js';
import type { ContractInstrument } from '../../domain/instrument.js';
import { ContractVenue } from '../../venue/contract/contract-venue.js';
import { TRIGGER_COMMANDS } from '../../venue/contract/triggers/trigger-commands.js';
import type { TradeExecuted } from '../../venue/contract/contract-events.js';
export { CONTRACT_CROWD_TAKER, contractCrowdMaker } from '../../venue/market/crowd-accounts.js';
import { TapeAggregator } from '../../venue/market/tape-aggregator.js';
import {
  CONTRACT_CROWD_TAKER,
  contractCrowdMaker,
  CROWD_ZERO_FEES,
  crowdContractOrder,
  isCrowdAccount,
  openContractCrowd,
} from '../../venue/market/crowd-accounts.js';
import type { BookSide, LiquidityOrderKind, LiquidityPort, PlaceResult } from '../../venue/market/liquidity-port.js';
import type { ContractPriceBoard } from '../../venue/market/contract-price-board.js';
import { journaled, type CommandJournal } from './command-journal.js';

const MAKERS_PER_CONTRACT = 4;

/** Venue methods that change state: journaled and replayed. */
export const CONTRACT_COMMANDS = [
  'setFairPrice',
  'setIndexPrice',
  'setFundingRate',
  'settleFunding',
  'openAccount',
  'deposit',
  'withdraw',
  'placeOrder',
  'changeLimitOrder',
  'chaseLimitOrder',
  'cancelOrders',
  'cancelWithExternal',
  'cancelAll',
  'changeMargin',
  'changeAutoAddIm',
  'changeLeverage',
  'changePositionMode',
  'reversePosition',
  'closeAll',
  ...TRIGGER_COMMANDS,
] as const;

/** A contract following its price board (ContractEngine.follow). */
export interface PriceFollower {
  /** Fair and index price into the venue, when they changed. */
  push(): void;
  dispose(): void;
}

export interface ContractEngineOptions {
  readonly clock: Clock;
  readonly instruments: readonly ContractInstrument[];
  readonly collectCycleHours: number;
  readonly journal?: CommandJournal;
  /** Fee rates of the non-crowd accounts (fee schedules, discounts); default: the instrument's rates. */
  readonly feeRates?: (account: AccountId, instrument: ContractInstrument) => { maker: Decimal; taker: Decimal };
  /** Accounts sharing an STP group (market-maker blacklists); default: the same account only. */
  readonly sameStpGroup?: (a: AccountId, b: AccountId) => boolean;
}

export class ContractEngine {
  readonly reader: ContractVenue;
  readonly venue: ContractVenue;
  readonly tapes = new Map<string, TapeAggregator>();
  readonly port: LiquidityPort;
  private readonly tradeSeq = new Map<string, number>();
  private readonly unsubscribers = new Set<() => void>();

  constructor(private readonly opts: ContractEngineOptions) {
    this.reader = new ContractVenue({
      clock: opts.clock,
      instruments: opts.instruments,
      autoFunding: false,
      collectCycleHours: opts.collectCycleHours,
      insuranceFund: { USDT: '1000000' },
      feeRates: (account: AccountId, i: ContractInstrument) =>
        isCrowdAccount(account)
          ? CROWD_ZERO_FEES
          : opts.feeRates
            ? opts.feeRates(account, i)
            : { maker: i.makerFeeRate, taker: i.takerFeeRate },
      ...(opts.sameStpGroup ? { sameStpGroup: opts.sameStpGroup } : {}),
      // The crowd lays its book before the first fair price is known; the band applies from then on.
      enforceApiAllowed: true,
      // The crowd's final orders and fills are not kept (no one can read them): the state does not grow with time.
      historyLimitOf: (id) => (isCrowdAccount(id) ? 0 : undefined),
    });
    this.venue = journaled(this.reader, 'contract', CONTRACT_COMMANDS, opts.journal);
    for (const i of opts.instruments) {
      this.tapes.set(i.symbol, new TapeAggregator({ tick: i.priceUnit, step: i.volUnit, contractSize: i.contractSize }));
      this.tradeSeq.set(i.symbol, 0);
    }
    // Only trades feed the tape: no other event's views are built for it.
    this.reader.on((e) => this.onTrade(e), ['TradeExecuted']);
    this.port = new ContractCrowdPort(this);
  }

  /** Opens and funds the crowd accounts (first start only; later starts replay it). */
  fundCrowd(): void {
    const settle = [...new Set(this.opts.instruments.map((i) => i.settleCoin))];
    const ids = [
      CONTRACT_CROWD_TAKER,
      ...this.opts.instruments.flatMap((i) => Array.from({ length: MAKERS_PER_CONTRACT }, (_, k) => contractCrowdMaker(i.symbol, k))),
    ];
    openContractCrowd(this.venue, ids, settle);
  }

  /** Cancels the crowd's resting orders (after a restart the new model lays its own book). */
  clearCrowd(): void {
    for (const i of this.opts.instruments)
      for (let k = 0; k < MAKERS_PER_CONTRACT; k++) this.venue.cancelAll(contractCrowdMaker(i.symbol, k), i.symbol);
  }

  tape(symbol: string): TapeAggregator | undefined {
    return this.tapes.get(symbol);
  }

  /**
   * Follows a price board: `push()` moves its fair / index prices into the venue (the emulator's
   * timeline calls it after each model step), and each settlement of the model's funding cycle becomes
   * setFundingRate + settleFunding. `dispose()` stops listening (the market epoch ended).
   */
  follow(symbol: string, board: ContractPriceBoard): PriceFollower {
    const follower = new PriceFollow(this.venue, symbol, board);
    const unsubscribe = board.onSettlement((s) => follower.settle(s.rate.toFixed()));
    this.unsubscribers.add(unsubscribe);
    follower.unsubscribe = () => {
      if (this.unsubscribers.delete(unsubscribe)) unsubscribe();
    };
    return follower;
  }

  stop(): void {
    for (const u of this.unsubscribers) u();
    this.unsubscribers.clear();
    this.reader.dispose();
  }

  private onTrade(e: TradeExecuted): void {
    const t = e.trade;
    const seq = (this.tradeSeq.get(t.symbol) ?? 0) + 1;
    this.tradeSeq.set(t.symbol, seq);
    this.tapes.get(t.symbol)?.onTrade({
      id: seq,
      time: t.time,
      priceTicks: t.priceTicks,
      lots: t.lots,
      takerSide: t.takerSide === 1 ? 'buy' : 'sell',
      takerOrderId: t.takerOrderId,
      selfTrade: t.selfTrade,
      openFlag: t.openFlag,
    });
  }
}

/**
 * One contract following its price board. The last prices pushed are fields, not closure variables,
 * so the engine snapshot (engine/object-graph.ts) carries them.
 */
export class PriceFollow implements PriceFollower {
  lastFair: string | undefined;
  lastIndex: string | undefined;
  unsubscribe: () => void = () => undefined;

  constructor(
    private readonly venue: ContractVenue,
    private readonly symbol: string,
    private readonly board: ContractPriceBoard,
  ) {}

  push(): void {
    const fair = this.board.fair()?.price;
    const index = this.board.index()?.price;
    if (fair && fair.gt(0) && fair.toFixed() !== this.lastFair) {
      this.lastFair = fair.toFixed();
      this.venue.setFairPrice(this.symbol, this.lastFair);
    }
    if (index && index.gt(0) && index.toFixed() !== this.lastIndex) {
      this.lastIndex = index.toFixed();
      this.venue.setIndexPrice(this.symbol, this.lastIndex);
    }
  }

  /** A settlement of the model's funding cycle: prices first, then the rate and the settlement. */
  settle(rate: string): void {
    this.push();
    this.venue.setFundingRate(this.symbol, rate);
    this.venue.settleFunding(this.symbol);
  }

  dispose(): void {
    this.unsubscribe();
  }
}

export class ContractCrowdPort implements LiquidityPort {
  private readonly owners = new Map<string, string>();
  private turn = 0;

  constructor(private readonly engine: ContractEngine) {}

  place(symbol: string, side: BookSide, priceTicks: number, lots: number, kind: LiquidityOrderKind): PlaceResult {
    const inst = this.engine.reader.instrument(symbol);
    if (!inst) return { id: undefined, filledLots: 0 };
    const account = kind === 'limit' ? contractCrowdMaker(symbol, this.turn++ % MAKERS_PER_CONTRACT) : CONTRACT_CROWD_TAKER;
    const type = kind === 'limit' ? ContractOrderType.LIMIT : ContractOrderType.IOC;
    // In the contract's ticks and lots, as the market driver holds them (no decimal text built and parsed back).
    const r = this.engine.venue.placeOrderTicks(account, crowdContractOrder(symbol, side, priceTicks, lots, type));
    if (!r.ok) return { id: undefined, filledLots: 0 };
    const o = r.value;
    const filledLots = o.dealLots;
    if (o.state !== ContractOrderState.UNCOMPLETED) return { id: undefined, filledLots };
    this.owners.set(o.orderId, account);
    return { id: o.orderId, filledLots };
  }

  cancel(_symbol: string, id: string): void {
    const owner = this.owners.get(id);
    if (owner === undefined) return;
    this.owners.delete(id);
    this.engine.venue.cancelOrders(owner, [id]);
  }

  remaining(_symbol: string, id: string): number {
    const owner = this.owners.get(id);
    if (owner === undefined) return 0;
    const o = this.engine.venue.orderTicks(owner, id);
    if (!o || o.state !== ContractOrderState.UNCOMPLETED) {
      this.owners.delete(id);
      return 0;
    }
    return o.lots - o.dealLots;
  }

  bestBid(symbol: string): number | undefined {
    const p = this.engine.reader.bestBid(symbol);
    const inst = this.engine.reader.instrument(symbol);
    return p === undefined || !inst ? undefined : p.div(inst.priceUnit).toNumber();
  }

  bestAsk(symbol: string): number | undefined {
    const p = this.engine.reader.bestAsk(symbol);
    const inst = this.engine.reader.instrument(symbol);
    return p === undefined || !inst ? undefined : p.div(inst.priceUnit).toNumber();
  }
}

export const crowdAccountId = (id: string): AccountId => toAccountId(id);
