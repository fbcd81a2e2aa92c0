// How long one max-size legitimate world PUT holds the api's event loop: the body's JSON.parse plus
// the contract's validation (one task, before the handler hands the world to the engine), and the
// serialisation of the world on its way to the engine (another task).
// Run: node bench/body-parse.ts
import { defaultWorldMeta, WORLD_MAX_SIDE, worldPutSchema } from '@canopy/contract';
import { WORLD_PUT_BODY_LIMIT } from '../apps/api/src/http/body-limits.ts';

const side = WORLD_MAX_SIDE;
// Every tile at its widest legal value: the largest body a legitimate editor can send.
const widest = { fg: 65535, bg: 65535, o: 1, l: 1, fl: 0xffffffff, if_c: 0x7fffffff };
const blocks = Array.from({ length: side * side }, (_, i) =>
  i % 50 === 0 ? { ...widest, label: 'x'.repeat(64) } : widest,
);
const body = JSON.stringify({ ...defaultWorldMeta(side, side), admins: ['Admin1', 'Admin2'], blocks });

function measure(label: string, fn: () => void, runs = 15) {
  fn(); // warm-up: the first run pays for compilation
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => (times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0).toFixed(1);
  console.log(`${label.padEnd(28)} median ${at(0.5)} ms   max ${at(1)} ms`);
}

console.log(
  `world ${side}x${side}, body ${(body.length / 1024 / 1024).toFixed(2)} MB (limit ${(WORLD_PUT_BODY_LIMIT / 1024 / 1024).toFixed(2)} MB)`,
);
measure('JSON.parse', () => JSON.parse(body));
const parsed = JSON.parse(body);
measure('worldPutSchema.safeParse', () => {
  if (!worldPutSchema.safeParse(parsed).success) throw new Error('the bench world must be valid');
});
measure('parse + validate (total)', () => worldPutSchema.safeParse(JSON.parse(body)));
// The handler's other steps, each a task of its own: the body goes to the engine and the saved world comes back.
measure('JSON.stringify (to engine)', () => JSON.stringify(parsed));
