/**
 * Method + path → catalogue entry. Paths come from the catalogues (`/api/v1/contract/depth/{symbol}`);
 * a literal segment beats a placeholder, so `/funding_rate/history` is not taken as a symbol.
 */
import type { EndpointDef, HttpMethod } from '../../api/endpoint.js';

interface Route {
  readonly def: EndpointDef;
  readonly segments: readonly string[];
  /** Index → parameter name for `{name}` segments. */
  readonly params: ReadonlyMap<number, string>;
  readonly literalCount: number;
}

export type RouteMatch =
  | { readonly kind: 'found'; readonly def: EndpointDef; readonly pathParams: Readonly<Record<string, string>> }
  | { readonly kind: 'method-not-allowed'; readonly allowed: readonly HttpMethod[] }
  | { readonly kind: 'not-found' };

/** The path parameters of every exact route (one frozen object: a caller may test for it by identity). */
export const NO_PATH_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

export class RouteTable {
  /** Exact paths without placeholders: path → method → def. */
  private readonly exact = new Map<string, Map<HttpMethod, EndpointDef>>();
  /** Templated routes grouped by segment count. */
  private readonly templated = new Map<number, Route[]>();

  constructor(defs: Iterable<EndpointDef>) {
    for (const def of defs) this.add(def);
  }

  add(def: EndpointDef): void {
    if (!def.path.includes('{')) {
      let byMethod = this.exact.get(def.path);
      if (!byMethod) this.exact.set(def.path, (byMethod = new Map()));
      if (!byMethod.has(def.method)) byMethod.set(def.method, def);
      return;
    }
    const segments = def.path.split('/');
    const params = new Map<number, string>();
    segments.forEach((s, i) => {
      const m = /^\{(\w+)\}$/.exec(s);
      if (m) params.set(i, m[1]!);
    });
    const route: Route = { def, segments, params, literalCount: segments.length - params.size };
    const list = this.templated.get(segments.length) ?? [];
    list.push(route);
    // Most literal segments first: the first match is the most specific one.
    list.sort((a, b) => b.literalCount - a.literalCount);
    this.templated.set(segments.length, list);
  }

  match(method: string, path: string): RouteMatch {
    const exact = this.exact.get(path);
    if (exact) {
      // The placement paths are exact: answered without building the allowed-method set.
      const def = exact.get(method as HttpMethod);
      if (def) return { kind: 'found', def, pathParams: NO_PATH_PARAMS };
    }
    const allowed = new Set<HttpMethod>(exact?.keys());
    const segments = path.split('/');
    for (const route of this.templated.get(segments.length) ?? []) {
      const pathParams = matchSegments(route, segments);
      if (!pathParams) continue;
      if (route.def.method === method) return { kind: 'found', def: route.def, pathParams };
      allowed.add(route.def.method);
    }
    return allowed.size ? { kind: 'method-not-allowed', allowed: [...allowed] } : { kind: 'not-found' };
  }
}

function matchSegments(route: Route, segments: readonly string[]): Record<string, string> | undefined {
  let out: Record<string, string> | undefined;
  for (let i = 0; i < segments.length; i++) {
    const name = route.params.get(i);
    const seg = segments[i]!;
    if (name === undefined) {
      if (seg !== route.segments[i]) return undefined;
      continue;
    }
    if (seg === '') return undefined;
    let value: string;
    try {
      value = decodeURIComponent(seg);
    } catch {
      return undefined;
    }
    (out ??= {})[name] = value;
  }
  return out ?? {};
}
