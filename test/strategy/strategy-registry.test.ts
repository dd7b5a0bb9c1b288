import 'reflect-metadata';
import { expect } from 'chai';
import { Container, inject, injectable } from 'inversify';
import { z } from 'zod';
import { type Clock, VirtualClock } from '../../src/core/clock.js';
import { ConfigError } from '../../src/core/errors.js';
import type { StrategyId } from '../../src/core/ids.js';
import { CORE_TOKENS } from '../../src/core/core-tokens.js';
import { STRATEGY_TOKENS } from '../../src/strategy/strategy-tokens.js';
import type { MarketSnapshot } from '../../src/domain/snapshot.js';
import type { Strategy } from '../../src/strategy/strategy.js';
import type { StrategyContext } from '../../src/strategy/strategy-context.js';
import { StrategyRegistry } from '../../src/strategy/strategy-registry.js';

const EchoParams = z.strictObject({ spread: z.number().positive(), size: z.string().default('0.1') });
type EchoParams = z.infer<typeof EchoParams>;

@injectable()
class EchoStrategy implements Strategy {
  static readonly strategyName = 'echo';
  static readonly paramsSchema = EchoParams;
  constructor(
    @inject(STRATEGY_TOKENS.StrategyParams) readonly params: EchoParams,
    @inject(STRATEGY_TOKENS.StrategyId) readonly id: StrategyId,
    @inject(CORE_TOKENS.Clock) readonly clock: Clock,
  ) {}
  onSnapshot(s: MarketSnapshot, ctx: StrategyContext) {
    return [ctx.intents.limit(s.symbol, 'buy', '1', this.params.size)];
  }
}

@injectable()
class OtherStrategy implements Strategy {
  static readonly strategyName: string = 'other';
  static readonly paramsSchema = z.strictObject({});
  onSnapshot() {
    return [];
  }
}

function container(): Container {
  const c = new Container();
  c.bind(CORE_TOKENS.Clock).toConstantValue(new VirtualClock(5));
  c.bind(STRATEGY_TOKENS.StrategyClass).toConstantValue(EchoStrategy);
  c.bind(STRATEGY_TOKENS.StrategyClass).toConstantValue(OtherStrategy);
  c.bind(STRATEGY_TOKENS.StrategyRegistry).to(StrategyRegistry).inSingletonScope();
  return c;
}

describe('StrategyRegistry', () => {
  it('collects_every_strategy_class_bound_in_the_container', () => {
    expect(container().get(STRATEGY_TOKENS.StrategyRegistry).names()).to.deep.equal(['echo', 'other']);
  });

  it('creates_a_strategy_by_name_with_validated_params_and_injected_services', () => {
    const c = container();
    const created = c.get(STRATEGY_TOKENS.StrategyRegistry).create<EchoParams>(c, { id: 'echo-btc', name: 'echo', params: { spread: 2 } });
    const s = created.strategy as EchoStrategy;
    expect(s).to.be.instanceOf(EchoStrategy);
    expect(s.params).to.deep.equal({ spread: 2, size: '0.1' });
    expect([s.id, s.clock.now()]).to.deep.equal(['echo-btc', 5]);
  });

  it('gives_each_instance_its_own_params', () => {
    const c = container();
    const r = c.get(STRATEGY_TOKENS.StrategyRegistry);
    const a = r.create(c, { id: 'a', name: 'echo', params: { spread: 1 } }).strategy as EchoStrategy;
    const b = r.create(c, { id: 'b', name: 'echo', params: { spread: 3 } }).strategy as EchoStrategy;
    expect([a.params.spread, b.params.spread, a.id, b.id]).to.deep.equal([1, 3, 'a', 'b']);
  });

  it('names_the_config_path_of_a_bad_parameter', () => {
    const c = container();
    try {
      c.get(STRATEGY_TOKENS.StrategyRegistry).create(c, { id: 'x', name: 'echo', params: { spread: -1 } });
      expect.fail('should throw');
    } catch (e) {
      expect(e).to.be.instanceOf(ConfigError);
      expect((e as ConfigError).path).to.equal('strategies.x.params.spread');
    }
  });

  it('rejects_unknown_parameter_keys', () => {
    const c = container();
    expect(() => c.get(STRATEGY_TOKENS.StrategyRegistry).create(c, { id: 'x', name: 'echo', params: { spread: 1, sprd: 2 } })).to.throw(
      ConfigError,
    );
  });

  it('lists_the_registered_names_for_an_unknown_strategy', () => {
    const c = container();
    expect(() => c.get(STRATEGY_TOKENS.StrategyRegistry).create(c, { id: 'x', name: 'nope' })).to.throw(
      ConfigError,
      /unknown strategy "nope"; registered: echo, other/,
    );
  });

  it('refuses_two_classes_under_one_name_and_bad_names', () => {
    const r = new StrategyRegistry([EchoStrategy]);
    class Impostor extends OtherStrategy {
      static override readonly strategyName = 'echo';
    }
    expect(() => r.register(Impostor)).to.throw(ConfigError);
    class Bad extends OtherStrategy {
      static override readonly strategyName = 'Bad Name';
    }
    expect(() => r.register(Bad)).to.throw(ConfigError);
  });

  it('can_be_built_without_a_container', () => {
    expect(new StrategyRegistry().names()).to.deep.equal([]);
    const s = new EchoStrategy({ spread: 1, size: '2' }, 'id' as StrategyId, new VirtualClock(0));
    expect(s.params.size).to.equal('2');
  });
});
