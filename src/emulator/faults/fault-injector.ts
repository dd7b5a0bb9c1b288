/**
 * Deliberate misbehaviour for the runtime's integration tests: slow answers, answers that never come
 * after the order was accepted (the client times out: outcome unknown), 5xx before or after the effect,
 * and 429s. Rules come from the config and from the test hook; probabilities draw from a seeded
 * generator so a failing run can be repeated.
 */
import type { SeededRandom } from '../../core/random.js';
import { faultRuleSchema, type FaultRule, type FaultRuleInput } from '../emulator-config.js';

interface LiveRule {
  readonly rule: FaultRule;
  seen: number;
  fired: number;
}

export interface FaultTarget {
  readonly method: string;
  readonly path: string;
  /** Catalogue id when the path is a known endpoint. */
  readonly endpointId?: string;
}

export class FaultInjector {
  private rules: LiveRule[] = [];
  private readonly fired: Record<string, number> = {};

  constructor(
    private readonly random: SeededRandom,
    rules: readonly FaultRule[] = [],
    /** Told of each fault as it is injected (the config's `faults.log`). */
    private readonly onFault?: (rule: FaultRule, target: FaultTarget) => void,
  ) {
    for (const r of rules) this.rules.push({ rule: r, seen: 0, fired: 0 });
  }

  /** Adds a rule (validated like the config's); returns a function that removes it. */
  inject(input: FaultRuleInput): () => void {
    const live: LiveRule = { rule: faultRuleSchema.parse(input), seen: 0, fired: 0 };
    this.rules.push(live);
    return () => {
      this.rules = this.rules.filter((r) => r !== live);
    };
  }

  clear(): void {
    this.rules = [];
  }

  get active(): number {
    return this.rules.length;
  }

  /** Faults injected so far, by kind (for a test's or a soak run's account of what it did). */
  get firedByKind(): Readonly<Record<string, number>> {
    return { ...this.fired };
  }

  /**
   * Each active rule with how many matching requests it has seen and how often it fired: a test that
   * waits for its faults can say which rule is still waiting for traffic.
   */
  get ruleCounts(): readonly { readonly match: string; readonly kind: string; readonly seen: number; readonly fired: number }[] {
    return this.rules.map((l) => ({ match: l.rule.match, kind: l.rule.kind, seen: l.seen, fired: l.fired }));
  }

  /** The fault for this request, if any: the first matching rule whose turn it is. */
  pick(target: FaultTarget): FaultRule | undefined {
    if (this.rules.length === 0) return undefined;
    for (const live of this.rules) {
      const r = live.rule;
      if (r.method && r.method !== target.method) continue;
      if (r.match !== '*' && r.match !== target.endpointId && r.match !== target.path) continue;
      live.seen++;
      if (live.seen <= r.skip) continue;
      if (r.times !== undefined && live.fired >= r.times) continue;
      if (r.probability < 1 && this.random.next() >= r.probability) continue;
      live.fired++;
      this.fired[r.kind] = (this.fired[r.kind] ?? 0) + 1;
      this.onFault?.(r, target);
      return r;
    }
    return undefined;
  }
}
