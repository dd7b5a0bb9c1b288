/**
 * What the trigger orders need from the venue: its public commands and queries (so a triggered order
 * goes through the normal order path — validation, margin, fees, matching, invariants) and two hooks
 * into its command loop: `emit` queues an event behind the command's own events, `defer` runs a task
 * after the current command (never in the middle of matching).
 */
import type { Clock } from '../../../src/core/clock.js';
import type { Decimal } from '../../../src/core/decimal.js';
import type { PositionMode } from '../../../src/domain/contract-enums.js';
import type { ContractInstrument } from '../../../src/domain/instrument.js';
import type { ContractVenueEvent, PriceWatcher } from '../../../src/venue/contract/contract-events.js';
import type {
  CancelResultEntry,
  FillsQuery,
  PageQuery,
  PlaceOrderRequest,
  VenueResult,
} from '../../../src/venue/contract/contract-requests.js';
import type { ContractFillView, ContractOrderView, ContractPositionView, Page } from '../../../src/venue/contract/contract-views.js';

export interface TriggerVenue {
  instrument(symbol: string): ContractInstrument | undefined;
  placeOrder(accountId: string, req: PlaceOrderRequest): VenueResult<ContractOrderView>;
  getOrder(accountId: string, orderId: string | number): ContractOrderView | undefined;
  openOrders(accountId: string, q?: PageQuery & { symbol?: string | undefined }): Page<ContractOrderView>;
  cancelOrders(accountId: string, orderIds: readonly (string | number)[]): CancelResultEntry[];
  openPositions(accountId: string, q?: { symbol?: string | undefined; positionId?: string | number | undefined }): ContractPositionView[];
  fills(accountId: string, q?: FillsQuery): Page<ContractFillView>;
  positionMode(accountId: string): PositionMode;
  hasAccount(accountId: string): boolean;
  fairPrice(symbol: string): Decimal | undefined;
  indexPrice(symbol: string): Decimal | undefined;
  lastPrice(symbol: string): Decimal | undefined;
  addPriceWatcher(watcher: PriceWatcher): () => void;
}

export interface TriggerHost {
  readonly venue: TriggerVenue;
  readonly clock: Clock;
  /** Queues an event after those of the running command (built at once, only if someone listens). */
  emit(build: () => ContractVenueEvent): void;
  /** Runs `task` once the running command has finished, in queue order with events and prices. */
  defer(task: () => void): void;
  /** Final trigger records kept per account and kind (oldest dropped first). */
  readonly historyLimit: number;
  /** First trigger id is idBase + 1. */
  readonly idBase: number;
}
