// Little-endian byte reading and writing shared by the binary formats. Plain Uint8Array/DataView so the
// same code runs in Node and in the browser.

/** Bounds-checked little-endian reader; every read past the end throws instead of returning garbage. */
export class ByteReader {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  /** Prefix of error messages; callers may change it to say which record is being read. */
  label: string;
  offset = 0;

  constructor(bytes: Uint8Array, label: string) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.label = label;
  }

  get remaining(): number {
    return this.bytes.length - this.offset;
  }

  /** Reserves `n` bytes and returns where they start, or throws a precise truncation error. */
  private take(n: number, what: string): number {
    if (n > this.remaining) {
      throw new Error(
        `${this.label}: truncated at offset ${this.offset}: ${what} needs ${n} bytes, ${this.remaining} left`,
      );
    }
    const at = this.offset;
    this.offset += n;
    return at;
  }

  u8(what = 'u8'): number {
    return this.view.getUint8(this.take(1, what));
  }
  u16(what = 'u16'): number {
    return this.view.getUint16(this.take(2, what), true);
  }
  i16(what = 'i16'): number {
    return this.view.getInt16(this.take(2, what), true);
  }
  u32(what = 'u32'): number {
    return this.view.getUint32(this.take(4, what), true);
  }
  i32(what = 'i32'): number {
    return this.view.getInt32(this.take(4, what), true);
  }
  /** A copy, so callers may keep it after the source buffer is reused. */
  bytesCopy(n: number, what = 'bytes'): Uint8Array {
    const at = this.take(n, what);
    return this.bytes.slice(at, at + n);
  }
  /** A view without copying, for large payloads that are consumed at once. */
  bytesView(n: number, what = 'bytes'): Uint8Array {
    const at = this.take(n, what);
    return this.bytes.subarray(at, at + n);
  }
  /** `u16 length + bytes`; bytes map 1:1 to char codes (latin1) so any byte string round-trips. */
  str(what = 'string', xor?: (i: number) => number): string {
    const raw = this.bytesView(this.u16(`${what} length`), what);
    let out = '';
    for (let i = 0; i < raw.length; i++) out += String.fromCharCode((raw[i] as number) ^ (xor ? xor(i) : 0));
    return out;
  }
}

/** Growable little-endian writer with range checks, so a bad value fails loudly instead of wrapping. */
export class ByteWriter {
  private buf = new Uint8Array(1024);
  private view = new DataView(this.buf.buffer);
  private length = 0;
  /** Prefix of error messages; callers may change it to say which record is being written. */
  label: string;

  constructor(label: string) {
    this.label = label;
  }

  /** Reserves `n` bytes and returns their offset; may replace buf and view, so call it before using them. */
  private room(n: number): number {
    if (this.length + n > this.buf.length) {
      const next = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
      next.set(this.buf.subarray(0, this.length));
      this.buf = next;
      this.view = new DataView(next.buffer);
    }
    const at = this.length;
    this.length += n;
    return at;
  }

  private check(value: number, min: number, max: number, what: string): void {
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new Error(`${this.label}: ${what} must be an integer in ${min}..${max}, got ${value}`);
    }
  }

  u8(value: number, what = 'u8'): void {
    this.check(value, 0, 0xff, what);
    const at = this.room(1);
    this.view.setUint8(at, value);
  }
  u16(value: number, what = 'u16'): void {
    this.check(value, 0, 0xffff, what);
    const at = this.room(2);
    this.view.setUint16(at, value, true);
  }
  i16(value: number, what = 'i16'): void {
    this.check(value, -0x8000, 0x7fff, what);
    const at = this.room(2);
    this.view.setInt16(at, value, true);
  }
  u32(value: number, what = 'u32'): void {
    this.check(value, 0, 0xffffffff, what);
    const at = this.room(4);
    this.view.setUint32(at, value, true);
  }
  i32(value: number, what = 'i32'): void {
    this.check(value, -0x80000000, 0x7fffffff, what);
    const at = this.room(4);
    this.view.setInt32(at, value, true);
  }
  bytes(value: Uint8Array, expectedLength?: number, what = 'bytes'): void {
    if (!(value instanceof Uint8Array)) throw new Error(`${this.label}: ${what} must be a Uint8Array`);
    if (expectedLength !== undefined && value.length !== expectedLength) {
      throw new Error(`${this.label}: ${what} must be ${expectedLength} bytes, got ${value.length}`);
    }
    const at = this.room(value.length);
    this.buf.set(value, at);
  }
  /** Counterpart of ByteReader.str: latin1 bytes, so characters above U+00FF are rejected. */
  str(value: string, what = 'string', xor?: (i: number) => number): void {
    if (typeof value !== 'string') throw new Error(`${this.label}: ${what} must be a string, got ${typeof value}`);
    this.u16(value.length, `${what} length`);
    const at = this.room(value.length);
    for (let i = 0; i < value.length; i++) {
      const code = value.charCodeAt(i);
      if (code > 0xff) throw new Error(`${this.label}: ${what} has a character above U+00FF at index ${i}`);
      this.buf[at + i] = code ^ (xor ? xor(i) : 0);
    }
  }
  /** The written bytes (a copy trimmed to length). */
  finish(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}
