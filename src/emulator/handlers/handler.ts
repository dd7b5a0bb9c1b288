/**
 * What an endpoint handler receives and returns. A handler gets the request already routed,
 * authenticated, rate-limited and validated by the catalogue's request schema, and returns the payload;
 * the server adds the envelope of the entry (bare, spot-wrapped, contract). Refusals are thrown as
 * WireError so they go out in the venue's shape.
 */
import type { EndpointDef } from '../../api/endpoint.js';
import type { EmulatorAccount } from '../auth/account-registry.js';

export interface ApiCall<P = Record<string, unknown>> {
  readonly def: EndpointDef;
  /** The request schema's output (wire strings for spot, parsed values for contract). */
  readonly params: P;
  /** Parameters as received: decoded strings (spot, contract GET) or the parsed JSON body (contract POST). */
  readonly raw: unknown;
  readonly pathParams: Readonly<Record<string, string>>;
  /** Present on signed endpoints. */
  readonly account: EmulatorAccount | undefined;
  /** Server time of the request (the emulator's clock). */
  readonly now: number;
  readonly ip: string;
  /** Request headers, names in lower case (the export reads timezone-login). */
  readonly headers?: Readonly<Record<string, string | string[] | undefined>>;
}

/** A spot (E) answer with a code / msg other than 0 / "success". */
export class SpotWrapped {
  constructor(
    readonly data: unknown,
    readonly code = 0,
    readonly msg: string | null = 'success',
    /** Leave `data` out of the envelope entirely (e.g. DELETE /api/v3/order/all style acknowledgements). */
    readonly omitData = false,
  ) {}
}

/** A contract success with no `data` key (the "common response": success and code only). */
export const NO_DATA = Symbol('no-data');

export type EndpointHandler = (call: ApiCall<never>) => unknown;

/** Handlers keyed by catalogue id (`spot.newOrder`). */
export type HandlerTable = ReadonlyMap<string, EndpointHandler>;
