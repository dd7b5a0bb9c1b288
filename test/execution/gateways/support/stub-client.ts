/**
 * A hand-written client stub: each method answers through a handler the test supplies (given the
 * request, returning the parsed payload or throwing a taxonomy error), and every call is recorded.
 * Answers are parsed with the catalogue's response schema, so they have the client's exact types.
 */
import type { EndpointDef } from '../../../../src/api/endpoint.js';

export interface RecordedCall {
  readonly method: string;
  readonly req: unknown;
}

export type Handler = (req: unknown, n: number) => unknown;

export class StubClient<T> {
  readonly calls: RecordedCall[] = [];
  private readonly handlers = new Map<string, Handler>();

  constructor(private readonly catalogue: Readonly<Record<string, EndpointDef>>) {}

  /** Answers `method` with `wire` (an object as the venue sends it, parsed by the catalogue), or a function of the request. */
  on(method: string, answer: Handler): this;
  on(method: string, answer: unknown): this;
  on(method: string, answer: unknown): this {
    this.handlers.set(method, typeof answer === 'function' ? (answer as Handler) : () => answer);
    return this;
  }

  callsOf(method: string): unknown[] {
    return this.calls.filter((c) => c.method === method).map((c) => c.req);
  }

  get client(): T {
    return new Proxy({} as Record<string, unknown>, {
      get: (_t, prop: string) => {
        if (prop === 'then') return undefined;
        return async (req: unknown) => {
          this.calls.push({ method: prop, req });
          const h = this.handlers.get(prop);
          if (!h) throw new Error(`stub: no answer for ${prop}`);
          const wire = h(req, this.calls.filter((c) => c.method === prop).length);
          const def = this.catalogue[prop];
          return def ? def.response.parse(await wire) : wire;
        };
      },
    }) as T;
  }
}
