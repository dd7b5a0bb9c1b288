/**
 * What an intent would put on the book and what it would take off, in one shape for every rule:
 * a place proposes one order, an amend proposes the changed order and releases the old one, a
 * desired-quotes intent proposes its quotes and releases the strategy's resting quotes.
 */
import { D, Decimal, unitsOf, ZERO } from '../core/decimal.js';
import { placesOf } from './multiple-of.js';
import { type Instrument, stepOf, tickOf } from '../domain/instrument.js';
import type { DesiredQuote, Intent } from '../domain/intent.js';
import { isLive, type Order, type OrderSpec, remainingQty } from '../domain/order.js';
import { parentOfClientId } from '../domain/client-id-codec.js';
import { bestAsk, bestBid, type MarketSnapshot } from '../domain/snapshot.js';
import type { RiskState } from './risk-rule.js';
import { approxNumber } from './approx-number.js';

export interface ProposedOrder {
  readonly spec: OrderSpec;
  /** Desired-quotes slot, for per-quote denials. */
  readonly slot?: string;
  /** The existing order this one changes (amend, chase). */
  readonly replaces?: Order;
  /** Quantity already filled on `replaces`: reservations count only what remains. */
  readonly filledQty: Decimal;
  /**
   * spec.price in ticks and spec.quantity in lots of the instrument (unitsOf), made once per proposal
   * for the tick, step and bounds rules; NaN (or absent) when not a whole number of them below 2^53 or
   * the tick / step is not a power of ten — those rules then compare the Decimals.
   */
  readonly priceTicks?: number;
  readonly qtyLots?: number;
  /**
   * proposalRemaining() as a double (approxNumber), made once per proposal: the free-balance and the
   * leverage screens each converted it for every proposal.
   */
  readonly remainingApprox: number;
  /**
   * spec.price as a double (approxNumber; NaN without a price), made once per proposal: the free-balance
   * and the contract price-limit screens each converted it again.
   */
  readonly priceApprox: number;
}

export function quoteSpec(intent: { symbol: OrderSpec['symbol'] }, q: DesiredQuote, kind: OrderSpec['kind']): OrderSpec {
  // Assigned rather than spread in: four conditional spreads cost more than the rest of the quote's proposal.
  const spec: { -readonly [K in keyof OrderSpec]: OrderSpec[K] } = {
    symbol: intent.symbol,
    kind,
    side: q.side,
    type: 'limit',
    timeInForce: q.timeInForce ?? 'gtc',
    price: q.price,
    quantity: q.quantity,
  };
  if (q.positionSide) spec.positionSide = q.positionSide;
  if (q.reduceOnly) spec.reduceOnly = true;
  if (q.leverage !== undefined) spec.leverage = q.leverage;
  if (q.marginMode) spec.marginMode = q.marginMode;
  return spec;
}

export function findLiveOrder(state: RiskState, clientOrderId: string): Order | undefined {
  return state.openOrders.find((o) => o.clientOrderId === clientOrderId && isLive(o.status));
}

/**
 * Every rule asks for the same intent's proposals: computed once per (intent, instrument, state). The
 * rules of one evaluation ask in a row, so the last answer is kept (a WeakMap entry per intent cost
 * more than the lookups it saved: every snapshot brings a new intent).
 */
let lastProposals: { intent: Intent; state: RiskState; instrument: Instrument | undefined; proposals: ProposedOrder[] } | undefined;

export function proposedOrders(intent: Intent, instrument: Instrument | undefined, state: RiskState): ProposedOrder[] {
  const hit = lastProposals;
  if (hit !== undefined && hit.intent === intent && hit.state === state && hit.instrument === instrument) return hit.proposals;
  const proposals = computeProposals(intent, instrument, state);
  lastProposals = { intent, state, instrument, proposals };
  return proposals;
}

