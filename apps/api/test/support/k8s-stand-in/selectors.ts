// labelSelector and fieldSelector query parameters, in the syntax of apimachinery's labels and fields packages.
import type { KubeObject } from './resources.ts';
import { badRequest } from './status.ts';

export type Selector = (object: KubeObject) => boolean;

const everything: Selector = () => true;

/**
 * Parses `a=b,c!=d,e in (x,y),f notin (z),g,!h` (also `==`). An unparsable selector is a 400, as the API server
 * answers it.
 */
export function labelSelector(text: string | null): Selector {
  if (!text?.trim()) return everything;
  const tests: ((labels: Record<string, string>) => boolean)[] = [];
  // Split on commas outside parentheses.
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') depth--;
    else if (text[i] === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  for (const raw of parts) {
    const part = raw.trim();
    const equality = /^([\w./-]+)\s*(==|=|!=)\s*([\w.-]*)$/.exec(part);
    const set = /^([\w./-]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(part);
    const exists = /^(!?)([\w./-]+)$/.exec(part);
    if (equality) {
      const [, key = '', op, value] = equality;
      tests.push(op === '!=' ? (l) => l[key] !== value : (l) => l[key] === value);
    } else if (set) {
      const [, key = '', op, list = ''] = set;
      const values = new Set(list.split(',').map((v) => v.trim()));
      tests.push(
        op === 'in'
          ? (l) => l[key] !== undefined && values.has(l[key])
          : (l) => l[key] === undefined || !values.has(l[key]),
      );
    } else if (exists) {
      const [, not, key = ''] = exists;
      tests.push(not ? (l) => !(key in l) : (l) => key in l);
    } else {
      throw badRequest(`unable to parse requirement: found '${part}', expected: identifier`);
    }
  }
  return (object) => tests.every((test) => test(object.metadata.labels ?? {}));
}

/** The API server supports metadata.name and metadata.namespace for every kind (some kinds add more). */
export function fieldSelector(text: string | null): Selector {
  if (!text?.trim()) return everything;
  const tests = text.split(',').map((raw): Selector => {
    const m = /^\s*(metadata\.name|metadata\.namespace)\s*(==|=|!=)\s*([^,]*?)\s*$/.exec(raw);
    if (!m) {
      const field = raw.split(/!?=/)[0]?.trim();
      throw badRequest(`field label not supported: ${field}`);
    }
    const [, field, op, value] = m;
    const read = (o: KubeObject) => (field === 'metadata.name' ? o.metadata.name : o.metadata.namespace);
    return op === '!=' ? (o) => read(o) !== value : (o) => read(o) === value;
  });
  return (object) => tests.every((test) => test(object));
}
