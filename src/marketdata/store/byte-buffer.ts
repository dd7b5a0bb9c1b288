/**
 * Growable byte writer and a cursor reader with the varint forms the chunk columns use.
 *
 * Integers are JS numbers up to 2^53 (times in ms, update ids, trade ids): plain bit operations only
 * reach 32 bits, so the wide path divides by 128 instead of shifting. Signed values use a
 * SIGN-MAGNITUDE varint (bit 0 of the first byte is the sign) rather than the usual zigzag, because
 * zigzag doubles the magnitude and a delta near ±2^53 would no longer be exact as a double.
 */
const TWO_POW_31 = 2 ** 31;
const TEXT = new TextEncoder();
const UTF8 = new TextDecoder('utf-8', { fatal: true });

export class ByteWriter {
  buf: Uint8Array;
  pos = 0;

  constructor(initial = 4096) {
    this.buf = new Uint8Array(initial);
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  u8(v: number): void {
    this.ensure(1);
    this.buf[this.pos++] = v;
  }

  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** Unsigned varint of a safe non-negative integer. */
  uv(v: number): void {
    this.ensure(8);
    const buf = this.buf;
    let p = this.pos;
    if (v < TWO_POW_31) {
      while (v >= 0x80) {
        buf[p++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      buf[p++] = v;
    } else {
      while (v >= 0x80) {
        buf[p++] = (v % 128) | 0x80;
        v = Math.floor(v / 128);
      }
      buf[p++] = v;
    }
    this.pos = p;
  }

  /** Signed varint (sign-magnitude) of a safe integer. */
  sv(v: number): void {
    this.ensure(8);
    const buf = this.buf;
    let p = this.pos;
    const neg = v < 0 ? 1 : 0;
    let m = neg ? -v : v;
    if (m < TWO_POW_31) {
      if (m < 0x40) {
        buf[p++] = (m << 1) | neg;
      } else {
        buf[p++] = ((m & 0x3f) << 1) | neg | 0x80;
        m >>>= 6;
        while (m >= 0x80) {
          buf[p++] = (m & 0x7f) | 0x80;
          m >>>= 7;
        }
        buf[p++] = m;
      }
    } else {
      buf[p++] = ((m % 64) << 1) | neg | 0x80;
      m = Math.floor(m / 64);
      while (m >= 0x80) {
        buf[p++] = (m % 128) | 0x80;
        m = Math.floor(m / 128);
      }
      buf[p++] = m;
    }
    this.pos = p;
  }

  f64(v: number): void {
    this.ensure(8);
    new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8).setFloat64(0, v, true);
    this.pos += 8;
  }

  /** Length-prefixed UTF-8. */
  str(s: string): void {
    const b = TEXT.encode(s);
    this.uv(b.length);
    this.bytes(b);
  }

  /** One bit per value, LSB first. */
  bits(values: ArrayLike<boolean>): void {
    const n = values.length;
    const nb = (n + 7) >> 3;
    this.ensure(nb);
    const buf = this.buf;
    const p = this.pos;
    buf.fill(0, p, p + nb);
    for (let i = 0; i < n; i++) if (values[i]) buf[p + (i >> 3)]! |= 1 << (i & 7);
    this.pos += nb;
  }

  finish(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }
}

/** Thrown by ByteReader when a column runs past its buffer: the payload is not what its writer wrote. */
export class TruncatedPayload extends Error {}

export class ByteReader {
  pos = 0;

  constructor(readonly buf: Uint8Array) {}

  get done(): boolean {
    return this.pos >= this.buf.length;
  }

  private need(n: number): void {
    if (this.pos + n > this.buf.length) throw new TruncatedPayload(`payload ends at ${this.buf.length}, needed ${this.pos + n}`);
  }

  u8(): number {
    this.need(1);
    return this.buf[this.pos++]!;
  }

  bytes(n: number): Uint8Array {
    this.need(n);
    const b = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }

  uv(): number {
    const buf = this.buf;
    let p = this.pos;
    if (p >= buf.length) throw new TruncatedPayload('varint runs past the payload');
    let b = buf[p++]!;
    if (b < 0x80) {
      this.pos = p;
      return b;
    }
    let v = b & 0x7f;
    let shift = 7;
    let mul = 128;
    for (;;) {
      if (p >= buf.length) throw new TruncatedPayload('varint runs past the payload');
      b = buf[p++]!;
      if (shift < 28) v |= (b & 0x7f) << shift;
      else v += (b & 0x7f) * mul;
      if (b < 0x80) break;
      shift += 7;
      mul *= 128;
      if (shift > 63) throw new TruncatedPayload('varint longer than 9 bytes');
    }
    this.pos = p;
    return v;
  }

  sv(): number {
    const buf = this.buf;
    let p = this.pos;
    if (p >= buf.length) throw new TruncatedPayload('varint runs past the payload');
    let b = buf[p++]!;
    const neg = b & 1;
    let m = (b & 0x7e) >> 1;
    if (b >= 0x80) {
      let mul = 64;
      for (;;) {
        if (p >= buf.length) throw new TruncatedPayload('varint runs past the payload');
        b = buf[p++]!;
        m += (b & 0x7f) * mul;
        if (b < 0x80) break;
        mul *= 128;
        if (mul > 2 ** 63) throw new TruncatedPayload('varint longer than 9 bytes');
      }
    }
    this.pos = p;
    return neg ? -m : m;
  }

  f64(): number {
    this.need(8);
    const v = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8).getFloat64(0, true);
    this.pos += 8;
    return v;
  }

  str(): string {
    const n = this.uv();
    return UTF8.decode(this.bytes(n));
  }

  bits(n: number): boolean[] {
    const nb = (n + 7) >> 3;
    this.need(nb);
    const out = new Array<boolean>(n);
    const buf = this.buf;
    const p = this.pos;
    for (let i = 0; i < n; i++) out[i] = (buf[p + (i >> 3)]! & (1 << (i & 7))) !== 0;
    this.pos += nb;
    return out;
  }
}
