// Reading the api's Prometheus text (ADR 0045) in tests.

/** The metrics token the metrics suites start their api with. */
export const METRICS_TOKEN = 'test-metrics-token-0123456789';

/** GET /metrics at `base` (the panel or the metrics listener), with the bearer token when given. */
export async function fetchMetrics(base: string, token?: string) {
  const res = await fetch(`${base}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const challenge = res.headers.get('www-authenticate');
  return { status: res.status, type: res.headers.get('content-type') ?? '', challenge, text: await res.text() };
}

/** The text of a successful scrape; throws with the answer otherwise. */
export async function scrape(base: string, token?: string): Promise<string> {
  const res = await fetchMetrics(base, token);
  if (res.status !== 200) throw new Error(`scrape answered ${res.status}: ${res.text}`);
  return res.text;
}

/**
 * The value of one sample: `name` with exactly these labels (in any order); 0 when the scrape does not have it
 * (a labelled series appears with its first observation).
 */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort()
    .join(',');
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = (m[2] ?? '').match(/[a-zA-Z_]+="(?:[^"\\]|\\.)*"/g) ?? [];
    if (have.sort().join(',') === wanted) return Number(m[3]);
  }
  return 0;
}

/** The metric families a scrape declares (`# TYPE name kind`), by name. */
export function families(text: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) found.set(m[1] ?? '', m[2] ?? '');
  return found;
}
