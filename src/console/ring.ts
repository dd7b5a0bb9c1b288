/** A bounded list that forgets its oldest entries: what the console keeps of fills, denials and logs. */
export class Ring<T> {
  private items: T[] = [];

  constructor(private readonly capacity: number) {}

  push(item: T): void {
    this.items.push(item);
    // Trim in chunks: one splice per capacity/4 pushes, not one shift per push.
    if (this.items.length > this.capacity + (this.capacity >> 2)) this.items = this.items.slice(-this.capacity);
  }

  /** The newest `limit` entries, oldest first. */
  last(limit = this.capacity): T[] {
    return this.items.slice(-Math.min(limit, this.capacity));
  }
}
