/** An error as one log field of the runtime's parts: its class and message (a PerpetuaError names its kind). */
export function messageOf(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return String(e);
}
