// A bounds-checked little-endian cursor over a message: every read past the end throws, naming what was read.

/** A decode that ran past the end, met a value it does not know, or left bytes over. */
export class DecodeError extends Error {
  override name = 'DecodeError';
}

/** Reads fields in order; `what` names the field in the error when the data ends too soon. */
export class Reader {
  pos = 0;
  readonly data: Buffer;
  private readonly context: string;

  constructor(data: Buffer, context: string) {
    this.data = data;
    this.context = context;
  }

  get left(): number {
    return this.data.length - this.pos;
  }

  /** Throws a DecodeError unless `n` more bytes are there. */
  need(n: number, what: string): void {
    if (n > this.left) {
      throw new DecodeError(
        `${this.context}: ${what} needs ${n} bytes at offset ${this.pos}, only ${this.left} left of ${this.data.length}`,
      );
    }
  }

  u8(what: string): number {
    this.need(1, what);
    return this.data.readUInt8(this.pos++);
  }

  u16(what: string): number {
    this.need(2, what);
    const v = this.data.readUInt16LE(this.pos);
    this.pos += 2;
    return v;
  }

  u32(what: string): number {
    this.need(4, what);
    const v = this.data.readUInt32LE(this.pos);
    this.pos += 4;
    return v;
  }

  i32(what: string): number {
    this.need(4, what);
    const v = this.data.readInt32LE(this.pos);
    this.pos += 4;
    return v;
  }

  f32(what: string): number {
    this.need(4, what);
    const v = this.data.readFloatLE(this.pos);
    this.pos += 4;
    return v;
  }

  /** A `u16 length + bytes` string (latin1: the game's strings are single-byte). */
  str16(what: string): string {
    const n = this.u16(`${what} length`);
    this.need(n, what);
    const s = this.data.toString('latin1', this.pos, this.pos + n);
    this.pos += n;
    return s;
  }

  /** `n` bytes that must all be zero (the layout's gaps): a non-zero byte means the layout is not the one expected. */
  zeros(n: number, what: string): void {
    this.need(n, what);
    for (let i = 0; i < n; i++) {
      if (this.data[this.pos + i] !== 0) {
        throw new DecodeError(
          `${this.context}: ${what} (${n} zero bytes) holds 0x${this.data[this.pos + i]?.toString(16)} at offset ${this.pos + i}`,
        );
      }
    }
    this.pos += n;
  }

  /** Throws unless every byte was read: a layout that ends early or late is a wrong layout. */
  end(): void {
    if (this.left !== 0) {
      throw new DecodeError(
        `${this.context}: ${this.left} bytes left over at offset ${this.pos} of ${this.data.length}`,
      );
    }
  }
}
