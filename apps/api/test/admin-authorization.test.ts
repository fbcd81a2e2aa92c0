import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { adminPermissions, messages } from '@canopy/contract';
import { buildApp } from '../src/app.ts';
import { type AdminRoute, adminRoutes, type Need, type Target } from './support/admin-routes.ts';
import { signInAdmin, signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { streamBody } from './support/stream-body.ts';

// Every admin route × {signed out, plain user, admin without the permission, admin with only the area's view
// permission, admin with it, super admin} (issue 11). A refused write must leave the route's own state and
// the whole database as they were; an allowed write must change the route's state (so the probe can see it).

type Want = number | 'ok';
interface Caller {
  name: string;
  token: string | undefined;
  want: Want;
  error?: string;
}

/**
 * Tables signing in writes (or that no call writes), and the counters every request moves on PostgreSQL (rate
 * limits, live sockets): every other table, present or future, is compared.
 */
const UNWATCHED = new Set([
  'refresh_tokens',
  'idempotency_keys',
  'schema_migrations',
  'shop_items',
  'rate_limit_hits',
  'live_sockets',
]);

async function tables(api: TestApi) {
  const rows = await api.ctx.db.all<{ name: string }>(
    api.dialect === 'sqlite'
      ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
      : "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'",
  );
  return rows.map((r) => r.name).filter((name) => !UNWATCHED.has(name));
}

/**
 * The whole writable state, rows sorted. Left out: storage_used_bytes (the scheduler's storage pass writes it), and
 * live_status/control_url, the runtime's mirror for a standalone gateway, which an engine still starting moves.
 */
async function snapshot(api: TestApi) {
  const out: Record<string, string[]> = {};
  for (const table of await tables(api)) {
    const rows = await api.ctx.db.all<Record<string, unknown>>(`SELECT * FROM ${table}`);
    out[table] = rows
      .map(({ storage_used_bytes: _volatile, live_status: _live, control_url: _url, ...r }) =>
        JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? `${v}` : v)),
      )
      .sort();
  }
  assert.ok(out.users?.length && 'feedback' in out && 'ban_logs' in out, 'the snapshot reads the tables');
  return out;
}

/** `METHOD url` of every /admin route the app registers, read from fastify's route tree (HEAD left out). */
function registeredAdminRoutes(tree: string) {
  const found: string[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^([│ ]*)[├└]── (\S+) \(([^)]+)\)$/u.exec(line);
    if (!m) continue;
    const depth = [...(m[1] ?? '')].length / 4;
    stack.length = depth;
    stack.push(m[2] ?? '');
    const url = stack.join('');
    for (const method of (m[3] ?? '').split(', '))
      if (method !== 'HEAD' && url.startsWith('/admin')) found.push(`${method} ${url}`);
  }
  return found.sort();
}

