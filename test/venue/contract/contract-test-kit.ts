/**
 * Shared arrangement for the contract venue tests: a BTC_USDT-like contract with round numbers,
 * a venue on a VirtualClock, and an invariant guard that checks the engine after every event.
 */
import { Decimal } from '../../../src/core/decimal.js';
import { VirtualClock } from '../../../src/core/clock.js';
import { contractSymbol } from '../../../src/core/ids.js';
import { ContractOrderType, ContractSide, OpenType, type ContractStpMode, type PositionMode } from '../../../src/domain/contract-enums.js';
import type { ContractInstrument } from '../../../src/domain/instrument.js';
import { ContractVenue, type ContractVenueOptions } from '../../../src/venue/contract/contract-venue.js';
import type { ContractVenueEvent } from '../../../src/venue/contract/contract-events.js';
import type { PlaceOrderRequest, VenueResult } from '../../../src/venue/contract/contract-requests.js';
import type { ContractOrderView } from '../../../src/venue/contract/contract-views.js';

export const SYMBOL = 'BTC_USDT';
const d = (v: string | number): Decimal => new Decimal(v);

/**
 * contractSize 0.0001 BTC, tick 0.1, lot 1 contract; taker 0.0006, maker 0.0002.
 * Tiers: ≤10000 contracts mmr 0.004 / 125x, ≤20000 mmr 0.01 / 50x, ≤50000 mmr 0.02 / 20x.
 * maxNumOrders [hedged 5, one-way 3] so the limits are reachable in tests.
 */
export function testInstrument(over: Partial<ContractInstrument> = {}): ContractInstrument {
  return {
    kind: 'contract',
    symbol: contractSymbol(SYMBOL),
    baseCoin: 'BTC',
    quoteCoin: 'USDT',
    settleCoin: 'USDT',
    positionOpenType: 3,
    contractSize: d('0.0001'),
    minLeverage: 1,
    maxLeverage: 125,
    priceScale: 1,
    volScale: 0,
    amountScale: 4,
    priceUnit: d('0.1'),
    volUnit: d(1),
    minVol: d(1),
    maxVol: d(100000),
    bidLimitPriceRate: d('0.1'),
    askLimitPriceRate: d('0.1'),
    takerFeeRate: d('0.0006'),
    makerFeeRate: d('0.0002'),
    maintenanceMarginRate: d('0.004'),
    initialMarginRate: d('0.008'),
    riskBaseVol: d(10000),
    riskIncrVol: d(10000),
    riskIncrMmr: d('0.006'),
    riskIncrImr: d('0.012'),
    riskLevelLimit: 3,
    riskLimitType: 'BY_VOLUME',
    riskTiers: [
      { level: 1, maxVol: d(10000), mmr: d('0.004'), imr: d('0.008'), maxLeverage: 125 },
      { level: 2, maxVol: d(20000), mmr: d('0.01'), imr: d('0.02'), maxLeverage: 50 },
      { level: 3, maxVol: d(50000), mmr: d('0.02'), imr: d('0.05'), maxLeverage: 20 },
    ],
    priceCoefficientVariation: d('0.004'),
    state: 0,
    apiAllowed: true,
    maxNumOrders: [5, 3],
    feeRateMode: 'NORMAL',
    leverageFeeRates: [],
    tieredFeeRates: [],
    ...over,
  };
}

export interface Kit {
  readonly clock: VirtualClock;
  readonly venue: ContractVenue;
  readonly events: ContractVenueEvent[];
  /** Problems the invariant guard found after any event (tests assert it stays empty). */
  readonly problems: string[];
}

export function makeKit(opts: Partial<ContractVenueOptions> = {}, instrument: ContractInstrument = testInstrument()): Kit {
  const clock = new VirtualClock(1_000);
  const venue = new ContractVenue({
    clock,
    instruments: [instrument],
    insuranceFund: { USDT: '1000' },
    fundingIntervalMs: 3_600_000,
    ...opts,
  });
  const events: ContractVenueEvent[] = [];
  const problems: string[] = [];
  venue.on((e) => {
    events.push(e);
    for (const p of venue.checkInvariants()) problems.push(`after ${e.type}: ${p}`);
  });
  return { clock, venue, events, problems };
}

export interface OrderArgs {
  side: ContractSide;
  vol: number | string;
  price?: number | string;
  type?: ContractOrderType;
  /** Omitted from the request when null (default 10). */
  leverage?: number | null;
  openType?: OpenType;
  externalOid?: string;
  reduceOnly?: boolean;
  positionMode?: PositionMode;
  stpMode?: ContractStpMode;
}

export function order(venue: ContractVenue, account: string, a: OrderArgs): VenueResult<ContractOrderView> {
  const req: PlaceOrderRequest = {
    symbol: SYMBOL,
    side: a.side,
    vol: a.vol,
    price: a.price,
    type: a.type ?? ContractOrderType.LIMIT,
    openType: a.openType ?? OpenType.ISOLATED,
    leverage: a.leverage === null ? undefined : (a.leverage ?? 10),
    externalOid: a.externalOid,
    reduceOnly: a.reduceOnly,
    positionMode: a.positionMode,
    stpMode: a.stpMode,
  };
  return venue.placeOrder(account, req);
}

/** Places and expects acceptance. */
export function placed(venue: ContractVenue, account: string, a: OrderArgs): ContractOrderView {
  const r = order(venue, account, a);
  if (!r.ok) throw new Error(`expected acceptance, got ${r.code} ${r.message}`);
  return r.value;
}

export const S = ContractSide;
export const T = ContractOrderType;
export const dec = d;
