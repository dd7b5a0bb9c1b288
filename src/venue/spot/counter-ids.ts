/**
 * Deterministic ids: a prefix and a counter, so the same command sequence always yields the same
 * order and trade ids (no clock, no randomness in ids). The venue keys its maps by the integer
 * sequence (cheaper than hashing strings) and shows `prefix + seq` to the outside.
 */
export class CounterIds {
  private next: number;

  constructor(
    private readonly prefix = '',
    start = 1,
  ) {
    if (!Number.isSafeInteger(start) || start < 0) throw new RangeError(`id counter start must be a safe integer ≥ 0, got ${start}`);
    this.next = start;
  }

  nextSeq(): number {
    return this.next++;
  }

  format(seq: number): string {
    return this.prefix + String(seq);
  }

  take(): string {
    return this.format(this.next++);
  }

  /** The id the next take() returns. */
  peek(): string {
    return this.format(this.next);
  }

  /** The sequence of an id this generator formats, or undefined for anything else. */
  parse(id: string): number | undefined {
    if (!id.startsWith(this.prefix)) return undefined;
    const from = this.prefix.length;
    const len = id.length - from;
    if (len < 1 || len > 16 || (len > 1 && id.charCodeAt(from) === 48)) return undefined;
    let n = 0;
    for (let i = from; i < id.length; i++) {
      const c = id.charCodeAt(i) - 48;
      if (c < 0 || c > 9) return undefined;
      n = n * 10 + c;
    }
    return Number.isSafeInteger(n) ? n : undefined;
  }
}
