// The parser of a subset of Go's text/template, the language of Helm charts, for rendering deploy/helm/canopy in
// tests without Helm (ADR 0048): text and actions with {{- -}} trimming and comments; pipelines with declarations
// and assignments; fields, variables, literals, parentheses; if/else if/else, range (with else), with (with else),
// define, template. Anything else is a parse error naming the file and line, so a chart that strays from the subset
// fails its test instead of rendering something Helm would not. Functions are checked to exist at parse time, as
// Go does.

export type Arg =
  | { kind: 'dot' }
  | { kind: 'field'; path: string[] }
  | { kind: 'var'; name: string; path: string[] }
  | { kind: 'func'; name: string }
  | { kind: 'literal'; value: unknown }
  | { kind: 'pipe'; pipe: Pipeline };

export interface Pipeline {
  decl: string[];
  assign: boolean;
  cmds: Arg[][];
  line: number;
}

export type Node =
  | { kind: 'text'; text: string }
  | { kind: 'action'; pipe: Pipeline }
  | { kind: 'if' | 'with' | 'range'; pipe: Pipeline; list: Node[]; elseList: Node[] }
  | { kind: 'template'; name: string; pipe: Pipeline | null; line: number };

/** Parsed templates by name: each file under its path and every {{define}} in it. */
export type TemplateSet = Map<string, Node[]>;

interface Action {
  words: Token[];
  line: number;
}
type Token = { t: 'str' | 'num' | 'id' | 'field' | 'var' | 'op'; v: string; path?: string[] };

const SPACE = /[ \t\r\n]/;

/** Splits a template into text and actions, applying the trim markers and dropping comments. */
function split(src: string, file: string): (string | Action)[] {
  const out: (string | Action)[] = [];
  let pos = 0;
  let trimNext = false;
  while (pos <= src.length) {
    const open = src.indexOf('{{', pos);
    let text = src.slice(pos, open === -1 ? undefined : open);
    if (trimNext) text = text.replace(/^[ \t\r\n]+/, '');
    if (open === -1) {
      if (text) out.push(text);
      break;
    }
    let start = open + 2;
    if (src[start] === '-' && SPACE.test(src[start + 1] ?? '')) {
      text = text.replace(/[ \t\r\n]+$/, '');
      start += 2;
    }
    if (text) out.push(text);
    const line = src.slice(0, open).split('\n').length;
    const body = src.slice(start).replace(/^[ \t\r\n]*/, '');
    const bodyStart = src.length - body.length;
    if (body.startsWith('/*')) {
      const close = src.indexOf('*/', bodyStart + 2);
      const rest = close === -1 ? null : /^(?: -)?}}/.exec(src.slice(close + 2));
      if (!rest) throw new Error(`${file}:${line}: unclosed comment`);
      trimNext = rest[0].startsWith(' -');
      pos = close + 2 + rest[0].length;
      continue;
    }
    const { words, end, trim } = lexAction(src, bodyStart, `${file}:${line}`);
    out.push({ words, line });
    trimNext = trim;
    pos = end;
  }
  return out;
}

/** The tokens of one action up to its closing braces. */
function lexAction(src: string, from: number, where: string): { words: Token[]; end: number; trim: boolean } {
  const words: Token[] = [];
  let i = from;
  const ident = /[A-Za-z0-9_]/;
  const chain = () => {
    const path: string[] = [];
    while (src[i] === '.' && /[A-Za-z_]/.test(src[i + 1] ?? '')) {
      let j = i + 1;
      while (ident.test(src[j] ?? '')) j++;
      path.push(src.slice(i + 1, j));
      i = j;
    }
    return path;
  };
  for (;;) {
    while (SPACE.test(src[i] ?? '')) {
      if (src.startsWith('-}}', i + 1)) return { words, end: i + 4, trim: true };
      i++;
    }
    const c = src[i];
    if (c === undefined) throw new Error(`${where}: unclosed action`);
    if (src.startsWith('}}', i)) return { words, end: i + 2, trim: false };
    if (c === '"') {
      const m = /^"(?:[^"\\\n]|\\.)*"/.exec(src.slice(i));
      if (!m) throw new Error(`${where}: unterminated string`);
      words.push({ t: 'str', v: JSON.parse(m[0]) });
      i += m[0].length;
    } else if (c === '`') {
      const close = src.indexOf('`', i + 1);
      if (close === -1) throw new Error(`${where}: unterminated raw string`);
      words.push({ t: 'str', v: src.slice(i + 1, close) });
      i = close + 1;
    } else if (/[-0-9]/.test(c)) {
      const m = /^-?\d+(\.\d+)?([eE][-+]?\d+)?/.exec(src.slice(i));
      if (!m) throw new Error(`${where}: bad number`);
      words.push({ t: 'num', v: m[0] });
      i += m[0].length;
    } else if (c === '$') {
      let j = i + 1;
      while (ident.test(src[j] ?? '')) j++;
      const name = src.slice(i, j);
      i = j;
      words.push({ t: 'var', v: name, path: chain() });
    } else if (c === '.') {
      const path = chain();
      if (path.length === 0) i++;
      words.push({ t: 'field', v: '.', path });
    } else if (/[A-Za-z_]/.test(c)) {
      let j = i;
      while (ident.test(src[j] ?? '')) j++;
      words.push({ t: 'id', v: src.slice(i, j) });
      i = j;
    } else if (src.startsWith(':=', i)) {
      words.push({ t: 'op', v: ':=' });
      i += 2;
    } else if ('()|,='.includes(c)) {
      words.push({ t: 'op', v: c });
      i++;
    } else throw new Error(`${where}: unexpected ${JSON.stringify(c)} in action`);
  }
}

