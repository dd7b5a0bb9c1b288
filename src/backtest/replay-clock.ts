/**
 * The backtest's clock: core VirtualClock exactly (timers fire in (time, creation) order before the
 * clock reaches a target, intervals re-arm one period later, the clock never goes back, and the
 * earliest timer time is kept at hand so moving to each record's time is a comparison). Its own name
 * keeps the backtest's errors and stack traces saying which clock refused.
 */
import { VirtualClock } from '../core/clock.js';

export class ReplayClock extends VirtualClock {}
