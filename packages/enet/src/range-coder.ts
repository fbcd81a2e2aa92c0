// ENet's adaptive order-2 PPM range coder (the compressor Growtopia's ENet switches on), written from its model:
// a root context where every byte has a baseline count of 1 plus up to two sub-contexts (the previous bytes),
// each a binary tree of symbols; escapes fall back from a sub-context to its parent and finally to the root.
// Every field is a fixed-width unsigned integer in the model, so the typed arrays below keep the same wrapping.

const TOP = 1 << 24;
const BOTTOM = 1 << 16;
const CONTEXT_SYMBOL_DELTA = 3;
const CONTEXT_SYMBOL_MINIMUM = 1;
const CONTEXT_ESCAPE_MINIMUM = 1;
const SUBCONTEXT_ORDER = 2;
const SUBCONTEXT_SYMBOL_DELTA = 2;
const SUBCONTEXT_ESCAPE_DELTA = 5;
const SYMBOL_CAPACITY = 4096;

/** The model's symbol table: one slot per tree node, each also the head of the context it defines. */
class SymbolTable {
  readonly value = new Uint8Array(SYMBOL_CAPACITY);
  readonly count = new Uint8Array(SYMBOL_CAPACITY);
  readonly under = new Uint16Array(SYMBOL_CAPACITY);
  readonly left = new Uint16Array(SYMBOL_CAPACITY);
  readonly right = new Uint16Array(SYMBOL_CAPACITY);
  readonly symbols = new Uint16Array(SYMBOL_CAPACITY);
  readonly escapes = new Uint16Array(SYMBOL_CAPACITY);
  readonly total = new Uint16Array(SYMBOL_CAPACITY);
  readonly parent = new Uint16Array(SYMBOL_CAPACITY);
  next = 0;

  /** Empties the table for the next datagram; every slot is written again by `create` before it is read. */
  reset(): SymbolTable {
    this.next = 0;
    return this;
  }

  create(value: number, count: number): number {
    const s = this.next++;
    if (s >= SYMBOL_CAPACITY) throw new RangeError('range coder symbol table overflow');
    this.value[s] = value;
    this.count[s] = count;
    this.under[s] = count;
    this.left[s] = 0;
    this.right[s] = 0;
    this.symbols[s] = 0;
    this.escapes[s] = 0;
    this.total[s] = 0;
    this.parent[s] = 0;
    return s;
  }

  createContext(escapes: number, minimum: number): number {
    const c = this.create(0, 0);
    this.escapes[c] = escapes;
    this.total[c] = escapes + 256 * minimum;
    return c;
  }

  /** Halves the counts of a subtree (walking right iteratively, left recursively); returns its new total. */
  rescaleSymbols(start: number): number {
    let s = start;
    let total = 0;
    for (;;) {
      this.count[s] = g(this.count, s) - (g(this.count, s) >> 1);
      this.under[s] = g(this.count, s);
      if (this.left[s]) this.under[s] = g(this.under, s) + this.rescaleSymbols(s + g(this.left, s));
      total += g(this.under, s);
      if (!this.right[s]) break;
      s += g(this.right, s);
    }
    return total;
  }

  rescaleContext(c: number, minimum: number): void {
    this.total[c] = this.symbols[c] ? this.rescaleSymbols(c + g(this.symbols, c)) : 0;
    this.escapes[c] = g(this.escapes, c) - (g(this.escapes, c) >> 1);
    this.total[c] = g(this.total, c) + g(this.escapes, c) + 256 * minimum;
  }

  /** Finds or inserts `value` in context `c`, bumping counts by `update`; returns its slot, under and count. */
  encodeIn(
    c: number,
    value: number,
    update: number,
    minimum: number,
  ): { symbol: number; under: number; count: number } {
    let under = value * minimum;
    let count = minimum;
    if (!this.symbols[c]) {
      const symbol = this.create(value, update);
      this.symbols[c] = symbol - c;
      return { symbol, under: under & 0xffff, count };
    }
    let node = c + g(this.symbols, c);
    for (;;) {
      const nodeValue = g(this.value, node);
      if (value < nodeValue) {
        this.under[node] = g(this.under, node) + update;
        if (this.left[node]) {
          node += g(this.left, node);
          continue;
        }
        const symbol = this.create(value, update);
        this.left[node] = symbol - node;
        return { symbol, under: under & 0xffff, count };
      }
      if (value > nodeValue) {
        under += g(this.under, node);
        if (this.right[node]) {
          node += g(this.right, node);
          continue;
        }
        const symbol = this.create(value, update);
        this.right[node] = symbol - node;
        return { symbol, under: under & 0xffff, count };
      }
      count += g(this.count, node);
      under += g(this.under, node) - g(this.count, node);
      this.under[node] = g(this.under, node) + update;
      this.count[node] = g(this.count, node) + update;
      return { symbol: node, under: under & 0xffff, count: count & 0xffff };
    }
  }
}

