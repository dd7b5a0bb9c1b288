/**
 * Strategies by name. Classes are registered (through the container: one STRATEGY_TOKENS.StrategyClass binding
 * per class, or register() directly) and created by name from config: the parameters are validated by
 * the class's zod schema, then the class is resolved in a child container that binds its parameters
 * and id, so its other constructor dependencies come from the app's container.
 */
import 'reflect-metadata';
import { Container, injectable, multiInject, optional } from 'inversify';
import { ConfigError } from '../core/errors.js';
import type { StrategyId } from '../core/ids.js';
import { STRATEGY_TOKENS } from './strategy-tokens.js';
import type { Strategy, StrategyClass } from './strategy.js';

export interface StrategyConfig {
  /** Unique id of this strategy instance (journal, client-id tag, limits). */
  readonly id: string;
  /** Registered strategy name. */
  readonly name: string;
  readonly params?: unknown;
}

export interface CreatedStrategy<P = unknown> {
  readonly id: StrategyId;
  readonly name: string;
  readonly strategy: Strategy;
  readonly params: P;
}

@injectable()
export class StrategyRegistry {
  private readonly classes = new Map<string, StrategyClass>();

  constructor(@multiInject(STRATEGY_TOKENS.StrategyClass) @optional() classes: readonly StrategyClass[] = []) {
    for (const c of classes ?? []) this.register(c);
  }

  register(cls: StrategyClass): void {
    const name = cls.strategyName;
    if (!name || !/^[a-z0-9][a-z0-9-]*$/.test(name))
      throw new ConfigError(
        'strategies',
        `strategy class ${cls.name} needs a static strategyName of [a-z0-9-], got ${JSON.stringify(name)}`,
      );
    const existing = this.classes.get(name);
    if (existing && existing !== cls)
      throw new ConfigError(
        'strategies',
        `two strategy classes are registered as ${JSON.stringify(name)}: ${existing.name} and ${cls.name}`,
      );
    this.classes.set(name, cls);
  }

  has(name: string): boolean {
    return this.classes.has(name);
  }

  get(name: string): StrategyClass | undefined {
    return this.classes.get(name);
  }

  names(): string[] {
    return [...this.classes.keys()].sort();
  }

  /** Validates params with the class's schema; ConfigError names the path and what was expected. */
  parseParams<P>(cfg: StrategyConfig, path = `strategies.${cfg.id}`): P {
    const cls = this.requireClass(cfg.name, path);
    const r = cls.paramsSchema.safeParse(cfg.params ?? {});
    if (!r.success) {
      const first = r.error.issues[0]!;
      const where = [path, 'params', ...first.path.map(String)].join('.');
      throw new ConfigError(where, first.message);
    }
    return r.data as P;
  }

  /** Creates the strategy through `container` (a child container per strategy). */
  create<P = unknown>(container: Container, cfg: StrategyConfig, path = `strategies.${cfg.id}`): CreatedStrategy<P> {
    const cls = this.requireClass(cfg.name, path);
    const params = this.parseParams<P>(cfg, path);
    const child = new Container({ parent: container });
    child.bind(STRATEGY_TOKENS.StrategyParams).toConstantValue(params);
    child.bind(STRATEGY_TOKENS.StrategyId).toConstantValue(cfg.id as StrategyId);
    child.bind(cls).toSelf().inSingletonScope();
    const strategy = child.get<Strategy>(cls);
    return { id: cfg.id as StrategyId, name: cfg.name, strategy, params };
  }

  private requireClass(name: string, path: string): StrategyClass {
    const cls = this.classes.get(name);
    if (!cls)
      throw new ConfigError(`${path}.name`, `unknown strategy ${JSON.stringify(name)}; registered: ${this.names().join(', ') || '(none)'}`);
    return cls;
  }
}
