/**
 * The spot (/api/v3) client: one typed method per `spotCatalogue` entry (`client.newOrder({...})`),
 * signed per wire-protocol.md, rate-limited, server-time aligned, errors mapped onto the taxonomy.
 */
import { spotCatalogue } from '../api/spot/catalogue.js';
import type { EndpointDef } from '../api/endpoint.js';
import { CatalogueClient, type CallOptions, type ClientOptions, type ServerTimeSource } from './catalogue-client.js';
import { bindCatalogue, type CatalogueMethods } from './catalogue-methods.js';

export type SpotCatalogueMethods = CatalogueMethods<typeof spotCatalogue>;

/** GET /api/v3/time → `{serverTime}`. */
export const SPOT_TIME_SOURCE: ServerTimeSource = {
  path: '/api/v3/time',
  parse: (body) => {
    const t = (body as { serverTime?: unknown } | null)?.serverTime;
    return typeof t === 'number' ? t : typeof t === 'string' && /^\d+$/.test(t) ? Number(t) : undefined;
  },
  permits: [{ bucket: 'ip-weight', weight: 1 }],
};

// Declaration merging: the class gets the catalogue's methods as typed members.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface SpotClient extends SpotCatalogueMethods {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class SpotClient {
  /** The generic engine (time sync, rate limiter, `call` on any entry). */
  readonly engine: CatalogueClient;

  constructor(options: ClientOptions) {
    this.engine = new CatalogueClient('spot', options, SPOT_TIME_SOURCE);
    bindCatalogue(this, spotCatalogue, this.engine);
  }

  /** Calls any spot entry by definition (the typed methods are the usual way in). */
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