function computeProposals(intent: Intent, instrument: Instrument | undefined, state: RiskState): ProposedOrder[] {
  const tp = instrument ? placesOf(tickOf(instrument)) : null;
  const sp = instrument ? placesOf(stepOf(instrument)) : null;
  // The quantity's lots and remaining double depend on the quantity and filled objects alone (Decimals are
  // immutable values): a quote set's quotes usually share one quantity object, converted once.
  let lastQty: Decimal | undefined;
  let lastFilled: Decimal | undefined;
  let qtyLots = NaN;
  let remainingApprox = NaN;
  const proposal = (spec: OrderSpec, filledQty: Decimal, slot?: string, replaces?: Order): ProposedOrder => {
    const p: { -readonly [K in keyof ProposedOrder]?: ProposedOrder[K] } & Pick<ProposedOrder, 'spec' | 'filledQty'> = { spec, filledQty };
    if (slot !== undefined) p.slot = slot;
    if (replaces !== undefined) p.replaces = replaces;
    p.priceTicks = spec.price && tp !== null ? unitsOf(spec.price, tp) : NaN;
    if (spec.quantity === undefined || spec.quantity !== lastQty || filledQty !== lastFilled) {
      lastQty = spec.quantity;
      lastFilled = filledQty;
      qtyLots = spec.quantity && sp !== null ? unitsOf(spec.quantity, sp) : NaN;
      remainingApprox = approxNumber(proposalRemaining(p as ProposedOrder));
    }
    p.qtyLots = qtyLots;
    p.remainingApprox = remainingApprox;
    p.priceApprox = spec.price ? approxNumber(spec.price) : NaN;
    return p as ProposedOrder;
  };
  switch (intent.kind) {
    case 'place':
      return [proposal(intent.order, ZERO)];
    case 'amend': {
      const old = findLiveOrder(state, intent.clientOrderId);
      if (!old) return [];
      const spec = { ...old, price: intent.price ?? old.price, quantity: intent.quantity ?? old.quantity } as OrderSpec;
      return [proposal(spec, old.filledQty, undefined, old)];
    }
    case 'chase': {
      const old = findLiveOrder(state, intent.clientOrderId);
      if (!old) return [];
      // The furthest the chase may go is the cap; judge that price (or today's when uncapped).
      return [proposal({ ...old, price: intent.priceCap ?? old.price } as OrderSpec, old.filledQty, undefined, old)];
    }
    case 'desired-quotes': {
      const kind = instrument?.kind ?? (intent.symbol.includes('_') ? 'contract' : 'spot');
      return intent.quotes.map((q) => proposal(quoteSpec(intent, q, kind), ZERO, q.slot));
    }
    default:
      return [];
  }
}

/** Four rules ask for the same intent's released orders: the last answer is kept, as for proposals. */
let lastReleased: { intent: Intent; state: RiskState; released: readonly Order[]; ids?: ReadonlySet<string> } | undefined;

function released(intent: Intent, state: RiskState): { state: RiskState; released: readonly Order[]; ids?: ReadonlySet<string> } {
  let hit = lastReleased;
  if (hit === undefined || hit.intent !== intent || hit.state !== state) {
    hit = { intent, state, released: computeReleased(intent, state) };
    lastReleased = hit;
  }
  return hit;
}

/** Orders whose reservation the intent gives back once it is carried out. */
export const releasedOrders = (intent: Intent, state: RiskState): readonly Order[] => released(intent, state).released;

/** Client ids of releasedOrders(). */
export function releasedIds(intent: Intent, state: RiskState): ReadonlySet<string> {
  const hit = released(intent, state);
  return (hit.ids ??= new Set(hit.released.map((o) => o.clientOrderId)));
}

