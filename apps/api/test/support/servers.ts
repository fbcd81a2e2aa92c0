import type { ServerStatus } from '@canopy/contract';
import type { TestApi } from './harness.ts';

/** Polls the public status feed until the named server shows `status` (or fails after `ms`). */
export async function waitForStatus(api: TestApi, name: string, status: ServerStatus, ms = 20_000) {
  const deadline = Date.now() + ms;
  let last = '';
  while (Date.now() < deadline) {
    const res = await api.request('GET', '/status');
    const entry = res.body.hostedServers.find((s: { name: string }) => s.name === name);
    last = entry?.status ?? 'missing';
    if (last === status) return entry;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`server ${name} never became ${status} (last: ${last})`);
}

/** Runs SQL against the api's database (to set up states the api has no call for yet). */
export const sql = (api: TestApi, text: string, params: (string | number | null)[] = []) =>
  api.ctx.db.run(text, params);
