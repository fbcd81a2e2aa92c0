import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from './support/helm/chart.ts';
import { chartFunctions } from './support/helm/functions.ts';
import { Engine } from './support/helm/template-exec.ts';
import { parseTemplate, type TemplateSet } from './support/helm/template-parse.ts';
import { CHART_DIR, render, VARIANTS } from './support/helm/variants.ts';

// The test renderer of support/helm behaves as Helm's Go templates do where the chart could tell the difference,
// and, with HELM=<path to a helm binary>, renders every value set exactly as real Helm does (ADR 0048).

function run(src: string, data: unknown): string {
  const set: TemplateSet = new Map();
  parseTemplate(set, 'test', src, new Set(chartFunctions.keys()));
  return new Engine(set, chartFunctions).execute('test', data);
}

describe('the chart renderer (a subset of Go text/template)', () => {
  it('trims around {{- and -}}, drops comments, ranges over maps in key order', () => {
    assert.equal(run('a  \n  {{- "b" -}}  \n c{{/* gone */}}', {}), 'abc');
    assert.equal(run('{{ range $k, $v := . }}{{ $k }}={{ $v }};{{ end }}', { b: 2, a: 1, c: 'x' }), 'a=1;b=2;c=x;');
    assert.equal(run('{{ range . }}{{ . }}{{ else }}none{{ end }}', []), 'none');
  });

  it('fails as Helm fails: a field of a missing value, a float where an int is needed, mixed kinds in eq', () => {
    assert.equal(run('[{{ .a }}]', {}), '[]', 'a missing key prints nothing');
    assert.throws(() => run('{{ .a.b }}', {}), /nil pointer evaluating interface \{\}\.b/);
    assert.throws(() => run('{{ nindent .n "x" }}', { n: 4 }), /wrong type for value; expected int/);
    assert.equal(run('{{ nindent (int .n) "x" }}', { n: 4 }), '\n    x');
    assert.throws(() => run('{{ eq .port 443 }}', { port: 443 }), /incompatible types for comparison/);
    assert.equal(run('{{ printf "%d" .port }}', { port: 443 }), '%!d(float64=443)');
    assert.equal(run('{{ .big }}', { big: 3600000 }), '3.6e+06', "a values file's number prints as Go's float64");
  });

  it('refuses at parse time a function it does not provide, naming it', () => {
    assert.throws(() => run('{{ lookup "v1" "Secret" "ns" "x" }}', {}), /test:1: function "lookup" not defined/);
    assert.throws(() => run('{{ if . }}open', {}), /an \{\{end\}\} is missing/);
  });

  it('evaluates and/or only as far as needed, and keeps variables to their block', () => {
    assert.equal(run('{{ and false (fail "not evaluated") }}', {}), 'false');
    assert.equal(run('{{ or "" "b" }}', {}), 'b');
    assert.equal(run('{{ $x := 1 }}{{ if true }}{{ $x = 2 }}{{ $y := 3 }}{{ end }}{{ $x }}', {}), '2');
    assert.throws(() => run('{{ if true }}{{ $y := 3 }}{{ end }}{{ $y }}', {}), /undefined variable: \$y/);
  });
});

const helm = process.env.HELM;

describe('the chart renderer against real Helm', { skip: !helm && 'set HELM to a helm binary to compare' }, () => {
  const key = (o: KubeObject) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

  it('renders every value set to the same objects as `helm template`, and `helm lint --strict` passes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'canopy-helm-'));
    try {
      for (const v of VARIANTS) {
        const file = join(dir, 'values.json');
        writeFileSync(file, JSON.stringify(v.values));
        const release = v.release ?? { name: 'canopy', namespace: 'games' };
        const args = ['template', release.name, CHART_DIR, '-n', release.namespace, '-f', file];
        const text = execFileSync(helm as string, args, { encoding: 'utf8' });
        const theirs = parseAllDocuments(text, { version: '1.1' })
          .map((d) => d.toJS() as KubeObject | null)
          .filter((o): o is KubeObject => o !== null);
        const ours = new Map(render(v).objects.map((o) => [key(o), o]));
        assert.deepEqual([...ours.keys()].sort(), theirs.map(key).sort(), v.label);
        for (const o of theirs) assert.ok(isDeepStrictEqual(ours.get(key(o)), o), `${v.label}: ${key(o)} differs`);
        execFileSync(helm as string, ['lint', '--strict', CHART_DIR, '-f', file], { encoding: 'utf8' });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
