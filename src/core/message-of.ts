/**
 * An error as text for a log field or a reason, written once: code catches `unknown`, and a thrown
 * non-Error (a string, a rejected plain value) must read as well as an Error.
 */

/** Its class and message (a PerpetuaError names its kind): for logs and reports that say what failed. */
export function messageOf(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return String(e);
}

/** Its message alone: for text a user reads beside a field or a rule that already says what failed. */
export function plainMessageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
