/**
 * The emulator's handler table, built from the handler modules with ONE handler per endpoint: a second
 * registration of an id is refused (ConfigError naming both modules) instead of silently replacing the
 * first, which is how stale copies of fee and trigger handlers once survived unnoticed behind newer
 * ones. Ids the catalogue does not know are refused too (a typo would otherwise never be routed).
 */
import { ConfigError } from '../../core/errors.js';
import type { EndpointHandler, HandlerTable } from './handler.js';

export class HandlerRegistry {
  private readonly handlers = new Map<string, EndpointHandler>();
  private readonly owners = new Map<string, string>();

  /** @param known catalogue ids; when given, any other id is refused. */
  constructor(private readonly known?: ReadonlySet<string>) {}

  /** Registers every handler of one module (`module` names it in errors). */
  add(module: string, handlers: Readonly<Record<string, EndpointHandler>>): this {
    for (const [id, handler] of Object.entries(handlers)) {
      const owner = this.owners.get(id);
      if (owner !== undefined)
        throw new ConfigError(
          `handlers.${id}`,
          `expected one handler per endpoint; ${id} is registered by ${owner} and again by ${module}`,
        );
      if (this.known && !this.known.has(id))
        throw new ConfigError(
          `handlers.${id}`,
          `expected a catalogue endpoint id; ${module} registers ${id}, which the catalogue does not list`,
        );
      this.handlers.set(id, handler);
      this.owners.set(id, module);
    }
    return this;
  }

  /** The module that registered an id. */
  ownerOf(id: string): string | undefined {
    return this.owners.get(id);
  }

  ids(): string[] {
    return [...this.handlers.keys()];
  }

  table(): HandlerTable {
    return new Map(this.handlers);
  }
}