/** Parses one file into the set: its own body under `name`, its {{define}}s under theirs. */
export function parseTemplate(set: TemplateSet, name: string, src: string, funcs: Set<string>): void {
  const items = split(src, name);
  let at = 0;
  const fail: (line: number, message: string) => never = (line, message) => {
    throw new Error(`${name}:${line}: ${message}`);
  };

  const pipeline = (words: Token[], line: number): Pipeline => {
    let k = 0;
    const decl: string[] = [];
    let assign = false;
    const declEnd = words.findIndex((w) => w.t === 'op' && (w.v === ':=' || w.v === '='));
    if (declEnd !== -1) {
      for (const w of words.slice(0, declEnd)) if (w.t === 'var') decl.push(w.v);
      assign = words[declEnd]?.v === '=';
      k = declEnd + 1;
    }
    const parse = (stop: string | null): Pipeline => {
      let cmd: Arg[] = [];
      const cmds: Arg[][] = [cmd];
      while (k < words.length) {
        const w = words[k++] as Token;
        if (w.t === 'op' && w.v === stop) return { decl: [], assign: false, cmds, line };
        if (w.t === 'op' && w.v === '|') {
          cmd = [];
          cmds.push(cmd);
        } else if (w.t === 'op' && w.v === '(') cmd.push({ kind: 'pipe', pipe: parse(')') });
        else cmd.push(operand(w, line));
      }
      if (stop) fail(line, 'unclosed parenthesis');
      if (cmds.some((c) => c.length === 0)) fail(line, 'missing command in pipeline');
      return { decl: [], assign: false, cmds, line };
    };
    return { ...parse(null), decl, assign };
  };

  const operand = (w: Token, line: number): Arg => {
    if (w.t === 'str') return { kind: 'literal', value: w.v };
    if (w.t === 'num') return { kind: 'literal', value: /[.eE]/.test(w.v) ? Number(w.v) : BigInt(w.v) };
    if (w.t === 'var') return { kind: 'var', name: w.v, path: w.path ?? [] };
    if (w.t === 'field') return w.path?.length ? { kind: 'field', path: w.path } : { kind: 'dot' };
    if (w.t === 'id') {
      if (w.v === 'true' || w.v === 'false') return { kind: 'literal', value: w.v === 'true' };
      if (w.v === 'nil') return { kind: 'literal', value: null };
      if (!funcs.has(w.v)) fail(line, `function "${w.v}" not defined`);
      return { kind: 'func', name: w.v };
    }
    return fail(line, `unexpected "${w.v}"`);
  };

  // Parses nodes until an {{end}} or {{else}} (returned), or the end of the file.
  const list = (top: boolean): { nodes: Node[]; stop: Action | null } => {
    const nodes: Node[] = [];
    while (at < items.length) {
      const item = items[at++] as string | Action;
      if (typeof item === 'string') {
        nodes.push({ kind: 'text', text: item });
        continue;
      }
      const [head, ...rest] = item.words;
      if (!head) return fail(item.line, 'empty action');
      const word = head.t === 'id' ? head.v : '';
      if (word === 'end' || word === 'else') {
        if (top) fail(item.line, `unexpected {{${word}}}`);
        return { nodes, stop: item };
      }
      if (word === 'if' || word === 'with' || word === 'range') nodes.push(block(word, rest, item.line));
      else if (word === 'define') {
        const name = rest[0];
        if (!top || name?.t !== 'str') return fail(item.line, 'define takes a name, at the top level only');
        const body = list(false);
        if (body.stop?.words[0]?.v !== 'end') fail(item.line, 'define without its end');
        set.set(name.v, body.nodes);
      } else if (word === 'template') {
        const name = rest[0];
        if (name?.t !== 'str') return fail(item.line, 'template takes a name');
        const pipe = rest.length > 1 ? pipeline(rest.slice(1), item.line) : null;
        nodes.push({ kind: 'template', name: name.v, pipe, line: item.line });
      } else if (word === 'block' || word === 'break' || word === 'continue')
        fail(item.line, `{{${word}}} is outside the subset`);
      else nodes.push({ kind: 'action', pipe: pipeline(item.words, item.line) });
    }
    if (!top) fail(items.length, 'unexpected end of file: an {{end}} is missing');
    return { nodes, stop: null };
  };

  const block = (kind: 'if' | 'with' | 'range', words: Token[], line: number): Node => {
    const pipe = pipeline(words, line);
    const body = list(false);
    let elseList: Node[] = [];
    const stop = body.stop as Action;
    if (stop.words[0]?.v === 'else') {
      const after = stop.words.slice(1);
      if (after[0]?.v === 'if' && kind === 'if') elseList = [block('if', after.slice(1), stop.line)];
      else if (after.length > 0) fail(stop.line, 'only "else if" may follow an else in the subset');
      else {
        const tail = list(false);
        if (tail.stop?.words[0]?.v !== 'end') fail(stop.line, 'else without its end');
        elseList = tail.nodes;
      }
    }
    return { kind, pipe, list: body.nodes, elseList };
  };

  set.set(name, list(true).nodes);
}
