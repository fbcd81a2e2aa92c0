import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page, WebSocket } from 'playwright-core';
import { devUser } from '../../apps/api/src/dev-idp/dev-token.ts';
import { type ApiCluster, type Replica, startApiCluster } from '../../apps/api/test/support/cluster.ts';
import { apiCall, apiSignInRegistered } from './support/api.ts';
import { type Balancer, startBalancer } from './support/balancer.ts';
import { launchBrowser, signInWithDevProvider } from './support/browser.ts';

// Issue 23 item 5's acceptance test: a rolling restart of two api replicas on PostgreSQL under browser load loses no
// acknowledged write and every browser reconnects. Canopy as on a cluster (support/cluster.ts: the Kubernetes
// stand-in, replicas with the kubernetes runtime, so that every replica knows every server's status) behind a
// balancer stand-in (a Kubernetes Service with readiness); three Chromium pages keep writing (admin redeem codes,
// fetched from the page) while A is replaced (A2 started, then A sent SIGTERM), then B. Every write answered 2xx must
// be in the database afterwards, and each page must hold a socket opened during the restarts that carries a status
// change made after them, and show it.

const WAIT_MS = 120_000;
const USERS = ['rollowner', 'rollhelpa', 'rollhelpb'] as const;
const SERVER_NAME = 'Rolling_Grove';

