/**
 * The classes whose instances the engine snapshot (engine/object-graph.ts) may meet: every class
 * exported by the modules that make up the engines' state. Whole modules, not a hand-kept list of
 * classes, so a class added to one of them is known without touching this file; a class in a module
 * not listed here fails the snapshot with its path (and a test), and its module is added below.
 */
import { KeyObject } from 'node:crypto';
import { graphCodec, type GraphCodec } from './object-graph.js';
import * as random from '../../core/random.js';
import * as accountRegistry from '../auth/account-registry.js';
import * as contractEngine from './contract-engine.js';
import * as marketDriver from './market-driver.js';
import * as marketEpochs from './market-epochs.js';
import * as spotEngine from './spot-engine.js';
import * as accountExtServices from '../handlers/account-ext-services.js';
import * as marketMakerBlacklists from '../handlers/market-maker-blacklists.js';
import * as pnlAnalysis from '../../venue/analysis/pnl-analysis.js';
import * as pnlRecorder from '../../venue/analysis/pnl-recorder.js';
import * as orderBook from '../../venue/book/order-book.js';
import * as contractPosition from '../../venue/contract/contract-position.js';
import * as contractSpec from '../../venue/contract/contract-spec.js';
import * as stepGrid from '../../venue/contract/step-grid.js';
import * as contractState from '../../venue/contract/contract-state.js';
import * as orderHistory from '../../venue/contract/order-history.js';
import * as fillLog from '../../venue/contract/fill-log.js';
import * as contractVenue from '../../venue/contract/contract-venue.js';
import * as contractVenueState from '../../venue/contract/contract-venue-state.js';
import * as venueMoney from '../../venue/contract/venue-money.js';
import * as moneyCell from '../../venue/contract/money-cell.js';
import * as contractViewBuilder from '../../venue/contract/contract-view-builder.js';
import * as positionLedger from '../../venue/contract/position-ledger.js';
import * as orderMatching from '../../venue/contract/order-matching.js';
import * as orderPlacement from '../../venue/contract/order-placement.js';
import * as liquidationEngine from '../../venue/contract/liquidation-engine.js';
import * as fundingSettlement from '../../venue/contract/funding-settlement.js';
import * as contractReadModel from '../../venue/contract/contract-read-model.js';
import * as liquidationScreen from '../../venue/contract/liquidation-screen.js';
import * as liquidationIndex from '../../venue/contract/liquidation-index.js';
import * as priceLadder from '../../venue/contract/price-ladder.js';
import * as crossScreen from '../../venue/contract/cross-screen.js';
import * as listenerFailures from '../../venue/listener-failures.js';
import * as eventQueue from '../../venue/event-queue.js';
import * as planOrders from '../../venue/contract/triggers/plan-orders.js';
import * as stopOrders from '../../venue/contract/triggers/stop-orders.js';
import * as trackOrders from '../../venue/contract/triggers/track-orders.js';
import * as triggerBook from '../../venue/contract/triggers/trigger-book.js';
import * as triggerIndex from '../../venue/contract/triggers/trigger-index.js';
import * as triggerStore from '../../venue/contract/triggers/trigger-store.js';
import * as contractFeeModel from '../../venue/fees/contract-fee-model.js';
import * as dealVolumeWindow from '../../venue/fees/deal-volume-window.js';
import * as platformTokenDeduction from '../../venue/fees/platform-token-deduction.js';
import * as ledger from '../../venue/ledger/ledger.js';
import * as contractPriceBoard from '../../venue/market/contract-price-board.js';
import * as crowdBookMirror from '../../venue/market/crowd-book-mirror.js';
import * as fundingRate from '../../venue/market/funding-rate.js';
import * as klineStore from '../../venue/market/kline-store.js';
import * as orderBookLiquidityPort from '../../venue/market/order-book-liquidity-port.js';
import * as priceCandles from '../../venue/market/price-candles.js';
import * as priceProcess from '../../venue/market/price-process.js';
import * as ringBuffer from '../../venue/market/ring-buffer.js';
import * as rollingWindow from '../../venue/market/rolling-window.js';
import * as spotVenueLiquidityPort from '../../venue/market/spot-venue-liquidity-port.js';
import * as syntheticMarket from '../../venue/market/synthetic-market.js';
import * as tapeAggregator from '../../venue/market/tape-aggregator.js';
import * as counterIds from '../../venue/spot/counter-ids.js';
import * as openOrders from '../../venue/spot/open-orders.js';
import * as ownTradeLog from '../../venue/spot/own-trade-log.js';
import * as seqStore from '../../venue/spot/seq-store.js';
import * as spotEvents from '../../venue/spot/spot-events.js';
import * as spotOrder from '../../venue/spot/spot-order.js';
import * as spotVenue from '../../venue/spot/spot-venue.js';
import * as spotSettlement from '../../venue/spot/spot-settlement.js';
import * as spotAdmission from '../../venue/spot/spot-admission.js';
import * as stpGroups from '../../venue/spot/stp-groups.js';

type Ctor = abstract new (...args: never[]) => object;

const MODULES: readonly Record<string, unknown>[] = [
  random,
  accountRegistry,
  contractEngine,
  marketDriver,
  marketEpochs,
  spotEngine,
  accountExtServices,
  marketMakerBlacklists,
  pnlAnalysis,
  pnlRecorder,
  orderBook,
  contractPosition,
  contractSpec,
  stepGrid,
  contractState,
  orderHistory,
  fillLog,
  contractVenue,
  contractVenueState,
  venueMoney,
  moneyCell,
  contractViewBuilder,
  positionLedger,
  orderMatching,
  orderPlacement,
  liquidationEngine,
  fundingSettlement,
  contractReadModel,
  liquidationScreen,
  liquidationIndex,
  priceLadder,
  crossScreen,
  listenerFailures,
  eventQueue,
  planOrders,
  stopOrders,
  trackOrders,
  triggerBook,
  triggerIndex,
  triggerStore,
  contractFeeModel,
  dealVolumeWindow,
  platformTokenDeduction,
  ledger,
  contractPriceBoard,
  crowdBookMirror,
  fundingRate,
  klineStore,
  orderBookLiquidityPort,
  priceCandles,
  priceProcess,
  ringBuffer,
  rollingWindow,
  spotVenueLiquidityPort,
  syntheticMarket,
  tapeAggregator,
  counterIds,
  openOrders,
  ownTradeLog,
  seqStore,
  spotEvents,
  spotOrder,
  spotVenue,
  spotSettlement,
  spotAdmission,
  stpGroups,
];

const isClass = (v: unknown): v is Ctor => typeof v === 'function' && /^class\b/.test(Function.prototype.toString.call(v));

let codec: GraphCodec | undefined;

/** The codec of the emulator's engines (built once). Account secrets (KeyObject) are never written. */
export function engineCodec(): GraphCodec {
  codec ??= graphCodec(
    MODULES.flatMap((m) => Object.values(m).filter(isClass)),
    // KeyObject has a private constructor; only instanceof is used on it. Listener counts go with the
    // listeners, which a restore keeps from the fresh graph.
    [KeyObject as unknown as Ctor, contractVenueState.ListenerTypeCounts],
  );
  return codec;
}