describeEachDatabase('admin authorization matrix', (api) => {
  let plain = '';
  let superAdmin = '';
  const admins = new Map<string, Promise<string>>();
  /** One admin per set of permissions, signed in on first use. */
  const adminHolding = (permissions: readonly string[]) => {
    const key = [...permissions].sort().join(',');
    if (!admins.has(key))
      admins.set(
        key,
        signInAdmin(api(), permissions).then((s) => s.sessionToken),
      );
    return admins.get(key) as Promise<string>;
  };

  /** The six callers of a route and what each must get (two more when it needs permissions besides `need`). */
  async function callersFor(need: Need, also?: AdminRoute['also']): Promise<Caller[]> {
    const refused = { want: 403, error: messages.missingPermission };
    const base: Caller[] = [
      { name: 'signed out', token: undefined, want: 401, error: messages.notAuthenticated },
      { name: 'plain user', token: plain, want: 403, error: messages.adminOnly },
    ];
    if (need === 'superAdmin')
      return [
        ...base,
        { name: 'admin without permissions', token: await adminHolding([]), ...refused },
        { name: 'admin with every permission', token: await adminHolding(adminPermissions), ...refused },
        { name: 'super admin', token: superAdmin, want: 'ok' },
      ];
    const view = `${need.split(':')[0]}:view`;
    if (also) {
      const lacking = { want: 403, error: also.error };
      return [
        ...base,
        {
          name: `admin without ${need}`,
          token: await adminHolding(adminPermissions.filter((p) => p !== need)),
          ...refused,
        },
        { name: `admin with only ${view}`, token: await adminHolding([view]), ...refused },
        { name: `admin with only ${need}`, token: await adminHolding([need]), ...lacking },
        {
          name: `admin with every permission but ${also.permissions.join(', ')}`,
          token: await adminHolding(adminPermissions.filter((p) => !also.permissions.includes(p))),
          ...lacking,
        },
        {
          name: `admin with ${need} and ${also.permissions.join(', ')}`,
          token: await adminHolding([need, ...also.permissions]),
          want: 'ok',
        },
        { name: 'super admin', token: superAdmin, want: 'ok' },
      ];
    }
    return [
      ...base,
      {
        name: 'admin with every other permission',
        token: await adminHolding(adminPermissions.filter((p) => p !== need)),
        ...refused,
      },
      {
        name: `admin with only ${view}`,
        token: await adminHolding([view]),
        ...(need === view ? { want: 'ok' } : refused),
      },
      { name: `admin with only ${need}`, token: await adminHolding([need]), want: 'ok' },
      { name: 'super admin', token: superAdmin, want: 'ok' },
    ];
  }

  before(async () => {
    plain = (await signInRegistered(api())).sessionToken;
    superAdmin = (await signInAdmin(api(), 'super')).sessionToken;
  });

  it('has a row for every admin route the app registers, and no other', async () => {
    const { app } = await buildApp(api().ctx.config, api().ctx.db);
    try {
      await app.ready();
      const registered = registeredAdminRoutes(app.printRoutes({ commonPrefix: false }));
      assert.ok(registered.length >= 30, `the route tree was not read: ${registered.length} admin routes`);
      assert.deepEqual(adminRoutes.map((r) => `${r.method} ${r.route}`).sort(), registered);
    } finally {
      await app.close();
    }
  });

  const call = async (r: AdminRoute, t: Target, token: string | undefined) => {
    const path = r.path ? r.path(t) : r.route;
    if (!r.answersText) return api().request(r.method, path, { token, body: r.body?.(t) });
    const res = await fetch(api().url + path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    const text = await res.text();
    const json = res.headers.get('content-type')?.includes('application/json');
    return { status: res.status, body: json ? JSON.parse(text) : text };
  };

  for (const r of adminRoutes) {
    const writes = r.method !== 'GET';
    it(`${r.method} ${r.route} (${r.need})`, async () => {
      const callers = await callersFor(r.need, r.also);
      const probe = async (t: Target) => JSON.stringify((await r.probe?.(api(), t)) ?? null);
      const shared: Target = r.target ? await r.target(api()) : { id: '' };
      const state = writes ? await snapshot(api()) : undefined;
      const probed = await probe(shared);

      for (const c of callers.filter((c) => c.want !== 'ok')) {
        const res = await call(r, shared, c.token);
        const said = `${c.name}: ${res.status} ${JSON.stringify(res.body)}`;
        // The state first: a write that went through is the failure worth naming.
        if (writes) {
          assert.equal(await probe(shared), probed, `${said}: a refused write changed the route's state`);
          assert.deepEqual(await snapshot(api()), state, `${said}: a refused write changed the database`);
        }
        assert.equal(res.status, c.want, said);
        assert.equal(res.body?.error, c.error, `${said}: the refusal's text`);
      }

      for (const c of callers.filter((c) => c.want === 'ok')) {
        // An allowed write consumes its target (a ban, a deleted code), so each allowed caller gets its own.
        const t = writes && r.target ? await r.target(api()) : shared;
        const probedBefore = await probe(t);
        const res = await call(r, t, c.token);
        assert.equal(res.status, r.ok, `${c.name}: ${JSON.stringify(res.body)}`);
        if (writes) assert.notEqual(await probe(t), probedBefore, `${c.name}: the allowed write changed nothing`);
      }
    });
  }

  it("refuses a plain user's 8 MB streamed body to every admin write before reading it", async () => {
    const total = 8 * 1024 * 1024;
    for (const r of adminRoutes.filter((r) => r.method === 'POST' || r.method === 'PUT')) {
      const path = r.route.replace(/:\w+/g, '123456789012345678');
      for (const [token, status] of [
        [plain, 403],
        [undefined, 401],
      ] as const) {
        const res = await streamBody(api(), r.method, path, token, total);
        assert.equal(res.status, status, `${r.method} ${path}: ${JSON.stringify(res.body)}`);
        assert.ok(res.sent < total, `${r.method} ${path}: answered only after the whole body (${res.sent} bytes)`);
      }
    }
    assert.equal((await api().request('GET', '/status')).status, 200);
  });
});