/** Polls `check` every 100 ms until it holds; throws naming `what` after `ms` (a generous bound, not an assertion). */
async function until(check: () => boolean | Promise<boolean>, what: string, ms = WAIT_MS) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `promise`, or a failure naming `what` once `ms` passed without it. */
async function within<T>(promise: Promise<T>, what: string, ms = WAIT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('rolling restart of two replicas under browser load (PostgreSQL)', () => {
  let cluster: ApiCluster;
  let balancer: Balancer;
  let browser: Browser;

  /** A Deployment's rolling update of one replica: the new one first (surge), ready, then the old one's SIGTERM. */
  async function replace(old: Replica, name: string): Promise<Replica> {
    const fresh = await cluster.addReplica(name);
    balancer.add(fresh.url);
    await until(() => balancer.ready(fresh.url), `${name} to be ready behind the balancer`);
    await old.kill('SIGTERM');
    assert.equal(old.proc.child.exitCode, 0, `${old.name} exits 0 after draining:\n${old.proc.output().slice(-3000)}`);
    balancer.remove(old.url);
    return fresh;
  }

  before(async () => {
    cluster = await startApiCluster({
      replicas: 2,
      env: {
        CANOPY_SUPER_ADMINS: USERS.map((u) => devUser(u).id).join(','),
        // Every browser reaches the replicas from the balancer's one address.
        CANOPY_HTTP_CONNECTIONS_PER_IP: '1000',
      },
    });
    balancer = await startBalancer(cluster.replicas.map((r) => r.url));
    await until(() => cluster.replicas.every((r) => balancer.ready(r.url)), 'both replicas ready');
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await balancer?.close();
    await cluster?.close();
  });

  it('loses no acknowledged write, and every page reconnects its socket', async (t) => {
    const url = balancer.url;
    const sessions: { id: string; token: string }[] = [];
    for (const username of USERS) sessions.push(await apiSignInRegistered(url, username, `G${username}`));
    const [owner, ...helpers] = sessions;
    assert.ok(owner);
    const { db } = cluster;
    await db.query('UPDATE users SET available_slot = 1 WHERE id = $1', [owner.id]);
    const created = await apiCall(url, owner.token, 'POST', `/users/${owner.id}/server`, { serverName: SERVER_NAME });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    for (const helper of helpers) {
      const added = await apiCall(url, owner.token, 'POST', `/users/${owner.id}/server/collaborators`, {
        discordId: helper.id,
        permissions: ['console:use'],
      });
      assert.equal(added.status, 201, JSON.stringify(added.body));
    }

    // Each browser signed in through the balancer, on the dashboard, its socket recorded as it opens.
    const pages: { page: Page; sockets: { ws: WebSocket; beforeRestarts: boolean }[] }[] = [];
    let rolling = false;
    for (const username of USERS) {
      const page = await (await browser.newContext()).newPage();
      const entry = { page, sockets: [] as { ws: WebSocket; beforeRestarts: boolean }[] };
      page.on('websocket', (ws) => entry.sockets.push({ ws, beforeRestarts: !rolling }));
      await signInWithDevProvider(page, url, username);
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor({ timeout: WAIT_MS });
      await page.locator('[data-testid="server-status"] [data-status="OFFLINE"]').waitFor({ timeout: WAIT_MS });
      pages.push(entry);
    }

    // Load: each page writes as fast as its answers come, and keeps the code of every write answered 2xx.
    const loads = pages.map(({ page }, i) =>
      page.evaluate(
        async ({ token }) => {
          const state = { acked: [] as string[], failed: 0, stop: false };
          (window as unknown as { load: typeof state }).load = state;
          while (!state.stop) {
            try {
              const res = await fetch('/admin/redeem-codes', {
                method: 'POST',
                headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
                body: JSON.stringify({ type: 'Slot', amount: 1, stock: 1, isPublic: false }),
              });
              if (res.ok) state.acked.push(((await res.json()) as { code: string }).code);
              else state.failed++;
            } catch {
              state.failed++;
            }
            await new Promise((r) => setTimeout(r, 20));
          }
          return { acked: state.acked, failed: state.failed };
        },
        { token: sessions[i]?.token ?? '' },
      ),
    );
    const acked = (page: Page) =>
      page.evaluate(() => (window as unknown as { load?: { acked: string[] } }).load?.acked.length ?? 0);
    /** Waits until every page has had `more` further writes acknowledged. */
    const progress = async (more: number, what: string) => {
      const from = await Promise.all(pages.map(({ page }) => acked(page)));
      await until(
        async () =>
          (await Promise.all(pages.map(({ page }) => acked(page)))).every((n, i) => n >= (from[i] ?? 0) + more),
        `writes to go on ${what}`,
      );
    };

    const [a, b] = cluster.replicas;
    assert.ok(a && b);
    await progress(5, 'before the restarts');
    rolling = true;
    const a2 = await replace(a, 'a2');
    await progress(5, 'after A was replaced');
    const b2 = await replace(b, 'b2');
    await progress(5, 'after B was replaced');

    for (const { page } of pages)
      await page.evaluate(() => {
        (window as unknown as { load: { stop: boolean } }).load.stop = true;
      });
    const results = await Promise.all(loads);
    const written = results.flatMap((r) => r.acked);
    const stored = new Set(
      (await db.query<{ code: string }>('SELECT code FROM redeem_codes')).rows.map((row) => row.code),
    );
    const lost = written.filter((code) => !stored.has(code));
    t.diagnostic(
      `${written.length} writes acknowledged, ${results.map((r) => r.failed).join('/')} not (refused or cut)`,
    );
    assert.deepEqual(lost, [], `acknowledged writes missing from the database (of ${written.length})`);

    // Every page reconnected: the sockets it had on A and B are closed, one it opened since is open, and a status
    // change made now reaches the page over it.
    const online: Promise<void>[] = [];
    for (const { sockets } of pages) {
      await until(() => sockets.some(({ ws }) => !ws.isClosed()), 'the page to hold an open socket');
      assert.ok(
        sockets.filter(({ beforeRestarts }) => beforeRestarts).every(({ ws }) => ws.isClosed()),
        'the sockets of the first replicas are all closed',
      );
      const live = sockets.filter(({ ws }) => !ws.isClosed());
      assert.ok(live.length > 0 && live.every(({ beforeRestarts }) => !beforeRestarts), 'reopened during the restarts');
      online.push(
        new Promise<void>((resolve) => {
          for (const { ws } of live)
            ws.on('framereceived', ({ payload }) => {
              if (String(payload).includes('"status":"ONLINE"')) resolve();
            });
        }),
      );
    }
    const start = await apiCall(url, owner.token, 'POST', `/users/${owner.id}/server/${SERVER_NAME}/start`);
    assert.equal(start.status, 202, JSON.stringify(start.body));
    await within(Promise.all(online), "the status change on every page's socket");
    for (const { page } of pages)
      await page.locator('[data-testid="server-status"] [data-status="ONLINE"]').waitFor({ timeout: WAIT_MS });
    const stop = await apiCall(url, owner.token, 'POST', `/users/${owner.id}/server/${SERVER_NAME}/stop`);
    assert.equal(stop.status, 202, JSON.stringify(stop.body));
    for (const r of [a2, b2]) assert.ok(r.alive(), `${r.name} still runs`);
  });
});
