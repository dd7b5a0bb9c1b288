/**
 * The venue's request limits, metered per catalogue bucket (api/endpoint.ts RateBucket):
 *   ip-weight          per client IP, the endpoint's weight against a weight budget;
 *   spot-orders        12/s per account, shared by place, batch, cancel, cancel-all;
 *   spot-account       2/s per account and endpoint (account information);
 *   spot-batch         2/s per account (batch placement);
 *   contract-endpoint  ~20 per 2 s per account (or IP when public) and endpoint.
 * A refusal is HTTP 429 in the API's shape with Retry-After in whole seconds.
 */
import type { Clock } from '../../core/clock.js';
import { weightOf, type EndpointDef } from '../../api/endpoint.js';
import type { RateLimitsConfig } from '../emulator-config.js';
import { ContractError, SpotError, type WireError } from '../http/wire-error.js';
import { WindowCounter } from './window-counter.js';

export class RateLimits {
  private readonly ip: WindowCounter;
  private readonly spotOrders: WindowCounter;
  private readonly spotAccount: WindowCounter;
  private readonly spotBatch: WindowCounter;
  private readonly contractEndpoint: WindowCounter;
  enabled: boolean;

  constructor(clock: Clock, cfg: RateLimitsConfig) {
    this.enabled = cfg.enabled;
    this.ip = new WindowCounter(clock, cfg.ipWeight.limit, cfg.ipWeight.windowMs);
    this.spotOrders = new WindowCounter(clock, cfg.spotOrders.limit, cfg.spotOrders.windowMs);
    this.spotAccount = new WindowCounter(clock, cfg.spotAccount.limit, cfg.spotAccount.windowMs);
    this.spotBatch = new WindowCounter(clock, cfg.spotBatch.limit, cfg.spotBatch.windowMs);
    this.contractEndpoint = new WindowCounter(clock, cfg.contractEndpoint.limit, cfg.contractEndpoint.windowMs);
  }

  /** The per-IP part, checked before authentication so unauthenticated floods are metered too. */
  checkIp(def: EndpointDef, params: Record<string, unknown>, ip: string): void {
    if (!this.enabled || !def.buckets.includes('ip-weight')) return;
    const wait = this.ip.take(ip, weightOf(def, params));
    if (wait !== undefined) throw refusal(def, wait);
  }

  /** The per-account buckets, checked once the caller is known (`who` = account id, or IP when public). */
  checkAccount(def: EndpointDef, who: string): void {
    if (!this.enabled) return;
    for (const bucket of def.buckets) {
      let wait: number | undefined;
      switch (bucket) {
        case 'spot-orders':
          wait = this.spotOrders.take(who);
          break;
        case 'spot-account':
          wait = this.spotAccount.take(`${who}|${def.id}`);
          break;
        case 'spot-batch':
          wait = this.spotBatch.take(who);
          break;
        case 'contract-endpoint':
          wait = this.contractEndpoint.take(`${who}|${def.id}`);
          break;
        default:
          break;
      }
      if (wait !== undefined) throw refusal(def, wait);
    }
  }

  reset(): void {
    for (const c of [this.ip, this.spotOrders, this.spotAccount, this.spotBatch, this.contractEndpoint]) c.reset();
  }
}

function refusal(def: EndpointDef, waitMs: number): WireError {
  const sec = Math.max(1, Math.ceil(waitMs / 1000));
  return def.api === 'spot' ? SpotError.rateLimited(sec) : ContractError.rateLimited(sec);
}
