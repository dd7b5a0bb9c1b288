/**
 * A test strategy that emits a named script of intents once, when every symbol it trades has a
 * snapshot. Scripts are plain functions registered here by name (parameters must be data).
 */
import 'reflect-metadata';
import { inject, injectable, optional } from 'inversify';
import { z } from 'zod';
import type { InstrumentSymbol } from '../../../src/core/ids.js';
import { STRATEGY_TOKENS } from '../../../src/strategy/strategy-tokens.js';
import type { Intent } from '../../../src/domain/intent.js';
import type { MarketSnapshot } from '../../../src/domain/snapshot.js';
import type { IntentResult, Strategy } from '../../../src/strategy/strategy.js';
import type { StrategyContext } from '../../../src/strategy/strategy-context.js';

export type Script = (ctx: StrategyContext) => Intent[];

export const SCRIPTS = new Map<string, Script>();

const params = z.strictObject({ script: z.string().min(1) });

@injectable()
export class ScriptedStrategy implements Strategy {
  static readonly strategyName = 'scripted';
  static readonly paramsSchema = params;
  private done = false;

  constructor(
    @inject(STRATEGY_TOKENS.StrategyParams) private readonly p: z.output<typeof params>,
    @inject(STRATEGY_TOKENS.StrategyInstruments) @optional() private readonly instruments: readonly InstrumentSymbol[] = [],
  ) {}

  onSnapshot(_s: MarketSnapshot, ctx: StrategyContext): IntentResult {
    if (this.done || this.instruments.some((sym) => !ctx.lastSnapshot(sym))) return;
    this.done = true;
    const script = SCRIPTS.get(this.p.script);
    if (!script) throw new Error(`no script ${this.p.script}`);
    return script(ctx);
  }
}
