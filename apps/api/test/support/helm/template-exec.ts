import type { Arg, Node, Pipeline, TemplateSet } from './template-parse.ts';

// Runs templates parsed by template-parse.ts with Go's semantics where a chart can tell the difference: a field of a
// missing value is an error (Helm: "nil pointer evaluating interface {}.x"), a missing map key is nil and prints as
// nothing, integers (template literals, len, int) and floats (numbers from values files, as Helm reads them) are
// distinct kinds that eq and lt refuse to mix, maps range in key order, and and/or stop at their first deciding
// argument.

/** A function of the chart: its arguments evaluated, and the engine for include/tpl-like calls. */
export type TemplateFunc = (args: unknown[], engine: Engine) => unknown;

/** Go's emptiness: false, 0, nil, and empty strings, lists and maps are false. */
export function truth(v: unknown): boolean {
  if (v === null || v === undefined) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'bigint') return v !== 0n;
  if (typeof v === 'string' || Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
}

/** Go's %v of a float64: the shortest form, with an exponent from 1e+06 on (or below 1e-04). */
function formatFloat(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN';
  const exp = n === 0 ? 0 : Math.floor(Math.log10(Math.abs(n)));
  if (exp < -4 || exp >= 21 || (exp >= 6 && n !== 0)) return n.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
  return String(n);
}