/** One table for every call: coding is synchronous, and a fresh table is 60 KB of typed arrays per datagram. */
const TABLE = new SymbolTable();

/** Compresses `input` the way ENet's range coder does; returns null when the output would exceed `limit`. */
export function rangeEncode(input: Uint8Array, limit = input.length * 2 + 16): Buffer | null {
  if (input.length === 0) return null;
  const t = TABLE.reset();
  const out = Buffer.allocUnsafe(limit); // only the written part is returned
  let outPos = 0;
  let low = 0;
  let range = 0xffffffff;
  let root = t.createContext(CONTEXT_ESCAPE_MINIMUM, CONTEXT_SYMBOL_MINIMUM);
  let predicted = 0;
  let order = 0;

  const emit = (): boolean => {
    if (outPos >= limit) return false;
    out[outPos++] = low >>> 24;
    return true;
  };
  const encode = (under: number, count: number, total: number): boolean => {
    range = Math.floor(range / total) >>> 0;
    low = (low + under * range) >>> 0;
    range = (range * count) >>> 0;
    for (;;) {
      if ((low ^ ((low + range) >>> 0)) >>> 0 >= TOP) {
        if (range >= BOTTOM) break;
        range = -low & (BOTTOM - 1);
      }
      if (!emit()) return false;
      range = (range << 8) >>> 0;
      low = (low << 8) >>> 0;
    }
    return true;
  };

  for (const value of input) {
    // `setParent` writes the link that chains each context's new symbol to the next (shorter) context.
    let setParent = (s: number) => {
      predicted = s;
    };
    let done = false;
    for (let sub = predicted; sub !== root; sub = g(t.parent, sub)) {
      const { symbol, under, count } = t.encodeIn(sub, value, SUBCONTEXT_SYMBOL_DELTA, 0);
      setParent(symbol);
      setParent = (s) => {
        t.parent[symbol] = s;
      };
      const total = g(t.total, sub);
      if (count > 0) {
        if (!encode(g(t.escapes, sub) + under, count, total)) return null;
      } else {
        if (g(t.escapes, sub) > 0 && g(t.escapes, sub) < total && !encode(0, g(t.escapes, sub), total)) return null;
        t.escapes[sub] = g(t.escapes, sub) + SUBCONTEXT_ESCAPE_DELTA;
        t.total[sub] = g(t.total, sub) + SUBCONTEXT_ESCAPE_DELTA;
      }
      t.total[sub] = g(t.total, sub) + SUBCONTEXT_SYMBOL_DELTA;
      if (count > 0xff - 2 * SUBCONTEXT_SYMBOL_DELTA || g(t.total, sub) > BOTTOM - 0x100) t.rescaleContext(sub, 0);
      if (count > 0) {
        done = true;
        break;
      }
    }
    if (!done) {
      const { symbol, under, count } = t.encodeIn(root, value, CONTEXT_SYMBOL_DELTA, CONTEXT_SYMBOL_MINIMUM);
      setParent(symbol);
      if (!encode(g(t.escapes, root) + under, count, g(t.total, root))) return null;
      t.total[root] = g(t.total, root) + CONTEXT_SYMBOL_DELTA;
      if (count > 0xff - 2 * CONTEXT_SYMBOL_DELTA + CONTEXT_SYMBOL_MINIMUM || g(t.total, root) > BOTTOM - 0x100) {
        t.rescaleContext(root, CONTEXT_SYMBOL_MINIMUM);
      }
    }
    if (order >= SUBCONTEXT_ORDER) predicted = g(t.parent, predicted);
    else order++;
    if (t.next >= SYMBOL_CAPACITY - SUBCONTEXT_ORDER) {
      t.next = 0;
      root = t.createContext(CONTEXT_ESCAPE_MINIMUM, CONTEXT_SYMBOL_MINIMUM);
      predicted = 0;
      order = 0;
    }
  }
  while (low) {
    if (!emit()) return null;
    low = (low << 8) >>> 0;
  }
  return out.subarray(0, outPos);
}

