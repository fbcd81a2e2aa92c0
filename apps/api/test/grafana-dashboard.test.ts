import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { standaloneGatewayMetrics } from '../src/metrics/gateway-metrics.ts';
import { startApi, type TestApi } from './support/harness.ts';
import { families, METRICS_TOKEN, scrape } from './support/metrics.ts';

// deploy/grafana/canopy.json against what a running api exports (ADR 0045): every metric its PromQL names must
// exist, and every canopy_ family must have a panel, so neither side can drift from the other.

const DASHBOARD = new URL('../../../deploy/grafana/canopy.json', import.meta.url);
/** Grafana's placeholder for the data source chosen at import. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's literal, not a template string
const DATASOURCE = '${DS_PROMETHEUS}';

interface Target {
  expr: string;
  datasource: { uid: string };
}
interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: { uid: string };
  gridPos: { x: number; y: number; w: number; h: number };
  targets?: Target[];
}

/** PromQL's functions, aggregations and keywords: the identifiers of an expression that are not metrics. */
const PROMQL_WORDS = new Set(
  'sum min max avg count topk bottomk quantile stddev stdvar count_values group by without on ignoring group_left group_right and or unless offset bool rate irate increase delta idelta deriv histogram_quantile label_values abs ceil floor round clamp clamp_min clamp_max time vector scalar absent absent_over_time avg_over_time max_over_time min_over_time sum_over_time'.split(
    ' ',
  ),
);

/** The metric names an expression selects: its identifiers once strings, label matchers, ranges and grouping are gone. */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\$\w+/g, ' ')
    // A variable's label_values(metric, label): the label is not a metric.
    .replace(/\blabel_values\(([^,)]+),[^)]*\)/g, '$1');
  return [...bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)].map((m) => m[0]).filter((w) => !PROMQL_WORDS.has(w));
}

/** The family a sample name belongs to: a histogram's _bucket, _sum and _count are its family's. */
function familyOf(name: string, exported: Map<string, string>): string | undefined {
  if (exported.has(name)) return name;
  const base = name.replace(/_(bucket|sum|count)$/, '');
  return exported.get(base) === 'histogram' || exported.get(base) === 'summary' ? base : undefined;
}

describe('the Grafana dashboard', () => {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8'));
  const panels: Panel[] = dashboard.panels;
  const panelQueries = panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
  const queries: string[] = [
    ...panelQueries,
    ...dashboard.templating.list.map((v: { definition: string }) => v.definition),
  ];
  let api: TestApi;
  let exported: Map<string, string>;
  /** What a standalone login gateway exports (gateway/main.ts): its counters and the process's own. */
  let gatewayExported: Map<string, string>;

  before(async () => {
    api = await startApi('sqlite', { CANOPY_METRICS_TOKEN: METRICS_TOKEN });
    exported = families(await scrape(api.url, METRICS_TOKEN));
    const metrics = { token: METRICS_TOKEN, listener: { port: 0, host: '127.0.0.1' } };
    const gateway = await standaloneGatewayMetrics({ metrics, http: api.ctx.config.http }, () => {});
    try {
      gatewayExported = families(await scrape(`http://127.0.0.1:${gateway.port}`, METRICS_TOKEN));
    } finally {
      await gateway.stop();
    }
  });
  after(() => api.close());

  it('is importable: a schema version, a Prometheus data source input used by every query, unique panels on the grid', () => {
    assert.equal(typeof dashboard.schemaVersion, 'number');
    assert.ok(dashboard.title && dashboard.uid);
    assert.deepEqual(
      dashboard.__inputs.map((i: { name: string; pluginId: string }) => [i.name, i.pluginId]),
      [['DS_PROMETHEUS', 'prometheus']],
    );
    const ids = panels.map((p) => p.id);
    assert.equal(new Set(ids).size, ids.length, 'panel ids are unique');
    for (const p of panels) {
      assert.ok(p.gridPos.x >= 0 && p.gridPos.x + p.gridPos.w <= 24, `${p.title} fits the 24-column grid`);
      if (p.type === 'row') continue;
      assert.equal(p.datasource?.uid, DATASOURCE, p.title);
      assert.ok(p.targets?.length, `${p.title} has queries`);
      for (const t of p.targets ?? []) assert.equal(t.datasource.uid, DATASOURCE, p.title);
    }
  });

  it('names only metrics the api exports', () => {
    assert.ok(exported.size > 20, 'the scrape declares its families');
    const unknown = queries.flatMap((q) => metricNames(q).filter((n) => !familyOf(n, exported)));
    assert.deepEqual(unknown, []);
  });

  it("has a panel for every one of the api's own families, and for the event-loop delay", () => {
    const used = new Set(queries.flatMap((q) => metricNames(q).map((n) => familyOf(n, exported))));
    const missing = [...exported.keys()].filter((name) => name.startsWith('canopy_') && !used.has(name));
    assert.deepEqual(missing, []);
    assert.ok(used.has('nodejs_eventloop_lag_p99_seconds'));
  });

  it('lists every api replica and standalone gateway as a Replica: its metric is one both export', () => {
    const variable = dashboard.templating.list.find((v: { name: string }) => v.name === 'instance');
    const metric = /^label_values\((\w+), instance\)$/.exec(variable.definition)?.[1] ?? '';
    assert.equal(variable.query.query, variable.definition);
    assert.ok(exported.has(metric), `${metric} is not exported by the api`);
    assert.ok(gatewayExported.has(metric), `${metric} is not exported by the standalone gateway`);
    assert.ok(metric.startsWith('canopy_'), 'a generic process metric would list every other target of Prometheus');
  });

  it('reads latency percentiles from the histogram and counters as rates', () => {
    assert.ok(queries.some((q) => /histogram_quantile\(0\.99, .*canopy_http_request_duration_seconds_bucket/.test(q)));
    // Panels only: a variable's label_values() lists a counter's series, it plots no value.
    for (const q of panelQueries)
      for (const name of metricNames(q).filter((n) => n.endsWith('_total')))
        assert.match(q, new RegExp(`(rate|increase)\\(${name}\\b`), `${name} is read as a rate: ${q}`);
  });
});