/** How a value prints (Go's fmt %v; nil prints as nothing, as Helm strips "<no value>"). */
export function format(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return formatFloat(v);
  if (Array.isArray(v)) return `[${v.map(format).join(' ')}]`;
  if (typeof v === 'object')
    return `map[${Object.keys(v)
      .sort()
      .map((k) => `${k}:${format((v as Record<string, unknown>)[k])}`)
      .join(' ')}]`;
  return String(v);
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class Engine {
  readonly templates: TemplateSet;
  private readonly funcs: Map<string, TemplateFunc>;
  private depth = 0;

  constructor(templates: TemplateSet, funcs: Map<string, TemplateFunc>) {
    this.templates = templates;
    this.funcs = funcs;
  }

  /** Renders the named template with `dot` as its data (and $). */
  execute(name: string, dot: unknown): string {
    const nodes = this.templates.get(name);
    if (!nodes) throw new Error(`no template "${name}" associated with template`);
    // Go limits recursion (100000); a chart that recurses at all is a mistake.
    if (++this.depth > 100) throw new Error(`template "${name}": exceeded maximum template depth`);
    try {
      const out: string[] = [];
      this.walk(nodes, dot, [{ name: '$', value: dot }], out, name);
      return out.join('');
    } finally {
      this.depth--;
    }
  }

  private walk(nodes: Node[], dot: unknown, vars: { name: string; value: unknown }[], out: string[], where: string) {
    for (const node of nodes) {
      if (node.kind === 'text') out.push(node.text);
      else if (node.kind === 'action') {
        const value = this.pipe(node.pipe, dot, vars, where);
        if (node.pipe.decl.length === 0) out.push(format(value));
      } else if (node.kind === 'template')
        out.push(this.execute(node.name, node.pipe ? this.pipe(node.pipe, dot, vars, where) : null));
      else this.block(node, dot, vars, out, where);
    }
  }

  private block(
    node: Extract<Node, { kind: 'if' | 'with' | 'range' }>,
    dot: unknown,
    vars: { name: string; value: unknown }[],
    out: string[],
    where: string,
  ) {
    const mark = vars.length;
    const scoped = (list: Node[], d: unknown) => {
      this.walk(list, d, vars, out, where);
      vars.length = mark + (node.kind === 'range' ? 0 : node.pipe.decl.length);
    };
    if (node.kind === 'range') {
      const value = this.pipe({ ...node.pipe, decl: [] }, dot, vars, where);
      const entries: [unknown, unknown][] = Array.isArray(value)
        ? value.map((v, i) => [BigInt(i), v])
        : isMap(value)
          ? Object.keys(value)
              .sort()
              .map((k) => [k, value[k]])
          : [];
      if (value !== null && value !== undefined && !Array.isArray(value) && !isMap(value))
        throw new Error(`${where}:${node.pipe.line}: range can't iterate over ${format(value)}`);
      for (const [key, v] of entries) {
        const [a, b] = node.pipe.decl;
        if (a !== undefined && b !== undefined) vars.push({ name: a, value: key }, { name: b, value: v });
        else if (a !== undefined) vars.push({ name: a, value: v });
        scoped(node.list, v);
        vars.length = mark;
      }
      if (entries.length === 0) scoped(node.elseList, dot);
      return;
    }
    const value = this.pipe(node.pipe, dot, vars, where);
    if (truth(value)) scoped(node.list, node.kind === 'with' ? value : dot);
    else scoped(node.elseList, dot);
    vars.length = mark;
  }

  private pipe(pipe: Pipeline, dot: unknown, vars: { name: string; value: unknown }[], where: string): unknown {
    let value: unknown;
    let first = true;
    for (const cmd of pipe.cmds) {
      value = this.command(cmd, dot, vars, first ? undefined : { value }, `${where}:${pipe.line}`);
      first = false;
    }
    for (const name of pipe.decl) {
      if (!pipe.assign) vars.push({ name, value });
      else {
        const held = vars.findLast((v) => v.name === name);
        if (!held) throw new Error(`${where}:${pipe.line}: undefined variable: ${name}`);
        held.value = value;
      }
    }
    return value;
  }

  private command(
    cmd: Arg[],
    dot: unknown,
    vars: { name: string; value: unknown }[],
    final: { value: unknown } | undefined,
    where: string,
  ): unknown {
    const [head, ...rest] = cmd;
    if (!head) throw new Error(`${where}: missing command`);
    const arg = (a: Arg) => this.arg(a, dot, vars, where);
    if (head.kind === 'func') {
      const name = head.name;
      const tail = final ? [...rest.map((a) => () => arg(a)), () => final.value] : rest.map((a) => () => arg(a));
      // and/or evaluate their arguments only as far as they need to, like Go's since 1.18.
      if (name === 'and' || name === 'or') {
        let v: unknown;
        for (const next of tail) {
          v = next();
          if (truth(v) !== (name === 'and')) return v;
        }
        return v;
      }
      const fn = this.funcs.get(name) as TemplateFunc;
      try {
        return fn(
          tail.map((next) => next()),
          this,
        );
      } catch (error) {
        const message = (error as Error).message;
        throw new Error(message.includes('error calling') ? message : `${where}: error calling ${name}: ${message}`);
      }
    }
    if (rest.length > 0 || final)
      throw new Error(`${where}: can't give argument to non-function ${JSON.stringify(head)}`);
    return arg(head);
  }

  private arg(a: Arg, dot: unknown, vars: { name: string; value: unknown }[], where: string): unknown {
    switch (a.kind) {
      case 'dot':
        return dot;
      case 'literal':
        return a.value;
      case 'pipe':
        return this.pipe(a.pipe, dot, vars, where);
      case 'field':
        return this.fields(dot, a.path, where);
      case 'var': {
        const held = vars.findLast((v) => v.name === a.name);
        if (!held) throw new Error(`${where}: undefined variable: ${a.name}`);
        return this.fields(held.value, a.path, where);
      }
      default:
        throw new Error(`${where}: ${a.kind} is not a value`);
    }
  }

  private fields(value: unknown, path: string[], where: string): unknown {
    let v = value;
    for (const name of path) {
      if (v === null || v === undefined) throw new Error(`${where}: nil pointer evaluating interface {}.${name}`);
      if (!isMap(v)) throw new Error(`${where}: can't evaluate field ${name} in type ${typeof v}`);
      v = Object.hasOwn(v, name) ? v[name] : null;
    }
    return v;
  }
}
