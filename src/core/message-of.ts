/**
 * An error as text for a log field or a reason, written once: code catches `unknown`, and a thrown
 * non-Error (a string, a rejected plain value) must read as well as an Error.
 */

import { PerpetuaError } from './errors.js';

/** Its class and message (a PerpetuaError names its kind): for logs and reports that say what failed. */
export function messageOf(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return String(e);
}

/** Its message alone: for text a user reads beside a field or a rule that already says what failed. */
export function plainMessageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * A reason for an event the strategy and the journal keep: our own errors by their message alone (it
 * names the field, the rule or the venue code), anything else — a defect, a library's error — with its
 * class, which is what tells the two apart.
 */
export function reasonOf(e: unknown): string {
  return e instanceof PerpetuaError ? e.message : messageOf(e);
}
