import http from 'node:http';

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0) : 0;

function summarise(latencies: number[], errors: number, seconds: number): LoadResult {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    seconds,
    rps: latencies.length / seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? 0,
  };
}

function get(agent: http.Agent, url: URL, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
}

/**
 * Open-loop load: requests are sent on a fixed schedule whether or not earlier ones finished, and
 * latency counts from the scheduled time, so a stall shows up instead of hiding (coordinated omission).
 */
export async function fixedRate(url: string, headers: Record<string, string>, rps: number, seconds: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const target = new URL(url);
  const latencies: number[] = [];
  let errors = 0;
  const total = Math.round(rps * seconds);
  const start = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rps;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    // Late sends count from when they were due; early ones (timer slack) from when they left.
    const from = Math.min(due, performance.now());
    pending.push(
      get(agent, target, headers).then(
        (status) => {
          if (status === 200) latencies.push(performance.now() - from);
          else errors++;
        },
        () => {
          errors++;
        },
      ),
    );
  }
  await Promise.all(pending);
  agent.destroy();
  return summarise(latencies, errors, (performance.now() - start) / 1000);
}

/** Closed-loop load: `concurrency` clients each send the next request as soon as one answers. */
export async function maxThroughput(
  url: string,
  headers: Record<string, string>,
  concurrency: number,
  seconds: number,
) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(url);
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        try {
          if ((await get(agent, target, headers)) === 200) latencies.push(performance.now() - t);
          else errors++;
        } catch {
          errors++;
        }
      }
    }),
  );
  agent.destroy();
  return summarise(latencies, errors, (performance.now() - start) / 1000);
}