/** Decompresses ENet range-coded bytes; returns null on corrupt input or when the output exceeds `limit`. */
export function rangeDecode(input: Uint8Array, limit: number): Buffer | null {
  if (input.length === 0) return null;
  const t = TABLE.reset();
  const out = Buffer.allocUnsafe(limit); // only the written part is returned
  let outPos = 0;
  let inPos = 0;
  let low = 0;
  let code32 = 0;
  let range = 0xffffffff;
  let root = t.createContext(CONTEXT_ESCAPE_MINIMUM, CONTEXT_SYMBOL_MINIMUM);
  let predicted = 0;
  let order = 0;

  for (let shift = 24; shift >= 0; shift -= 8) {
    if (inPos < input.length) code32 = (code32 | ((input[inPos++] ?? 0) << shift)) >>> 0;
  }
  const read = (total: number): number => {
    range = Math.floor(range / total) >>> 0;
    return Math.floor(((code32 - low) >>> 0) / range) & 0xffff;
  };
  const decode = (under: number, count: number): void => {
    low = (low + under * range) >>> 0;
    range = (range * count) >>> 0;
    for (;;) {
      if ((low ^ ((low + range) >>> 0)) >>> 0 >= TOP) {
        if (range >= BOTTOM) break;
        range = -low & (BOTTOM - 1);
      }
      code32 = (code32 << 8) >>> 0;
      if (inPos < input.length) code32 = (code32 | (input[inPos++] ?? 0)) >>> 0;
      range = (range << 8) >>> 0;
      low = (low << 8) >>> 0;
    }
  };

  for (;;) {
    let value = 0;
    let bottom = 0;
    let found = -1; // the sub-context that knew the byte; the root when -1
    let sub = predicted;
    for (; sub !== root; sub = g(t.parent, sub)) {
      const escapes = g(t.escapes, sub);
      const total = g(t.total, sub);
      if (escapes <= 0 || escapes >= total) continue;
      let code = read(total);
      if (code < escapes) {
        decode(0, escapes);
        continue;
      }
      code -= escapes;
      const hit = findInSubcontext(t, sub, code);
      if (!hit) return null;
      value = hit.value;
      bottom = hit.symbol;
      decode(escapes + hit.under, hit.count);
      t.total[sub] = g(t.total, sub) + SUBCONTEXT_SYMBOL_DELTA;
      if (hit.count > 0xff - 2 * SUBCONTEXT_SYMBOL_DELTA || g(t.total, sub) > BOTTOM - 0x100) t.rescaleContext(sub, 0);
      found = sub;
      break;
    }
    if (found === -1) {
      const total = g(t.total, root);
      let code = read(total);
      if (code < g(t.escapes, root)) {
        decode(0, g(t.escapes, root));
        break;
      }
      code -= g(t.escapes, root);
      const hit = findInRoot(t, root, code);
      if (!hit) return null;
      value = hit.value;
      bottom = hit.symbol;
      decode(g(t.escapes, root) + hit.under, hit.count);
      t.total[root] = g(t.total, root) + CONTEXT_SYMBOL_DELTA;
      if (hit.count > 0xff - 2 * CONTEXT_SYMBOL_DELTA + CONTEXT_SYMBOL_MINIMUM || g(t.total, root) > BOTTOM - 0x100) {
        t.rescaleContext(root, CONTEXT_SYMBOL_MINIMUM);
      }
      sub = root;
    }
    // The contexts that escaped learn the byte now, as the encoder's did while it walked them.
    let setParent = (s: number) => {
      predicted = s;
    };
    for (let patch = predicted; patch !== sub; patch = g(t.parent, patch)) {
      const { symbol, count } = t.encodeIn(patch, value, SUBCONTEXT_SYMBOL_DELTA, 0);
      setParent(symbol);
      setParent = (s) => {
        t.parent[symbol] = s;
      };
      if (count <= 0) {
        t.escapes[patch] = g(t.escapes, patch) + SUBCONTEXT_ESCAPE_DELTA;
        t.total[patch] = g(t.total, patch) + SUBCONTEXT_ESCAPE_DELTA;
      }
      t.total[patch] = g(t.total, patch) + SUBCONTEXT_SYMBOL_DELTA;
      if (count > 0xff - 2 * SUBCONTEXT_SYMBOL_DELTA || g(t.total, patch) > BOTTOM - 0x100) t.rescaleContext(patch, 0);
    }
    setParent(bottom);
    if (outPos >= limit) return null;
    out[outPos++] = value;
    if (order >= SUBCONTEXT_ORDER) predicted = g(t.parent, predicted);
    else order++;
    if (t.next >= SYMBOL_CAPACITY - SUBCONTEXT_ORDER) {
      t.next = 0;
      root = t.createContext(CONTEXT_ESCAPE_MINIMUM, CONTEXT_SYMBOL_MINIMUM);
      predicted = 0;
      order = 0;
    }
  }
  return out.subarray(0, outPos);
}

