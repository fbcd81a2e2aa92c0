import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { chartFunctions } from './functions.ts';
import { Engine } from './template-exec.ts';
import { parseTemplate, type TemplateSet } from './template-parse.ts';

// `helm template` for the tests: Helm's built-in objects (.Values from values.yaml with the overrides coalesced over
// them, .Release, .Chart, .Template), every file under templates/ parsed into one set, each manifest file rendered
// and split into documents, NOTES.txt rendered apart. YAML is read as Helm reads it (YAML 1.1: an unquoted `off` is
// false), so a value Kubernetes would get as the wrong type shows up as such.

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [key: string]: unknown;
}

export interface RenderedChart {
  /** Every manifest, in file order. */
  objects: KubeObject[];
  /** Each manifest file's text, by its template name (canopy/templates/x.yaml). */
  files: Map<string, string>;
  notes: string;
}

const YAML_11 = { version: '1.1' } as const;

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Helm's coalescing of values: maps merge key by key, anything else replaces, null deletes the key. */
export function coalesce(base: unknown, over: unknown): unknown {
  if (!isMap(base) || !isMap(over)) return over === undefined ? base : over;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    if (v === null) delete out[k];
    else out[k] = coalesce(base[k], v);
  }
  return out;
}

/** Chart.yaml's fields under the names Helm gives .Chart (Go's struct fields). */
function chartObject(meta: Record<string, unknown>): Record<string, unknown> {
  const special: Record<string, string> = {
    apiVersion: 'APIVersion',
    appVersion: 'AppVersion',
    kubeVersion: 'KubeVersion',
  };
  return Object.fromEntries(
    Object.entries(meta).map(([k, v]) => [special[k] ?? k.charAt(0).toUpperCase() + k.slice(1), v]),
  );
}

export interface RenderOptions {
  values?: Record<string, unknown>;
  release?: { name: string; namespace: string };
}

/** Renders the chart at `dir` as `helm template <release> <dir> -n <namespace> -f <values>` would. */
export function renderChart(dir: string, opts: RenderOptions = {}): RenderedChart {
  const meta = parseYaml(readFileSync(join(dir, 'Chart.yaml'), 'utf8'), YAML_11) as Record<string, unknown>;
  const chartName = String(meta.name);
  const defaults = parseYaml(readFileSync(join(dir, 'values.yaml'), 'utf8'), YAML_11) ?? {};
  const basePath = `${chartName}/templates`;
  const release = opts.release ?? { name: 'canopy', namespace: 'default' };

  const set: TemplateSet = new Map();
  const names = readdirSync(join(dir, 'templates'))
    .filter((f) => /\.(yaml|yml|tpl|txt)$/.test(f))
    .sort();
  for (const file of names) {
    const name = `${basePath}/${file}`;
    parseTemplate(set, name, readFileSync(join(dir, 'templates', file), 'utf8'), new Set(chartFunctions.keys()));
  }
  const engine = new Engine(set, chartFunctions);
  const top = (name: string) => ({
    Values: coalesce(defaults, opts.values ?? {}),
    Release: {
      Name: release.name,
      Namespace: release.namespace,
      Service: 'Helm',
      IsInstall: true,
      IsUpgrade: false,
      Revision: 1n,
    },
    Chart: chartObject(meta),
    Template: { Name: name, BasePath: basePath },
  });

  const files = new Map<string, string>();
  const objects: KubeObject[] = [];
  for (const file of names.filter((f) => !f.startsWith('_') && f !== 'NOTES.txt')) {
    const name = `${basePath}/${file}`;
    const text = engine.execute(name, top(name));
    files.set(name, text);
    for (const doc of parseAllDocuments(text, YAML_11)) {
      const [error] = doc.errors;
      if (error) throw new Error(`${name}: the rendered YAML does not parse: ${error.message}`);
      const object = doc.toJS();
      if (object === null || object === undefined) continue;
      if (!isMap(object) || !object.apiVersion || !object.kind)
        throw new Error(`${name}: a document without apiVersion and kind`);
      objects.push(object as KubeObject);
    }
  }
  const notesName = `${basePath}/NOTES.txt`;
  const notes = set.has(notesName) ? engine.execute(notesName, top(notesName)) : '';
  return { objects, files, notes };
}
