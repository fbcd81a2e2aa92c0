import { createHash } from 'node:crypto';
import { stringify } from 'yaml';
import { type Engine, format, type TemplateFunc, truth } from './template-exec.ts';

// The functions deploy/helm/canopy uses, with the signatures Go gives them (Go's builtins, Sprig's, Helm's include,
// required, toYaml): an argument of the wrong kind fails as it does in Helm ("expected int; got float64": a number
// from a values file is a float until `int`). A function the chart uses that is not here fails at parse time.

type Param = 'string' | 'int' | 'bool' | 'any';

const kindOf = (v: unknown): string =>
  v === null || v === undefined
    ? 'nil'
    : typeof v === 'bigint'
      ? 'int'
      : typeof v === 'number'
        ? 'float64'
        : typeof v === 'boolean'
          ? 'bool'
          : typeof v === 'string'
            ? 'string'
            : Array.isArray(v)
              ? 'slice'
              : 'map';

/** A function taking `params` (a trailing '...' makes the last one variadic), checked as Go checks a call. */
function sig(params: Param[], variadic: Param | null, fn: (...args: never[]) => unknown): TemplateFunc {
  return (args) => {
    if (args.length < params.length || (!variadic && args.length > params.length))
      throw new Error(`wrong number of args: want ${params.length}${variadic ? '+' : ''} got ${args.length}`);
    args.forEach((a, i) => {
      const want = params[i] ?? variadic;
      const got = kindOf(a);
      if (want !== 'any' && got !== (want === 'int' ? 'int' : want))
        throw new Error(`wrong type for value; expected ${want}; got ${got}`);
    });
    return (fn as (...a: unknown[]) => unknown)(...args);
  };
}

/** Sprig's strval: strings as they are, everything else as %v prints it. */
const strval = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? '<nil>' : format(v));

/** Go's %q (strconv.Quote) for the strings a chart quotes. */
const goQuote = (s: string) => JSON.stringify(s);

function compare(a: unknown, b: unknown, ordered: boolean): number {
  const ka = kindOf(a);
  const kb = kindOf(b);
  if (!ordered && (ka === 'nil' || kb === 'nil')) return ka === kb ? 0 : 1;
  if (ka !== kb) throw new Error('incompatible types for comparison');
  if (ka === 'slice' || ka === 'map') throw new Error(`non-comparable type ${ka}`);
  if (ordered && ka === 'bool') throw new Error('invalid type for comparison');
  return a === b ? 0 : (a as number) < (b as number) ? -1 : 1;
}

function printf(fmt: string, ...args: unknown[]): string {
  let i = 0;
  return fmt.replace(/%([%sdvq])/g, (_, verb: string) => {
    if (verb === '%') return '%';
    if (i >= args.length) return `%!${verb}(MISSING)`;
    const a = args[i++];
    if (verb === 'd') return typeof a === 'bigint' ? String(a) : `%!d(${kindOf(a)}=${format(a)})`;
    if (verb === 'q') return typeof a === 'string' ? goQuote(a) : `%!q(${kindOf(a)}=${format(a)})`;
    return a === null || a === undefined ? '<nil>' : format(a);
  });
}

/** Go's fmt.Sprint: a space between operands when neither is a string. */
const sprint = (...args: unknown[]) =>
  args
    .map((a, i) => (i > 0 && typeof a !== 'string' && typeof args[i - 1] !== 'string' ? ' ' : '') + strval(a))
    .join('');

const toInt = (v: unknown): bigint => {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return BigInt(Math.trunc(v));
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return BigInt(v.trim());
  return 0n;
};

const yamlReady = (v: unknown): unknown =>
  typeof v === 'bigint'
    ? Number(v)
    : Array.isArray(v)
      ? v.map(yamlReady)
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, yamlReady(x)]))
        : v;

const indent = (n: bigint, s: string) => {
  const pad = ' '.repeat(Number(n));
  return pad + s.replaceAll('\n', `\n${pad}`);
};