interface Hit {
  symbol: number;
  value: number;
  under: number;
  count: number;
}

/** Walks a sub-context's tree for the symbol whose interval holds `code` (no baseline counts there). */
function findInSubcontext(t: SymbolTable, c: number, code: number): Hit | null {
  if (!t.symbols[c]) return null;
  let under = 0;
  let node = c + g(t.symbols, c);
  for (;;) {
    const after = (under + g(t.under, node)) & 0xffff;
    const before = g(t.count, node);
    if (code >= after) {
      under += g(t.under, node);
      if (!t.right[node]) return null;
      node += g(t.right, node);
      continue;
    }
    if (code < after - before) {
      t.under[node] = g(t.under, node) + SUBCONTEXT_SYMBOL_DELTA;
      if (!t.left[node]) return null;
      node += g(t.left, node);
      continue;
    }
    const count = g(t.count, node);
    t.under[node] = g(t.under, node) + SUBCONTEXT_SYMBOL_DELTA;
    t.count[node] = g(t.count, node) + SUBCONTEXT_SYMBOL_DELTA;
    return { symbol: node, value: g(t.value, node), under: (after - before) & 0xffff, count };
  }
}

/** Walks the root's tree; bytes it has not seen yet live in the gaps (count 1 each) and are created there. */
function findInRoot(t: SymbolTable, c: number, code: number): Hit | null {
  const minimum = CONTEXT_SYMBOL_MINIMUM;
  const update = CONTEXT_SYMBOL_DELTA;
  if (!t.symbols[c]) {
    const value = Math.floor(code / minimum);
    if (value > 0xff) return null;
    const symbol = t.create(value, update);
    t.symbols[c] = symbol - c;
    return { symbol, value, under: code - (code % minimum), count: minimum };
  }
  let under = 0;
  let node = c + g(t.symbols, c);
  for (;;) {
    const after = (under + g(t.under, node) + (g(t.value, node) + 1) * minimum) & 0xffff;
    const before = (g(t.count, node) + minimum) & 0xffff;
    if (code >= after) {
      under += g(t.under, node);
      if (t.right[node]) {
        node += g(t.right, node);
        continue;
      }
      const value = g(t.value, node) + 1 + Math.floor((code - after) / minimum);
      if (value > 0xff) return null;
      const symbol = t.create(value, update);
      t.right[node] = symbol - node;
      return { symbol, value, under: (code - ((code - after) % minimum)) & 0xffff, count: minimum };
    }
    if (code < after - before) {
      t.under[node] = g(t.under, node) + update;
      if (t.left[node]) {
        node += g(t.left, node);
        continue;
      }
      const value = g(t.value, node) - 1 - Math.floor((after - before - code - 1) / minimum);
      if (value < 0) return null;
      const symbol = t.create(value, update);
      t.left[node] = symbol - node;
      return { symbol, value, under: (code - ((after - before - code - 1) % minimum)) & 0xffff, count: minimum };
    }
    const count = minimum + g(t.count, node);
    t.under[node] = g(t.under, node) + update;
    t.count[node] = g(t.count, node) + update;
    return { symbol: node, value: g(t.value, node), under: (after - before) & 0xffff, count: count & 0xffff };
  }
}

/** Reads a model field; every slot exists, the fallback only satisfies the index type. */
function g(a: Uint8Array | Uint16Array, i: number): number {
  return a[i] ?? 0;
}
