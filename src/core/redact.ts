/**
 * Secrets never leak: every string that leaves through a log, an error, a report or the journal can
 * be passed through a Redactor that knows the live secrets and replaces them.
 */
export class Redactor {
  private readonly secrets = new Set<string>();

  register(...values: (string | undefined)[]): void {
    for (const v of values) if (v && v.length >= 4) this.secrets.add(v);
  }

  redact(text: string): string {
    let out = text;
    for (const s of this.secrets) if (out.includes(s)) out = out.split(s).join(mask(s));
    return out;
  }

  redactValue<T>(value: T): T {
    return JSON.parse(this.redact(JSON.stringify(value))) as T;
  }
}

/** Shows only enough of a key to tell keys apart: `mx0v…ab12`. */
export function mask(secret: string): string {
  if (secret.length <= 8) return '***';
  return `${secret.slice(0, 4)}…${secret.slice(-2)}`;
}

/** Header and parameter names whose values must never be printed. */
export const SENSITIVE_NAMES = new Set(['x-mexc-apikey', 'apikey', 'signature', 'secret', 'secretkey', 'apisecret', 'api_secret']);

export function redactRecord(rec: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rec)) out[k] = SENSITIVE_NAMES.has(k.toLowerCase()) ? '***' : v;
  return out;
}

/** One process-wide redactor: secrets are registered as config is loaded. */
export const globalRedactor = new Redactor();