/** Every function the chart may call, by name. */
export const chartFunctions = new Map<string, TemplateFunc>([
  // Go's builtins (and/or are evaluated lazily by the engine; here so that the parser knows them).
  ['and', () => null],
  ['or', () => null],
  ['not', sig(['any'], null, (v: unknown) => !truth(v))],
  [
    'len',
    sig(['any'], null, (v: unknown) => {
      if (typeof v === 'string') return BigInt(Buffer.byteLength(v));
      if (Array.isArray(v)) return BigInt(v.length);
      if (v && typeof v === 'object') return BigInt(Object.keys(v).length);
      throw new Error(`len of type ${kindOf(v)}`);
    }),
  ],
  ['eq', sig(['any', 'any'], 'any', (a: unknown, ...bs: unknown[]) => bs.some((b) => compare(a, b, false) === 0))],
  ['ne', sig(['any', 'any'], null, (a: unknown, b: unknown) => compare(a, b, false) !== 0)],
  ['lt', sig(['any', 'any'], null, (a: unknown, b: unknown) => compare(a, b, true) < 0)],
  ['le', sig(['any', 'any'], null, (a: unknown, b: unknown) => compare(a, b, true) <= 0)],
  ['gt', sig(['any', 'any'], null, (a: unknown, b: unknown) => compare(a, b, true) > 0)],
  ['ge', sig(['any', 'any'], null, (a: unknown, b: unknown) => compare(a, b, true) >= 0)],
  ['print', sig([], 'any', sprint)],
  ['printf', sig(['string'], 'any', printf)],
  // Helm's own.
  [
    'include',
    (args: unknown[], engine: Engine) => {
      sig(['string', 'any'], null, () => null)(args, engine);
      return engine.execute(args[0] as string, args[1]);
    },
  ],
  [
    'required',
    sig(['string', 'any'], null, (warn: string, v: unknown) => {
      if (v === null || v === undefined || v === '') throw new Error(warn);
      return v;
    }),
  ],
  [
    'fail',
    sig(['string'], null, (message: string) => {
      throw new Error(message);
    }),
  ],
  // sigs.k8s.io/yaml ends in a newline, which Helm trims.
  [
    'toYaml',
    sig(['any'], null, (v: unknown) =>
      stringify(yamlReady(v) ?? null, { sortMapEntries: true, indentSeq: false, lineWidth: 0 }).replace(/\n$/, ''),
    ),
  ],
  // Sprig.
  [
    'default',
    sig(['any'], 'any', (d: unknown, ...given: unknown[]) => (given.length && truth(given[0]) ? given[0] : d)),
  ],
  ['ternary', sig(['any', 'any', 'bool'], null, (yes: unknown, no: unknown, cond: boolean) => (cond ? yes : no))],
  [
    'quote',
    sig([], 'any', (...vs: unknown[]) =>
      vs
        .filter((v) => v !== null && v !== undefined)
        .map((v) => goQuote(strval(v)))
        .join(' '),
    ),
  ],
  ['toString', sig(['any'], null, strval)],
  ['int', sig(['any'], null, toInt)],
  ['trim', sig(['string'], null, (s: string) => s.trim())],
  [
    'trimSuffix',
    sig(['string', 'string'], null, (suffix: string, s: string) =>
      suffix && s.endsWith(suffix) ? s.slice(0, -suffix.length) : s,
    ),
  ],
  [
    'trunc',
    sig(['int', 'string'], null, (n: bigint, s: string) => {
      const c = Number(n);
      if (c < 0 && s.length + c > 0) return s.slice(s.length + c);
      return c >= 0 && s.length > c ? s.slice(0, c) : s;
    }),
  ],
  ['contains', sig(['string', 'string'], null, (sub: string, s: string) => s.includes(sub))],
  ['replace', sig(['string', 'string', 'string'], null, (a: string, b: string, s: string) => s.replaceAll(a, b))],
  [
    'join',
    sig(['string', 'any'], null, (sep: string, v: unknown) =>
      (Array.isArray(v) ? v : [v])
        .filter((x) => x !== null && x !== undefined)
        .map(strval)
        .join(sep),
    ),
  ],
  ['indent', sig(['int', 'string'], null, indent)],
  ['nindent', sig(['int', 'string'], null, (n: bigint, s: string) => `\n${indent(n, s)}`)],
  ['b64enc', sig(['string'], null, (s: string) => Buffer.from(s).toString('base64'))],
  ['sha256sum', sig(['string'], null, (s: string) => createHash('sha256').update(s).digest('hex'))],
  ['list', sig([], 'any', (...vs: unknown[]) => vs)],
  ['has', sig(['any', 'any'], null, (needle: unknown, list: unknown) => Array.isArray(list) && list.includes(needle))],
  [
    'dict',
    sig([], 'any', (...kv: unknown[]) => {
      const out: Record<string, unknown> = {};
      for (let i = 0; i < kv.length; i += 2) out[strval(kv[i])] = kv[i + 1] ?? null;
      return out;
    }),
  ],
]);
