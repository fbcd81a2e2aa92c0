// Worker thread of bench/hostile.ts: GET a URL at a fixed rate for a while (open loop) and post back
// each answered request's latency, counted from when it was due, and the number that failed.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { url, rate, ms, localAddress } = workerData as { url: string; rate: number; ms: number; localAddress?: string };
// localAddress: another loopback address than the attackers' (bench/connection-flood.ts), for per-address limits.
const agent = new http.Agent({ keepAlive: true, maxSockets: 16, localAddress });
const latencies: number[] = [];
let errors = 0;
const pending: Promise<void>[] = [];
const start = performance.now();
for (let i = 0; performance.now() - start < ms; i++) {
  const due = start + (i * 1000) / rate;
  const wait = due - performance.now();
  if (wait > 1) await new Promise((r) => setTimeout(r, wait));
  pending.push(
    new Promise<void>((resolve) => {
      http
        .get(url, { agent }, (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode === 200) latencies.push(performance.now() - due);
            else errors++;
            resolve();
          });
        })
        .on('error', () => {
          errors++;
          resolve();
        });
    }),
  );
}
await Promise.all(pending);
agent.destroy();
parentPort?.postMessage({ latencies, errors });
