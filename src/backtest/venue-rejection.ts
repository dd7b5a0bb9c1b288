/**
 * The error a simulated venue answers a refused request with: the taxonomy error the real client
 * would throw for the same venue code (client/venue-error-map.ts), built WITHOUT a stack trace.
 * A refusal is the venue's answer, not a fault in our code: its stack says nothing, and capturing one
 * was the costliest part of a rejected order in a backtest (a market maker's post-only quotes that
 * would cross are refused hundreds of times a run).
 */
import type { PerpetuaError } from '../core/errors.js';
import { venueError } from '../client/venue-error-map.js';

export function venueRejection(kind: 'spot' | 'contract', code: number, message: string, endpoint: string): PerpetuaError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return venueError(kind, code, message, { venueCode: code, endpoint }).error;
  } finally {
    Error.stackTraceLimit = limit;
  }
}
