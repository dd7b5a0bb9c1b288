/**
 * One typed method per catalogue entry, derived from the catalogue itself: the parameter type is the
 * entry's request schema input, the result its response schema output. The object is built from the
 * catalogue at run time, so there is no hand-written wrapper to drift from the declarations.
 */
import type { z } from 'zod';
import type { EndpointDef } from '../api/endpoint.js';
import type { CallOptions, CatalogueClient } from './catalogue-client.js';

/** The method for one entry; the request argument is optional when every parameter is. */
export type CatalogueMethod<D> =
  D extends EndpointDef<infer Req, infer Res>
    ? // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{}` (not `object`) is what an all-optional or empty parameter object accepts
      {} extends z.input<Req>
      ? (req?: z.input<Req>, opts?: CallOptions) => Promise<z.output<Res>>
      : (req: z.input<Req>, opts?: CallOptions) => Promise<z.output<Res>>
    : never;

export type CatalogueMethods<C extends Record<string, EndpointDef>> = { readonly [K in keyof C]: CatalogueMethod<C[K]> };

/** Puts one method per entry on `target`; a name that would shadow a member of the client is refused. */
export function bindCatalogue(target: object, catalogue: Readonly<Record<string, EndpointDef>>, engine: CatalogueClient): void {
  for (const [name, def] of Object.entries(catalogue)) {
    if (name in target) throw new Error(`catalogue method ${name} (${def.id}) would shadow a client member`);
    Object.defineProperty(target, name, {
      value: (req?: unknown, opts?: CallOptions) => engine.call(def, req, opts),
      enumerable: true,
      writable: false,
      configurable: false,
    });
  }
}
