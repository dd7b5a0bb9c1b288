/**
 * The contract (/api/v1/contract, /api/v1/private) client: one typed method per `contractCatalogue`
 * entry (`client.createOrder({...})`), signed per wire-protocol.md, rate-limited per endpoint,
 * server-time aligned, errors mapped onto the taxonomy.
 */
import { contractCatalogue } from '../api/contract/catalogue.js';
import type { EndpointDef } from '../api/endpoint.js';
import { CatalogueClient, type CallOptions, type ClientOptions, type ServerTimeSource } from './catalogue-client.js';
import { bindCatalogue, type CatalogueMethods } from './catalogue-methods.js';
import { bucketKey } from './rate-limiter.js';

export type ContractCatalogueMethods = CatalogueMethods<typeof contractCatalogue>;

const PING_PATH = '/api/v1/contract/ping';
const pingDef = (Object.values(contractCatalogue) as EndpointDef[]).find((d) => d.path === PING_PATH);

/** GET /api/v1/contract/ping → `{success, code, data: <server ms>}`; metered as the ping entry. */
export const CONTRACT_TIME_SOURCE: ServerTimeSource = {
  path: PING_PATH,
  parse: (body) => {
    const t = (body as { data?: unknown } | null)?.data;
    return typeof t === 'number' ? t : typeof t === 'string' && /^\d+$/.test(t) ? Number(t) : undefined;
  },
  permits: [{ bucket: pingDef ? bucketKey('contract-endpoint', pingDef) : 'contract-endpoint:contract.ping', weight: 1 }],
};

// Declaration merging: the class gets the catalogue's methods as typed members.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface ContractClient extends ContractCatalogueMethods {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class ContractClient {
  /** The generic engine (time sync, rate limiter, `call` on any entry). */
  readonly engine: CatalogueClient;

  constructor(options: ClientOptions) {
    this.engine = new CatalogueClient('contract', options, CONTRACT_TIME_SOURCE);
    bindCatalogue(this, contractCatalogue, this.engine);
  }

  /** Calls any contract entry by definition (the typed methods are the usual way in). */
  call<T = unknown>(def: EndpointDef, req?: unknown, opts?: CallOptions): Promise<T> {
    return this.engine.call<T>(def, req, opts);
  }

  /** Samples the server clock now. */
  syncTime(): Promise<void> {
    return this.engine.syncTime();
  }

  /** Current serverTime − local clock, ms. */
  serverTimeOffset(): number {
    return this.engine.timeSync?.offset() ?? 0;
  }

  /** Releases the keep-alive pool (shared per base URL; closed with its last user). */
  close(): Promise<void> {
    return this.engine.close();
  }
}