function computeReleased(intent: Intent, state: RiskState): Order[] {
  switch (intent.kind) {
    case 'amend':
    case 'chase': {
      const old = findLiveOrder(state, intent.clientOrderId);
      return old ? [old] : [];
    }
    case 'desired-quotes':
      // Pending cancels are not released: their funds stay held until the venue confirms. Nor are an
      // execution algorithm's children: the quote set does not replace them (the order manager's quote
      // diff leaves them alone), so a strategy quoting beside its own TWAP was judged as if they were gone.
      return state.openOrders.filter(
        (o) =>
          o.strategyId === intent.strategyId &&
          o.symbol === intent.symbol &&
          isLive(o.status) &&
          o.status !== 'pending-cancel' &&
          // A quote carries its slot: only an order without one can be a child (decoding an id costs ~0.5 µs).
          (o.slot !== undefined || !parentOfClientId(o.clientOrderId)),
      );
    default:
      return [];
  }
}

/** True when the order adds exposure (contract open sides; any spot order). */
export function isOpening(spec: OrderSpec): boolean {
  if (spec.kind === 'spot') return true;
  if (spec.reduceOnly) return false;
  if (spec.positionSide === 'long') return spec.side === 'buy';
  if (spec.positionSide === 'short') return spec.side === 'sell';
  return true;
}

/** Average price a market order of `quantity` would get walking the visible book (worst level for the rest). */
export function estimateMarketPrice(
  snapshot: MarketSnapshot | undefined,
  side: 'buy' | 'sell',
  quantity: Decimal | undefined,
): Decimal | undefined {
  const levels = side === 'buy' ? snapshot?.book?.asks : snapshot?.book?.bids;
  if (!levels || levels.length === 0 || !quantity) return side === 'buy' ? bestAsk(snapshot) : bestBid(snapshot);
  let left = quantity;
  let cost = ZERO;
  let last = levels[0]!.price;
  for (const l of levels) {
    if (left.lte(0)) break;
    const take = Decimal.min(left, l.quantity);
    cost = cost.plus(take.mul(l.price));
    left = left.minus(take);
    last = l.price;
  }
  if (left.gt(0)) cost = cost.plus(left.mul(last));
  return cost.div(quantity);
}

/** Price to value an order: its limit price, else the book estimate. */
export function effectivePrice(spec: OrderSpec, snapshot: MarketSnapshot | undefined): Decimal | undefined {
  if (spec.type === 'limit') return spec.price;
  return estimateMarketPrice(snapshot, spec.side, spec.quantity);
}

/** Quantity still to fill of a proposal. */
export const proposalRemaining = (p: ProposedOrder): Decimal => {
  const q = p.spec.quantity;
  if (!q) return ZERO;
  // A new order (nothing filled) is its quantity: the same value without two Decimal operations.
  if (p.filledQty.isZero() && !q.isNegative()) return q;
  return Decimal.max(ZERO, q.minus(p.filledQty));
};

/** Quantity still to fill of a live order (0 for a spot market buy by amount). */
export const orderRemaining = (o: Order): Decimal => remainingQty(o) ?? ZERO;

export const fmt = (d: Decimal | number): string => (typeof d === 'number' ? String(d) : D(d).toFixed());

/** `{ slot }` of a per-quote denial (nothing for an order without one), made only when a rule denies. */
export const slotOf = (p: ProposedOrder): { slot?: string } => (p.slot ? { slot: p.slot } : {});

export function describe(spec: OrderSpec, slot?: string): string {
  const qty = spec.quantity ? fmt(spec.quantity) : `${fmt(spec.quoteQuantity ?? ZERO)} quote`;
  const px = spec.price ? ` @ ${fmt(spec.price)}` : ' at market';
  return `${spec.side} ${qty}${px}${slot ? ` (slot ${slot})` : ''}`;
}

/** Nearest the touch first (highest buy, lowest sell; buys before sells at equal rank), so aggregate rules deny the farthest quote. */
export function byTouchPriority(proposals: readonly ProposedOrder[]): ProposedOrder[] {
  return [...proposals].sort((a, b) => {
    const pa = a.spec.price;
    const pb = b.spec.price;
    if (!pa || !pb) return 0;
    if (a.spec.side === b.spec.side) return a.spec.side === 'buy' ? pb.comparedTo(pa) : pa.comparedTo(pb);
    return 0;
  });
}
