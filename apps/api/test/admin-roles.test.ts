import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, it } from 'node:test';
import { promisify } from 'node:util';
import { adminAccountPageSchema, adminPermissions, adminRoleMessages as m, messages } from '@canopy/contract';
import { revokeAdmin } from '../src/admin/roles/roles.service.ts';
import { openDatabase } from '../src/db/open.ts';
import { usersRepo } from '../src/users/users.repo.ts';
import { signIn, signInAdmin, signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { sql } from './support/servers.ts';

type Session = Awaited<ReturnType<typeof signIn>>;

const roleOf = async (api: TestApi, id: string) => {
  const row = await api.ctx.db.get<{ is_admin: number; is_super_admin: number; admin_permissions: string }>(
    'SELECT is_admin, is_super_admin, admin_permissions FROM users WHERE id = ?',
    [id],
  );
  return row && [Number(row.is_admin), Number(row.is_super_admin), JSON.parse(row.admin_permissions)];
};

describeEachDatabase('admin roles and permissions', (api) => {
  let plain: Session;
  let manager: Session;
  let superAdmin: Session;
  before(async () => {
    plain = await signInRegistered(api());
    // Every permission string, but not a super admin: the Permissions tab is still closed.
    manager = await signInAdmin(api(), adminPermissions);
    superAdmin = await signInAdmin(api(), 'super');
  });

  const call = (s: Session | undefined, method: string, path: string, body?: unknown) =>
    api().request(method, path, { token: s?.sessionToken, body });

  it('lets only super admins call every route; refused calls change nothing', async () => {
    const target = await signIn(api());
    const other = await signInAdmin(api(), ['users:view']);
    const removed = await signInAdmin(api(), ['users:view']);
    const superTarget = await signInAdmin(api(), 'super');
    const routes = [
      { method: 'GET', path: '/admin/admins' },
      { method: 'POST', path: '/admin/admins', body: { discordId: target.user.id } },
      { method: 'DELETE', path: `/admin/admins/${removed.user.id}` },
      { method: 'POST', path: '/admin/superadmins', body: { discordId: other.user.id } },
      { method: 'DELETE', path: `/admin/superadmins/${superTarget.user.id}` },
      { method: 'GET', path: `/admin/admins/${other.user.id}/permissions` },
      { method: 'PUT', path: `/admin/admins/${other.user.id}/permissions`, body: { permissions: [] } },
    ];
    const snapshot = async () =>
      Promise.all([target, other, removed, superTarget].map((s) => roleOf(api(), s.user.id)));
    const before = await snapshot();
    for (const r of routes) {
      const name = `${r.method} ${r.path}`;
      assert.equal((await call(undefined, r.method, r.path, r.body)).status, 401, name);
      const asPlain = await call(plain, r.method, r.path, r.body);
      assert.deepEqual([asPlain.status, asPlain.body.error], [403, messages.adminOnly], name);
      const asManager = await call(manager, r.method, r.path, r.body);
      assert.deepEqual([asManager.status, asManager.body.error], [403, messages.missingPermission], name);
    }
    assert.deepEqual(await snapshot(), before);
    for (const r of routes) {
      const res = await call(superAdmin, r.method, r.path, r.body);
      assert.equal(res.status, 200, `${r.method} ${r.path}: ${JSON.stringify(res.body)}`);
    }
    assert.deepEqual(await snapshot(), [
      [1, 0, []],
      [1, 1, []],
      [0, 0, []],
      [1, 0, []],
    ]);
  });

  it('moves roles one step at a time: user, admin, super admin and back, with texts and activity', async () => {
    const user = await signInRegistered(api());
    const id = user.user.id;
    const move = (method: string, path: string) =>
      call(superAdmin, method, path, method === 'POST' ? { discordId: id } : undefined);
    const expect = async (res: Awaited<ReturnType<typeof move>>, status: number, text: string, role: unknown[]) => {
      assert.deepEqual([res.status, res.status === 200 ? res.body.message : res.body.error], [status, text]);
      assert.deepEqual(await roleOf(api(), id), role);
    };
    await expect(await move('DELETE', `/admin/admins/${id}`), 409, m.notAdmin, [0, 0, []]);
    await expect(await move('POST', '/admin/superadmins'), 409, m.onlyAdminPromoted, [0, 0, []]);
    await expect(await move('DELETE', `/admin/superadmins/${id}`), 409, m.notSuperAdmin, [0, 0, []]);
    await expect(await move('POST', '/admin/admins'), 200, m.promoted(user.growId), [1, 0, []]);
    await expect(await move('POST', '/admin/admins'), 409, m.alreadyAdmin, [1, 0, []]);
    await sql(api(), `UPDATE users SET admin_permissions = '["feedback:view"]' WHERE id = ?`, [id]);
    await expect(await move('POST', '/admin/superadmins'), 200, m.promotedSuper(user.growId), [
      1,
      1,
      ['feedback:view'],
    ]);
    await expect(await move('POST', '/admin/superadmins'), 409, m.alreadySuperAdmin, [1, 1, ['feedback:view']]);
    await expect(await move('DELETE', `/admin/admins/${id}`), 409, m.demoteFirst, [1, 1, ['feedback:view']]);
    // A super admin uses the Permissions tab until the moment they are demoted.
    assert.equal((await call(user, 'GET', '/admin/admins')).status, 200);
    await expect(await move('DELETE', `/admin/superadmins/${id}`), 200, m.demotedSuper(user.growId), [
      1,
      0,
      ['feedback:view'],
    ]);
    assert.equal((await call(user, 'GET', '/admin/admins')).status, 403);
    assert.equal((await call(user, 'GET', '/admin/feedback')).status, 200, 'an admin keeps their permissions');
    await expect(await move('DELETE', `/admin/admins/${id}`), 200, m.removed(user.growId), [0, 0, []]);

    const logged = await api().ctx.db.all<{ action: string; actor_name: string }>(
      'SELECT action, actor_name FROM activity_logs WHERE details = ? ORDER BY timestamp, action',
      [`${user.growId} (${id})`],
    );
    assert.deepEqual(logged.map((l) => l.action).sort(), [
      'Admin added',
      'Admin removed',
      'Super admin added',
      'Super admin demoted',
    ]);
    assert.ok(logged.every((l) => l.actor_name === superAdmin.user.username));
  });

  it("refuses a super admin's own role and permissions ('Cannot modify self'), unknown users and bad ids", async () => {
    const self = superAdmin.user.id;
    for (const [method, path, body] of [
      ['POST', '/admin/admins', { discordId: self }],
      ['DELETE', `/admin/admins/${self}`],
      ['POST', '/admin/superadmins', { discordId: self }],
      ['DELETE', `/admin/superadmins/${self}`],
      ['PUT', `/admin/admins/${self}/permissions`, { permissions: [] }],
    ] as const) {
      const res = await call(superAdmin, method, path, body);
      assert.deepEqual([res.status, res.body.error], [403, m.cannotModifySelf], `${method} ${path}`);
    }
    assert.deepEqual(await roleOf(api(), self), [1, 1, []]);
    assert.equal((await call(superAdmin, 'GET', `/admin/admins/${self}/permissions`)).status, 200);

    const unknown = '99999999999999999';
    for (const [method, path, body] of [
      ['POST', '/admin/admins', { discordId: unknown }],
      ['DELETE', `/admin/admins/${unknown}`],
      ['DELETE', '/admin/superadmins/not-a-snowflake'],
      ['GET', `/admin/admins/${unknown}/permissions`],
      ['PUT', `/admin/admins/${unknown}/permissions`, { permissions: [] }],
    ] as const) {
      const res = await call(superAdmin, method, path, body);
      assert.deepEqual([res.status, res.body.error], [404, m.userNotFound], `${method} ${path}`);
    }
    const bad = await call(superAdmin, 'POST', '/admin/admins', { discordId: 'abc' });
    assert.deepEqual([bad.status, bad.body.error], [400, 'A Discord ID is 17 to 20 digits.']);
  });

  it('reads and replaces an admin permission list, which takes effect at once', async () => {
    const target = await signInAdmin(api(), []);
    const path = `/admin/admins/${target.user.id}/permissions`;
    assert.deepEqual((await call(superAdmin, 'GET', path)).body, { permissions: [] });
    assert.equal((await call(target, 'GET', '/admin/feedback')).status, 403);
    const saved = await call(superAdmin, 'PUT', path, {
      permissions: ['feedback:view', 'users:view', 'feedback:view'],
    });
    assert.deepEqual([saved.status, saved.body], [200, { message: m.permissionsSaved(target.user.username) }]);
    assert.deepEqual((await call(superAdmin, 'GET', path)).body, { permissions: ['users:view', 'feedback:view'] });
    assert.equal((await call(target, 'GET', '/admin/feedback')).status, 200);

    for (const permissions of [['root:all'], 'users:view', [1]]) {
      const res = await call(superAdmin, 'PUT', path, { permissions });
      assert.equal(res.status, 400, JSON.stringify(permissions));
      assert.ok(res.body.error.endsWith(m.permissionInvalid), res.body.error);
    }
    assert.deepEqual(await roleOf(api(), target.user.id), [1, 0, ['users:view', 'feedback:view']]);
    const notAdmin = await signIn(api());
    const res = await call(superAdmin, 'PUT', `/admin/admins/${notAdmin.user.id}/permissions`, { permissions: [] });
    assert.deepEqual([res.status, res.body.error], [409, m.notAdmin]);
  });

  it('two operator revokes at once never leave zero super admins', async () => {
    const db = api().ctx.db;
    const others = await db.all<{ id: string }>('SELECT id FROM users WHERE is_super_admin = 1');
    await db.run('UPDATE users SET is_super_admin = 0 WHERE is_super_admin = 1');
    try {
      const a = await signInAdmin(api(), 'super');
      const b = await signInAdmin(api(), 'super');
      const results = await Promise.allSettled([
        revokeAdmin(db, a.user.id, Date.now()),
        revokeAdmin(db, b.user.id, Date.now()),
      ]);
      assert.deepEqual(results.map((r) => r.status).sort(), ['fulfilled', 'rejected']);
      const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      assert.equal(rejected.reason.message, m.lastSuperAdmin);
      const left = await db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM users WHERE is_super_admin = 1');
      assert.equal(Number(left?.n), 1);
    } finally {
      for (const { id } of others) await db.run('UPDATE users SET is_super_admin = 1 WHERE id = ?', [id]);
    }
  });

  it('lists administrators in pages, super admins first, searchable', async () => {
    const tag = `roster${process.pid}`;
    for (let i = 0; i < 11; i++) {
      const s = await signInAdmin(api(), i === 10 ? 'super' : []);
      await sql(api(), 'UPDATE users SET username = ? WHERE id = ?', [`${tag}-${i}`, s.user.id]);
    }
    const first = adminAccountPageSchema.parse((await call(superAdmin, 'GET', `/admin/admins?search=${tag}`)).body);
    assert.equal(first.total, 11);
    assert.equal(first.items.length, 10);
    assert.equal(first.items[0]?.username, `${tag}-10`, 'the super admin first');
    assert.equal(first.items[0]?.isSuperAdmin, true);
    assert.ok(first.items.every((a) => a.isAdmin && a.username.startsWith(tag)));
    const second = adminAccountPageSchema.parse(
      (await call(superAdmin, 'GET', `/admin/admins?search=${tag}&page=2`)).body,
    );
    assert.equal(second.items.length, 1);
    const none = adminAccountPageSchema.parse((await call(superAdmin, 'GET', '/admin/admins?search=%25_nobody')).body);
    assert.deepEqual([none.total, none.items], [0, []]);
    const plainUsers = adminAccountPageSchema.parse(
      (await call(superAdmin, 'GET', `/admin/admins?search=${plain.user.username}`)).body,
    );
    // Contains-match: other admins' names may hold the plain user's name, so look for the plain user themself.
    assert.ok(!plainUsers.items.some((a) => a.id === plain.user.id), 'plain users are not listed');
  });
});

it('the canopy CLI grants, lists and revokes super admins, never the last one', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'canopy-admin-cli-'));
  const run = (...args: string[]) =>
    promisify(execFile)(process.execPath, ['scripts/canopy.ts', ...args], {
      cwd: new URL('../../../', import.meta.url).pathname,
      env: { ...process.env, CANOPY_DATA_DIR: dataDir, DATABASE_URL: '', CANOPY_SUPER_ADMINS: '' },
    });
  const refused = (text: string) => (e: { stderr: string; code: number }) => e.code === 1 && e.stderr.includes(text);
  const [first, second] = ['111111111111111111', '222222222222222222'];
  try {
    await assert.rejects(run('admin', 'grant', first), refused(m.operatorUnknownUser(first)));
    await assert.rejects(run('admin', 'grant', '12'), (e: { stderr: string; code: number }) => e.code === 2);
    const db = await openDatabase({ dataDir });
    for (const [id, username] of [
      [first, 'ops'],
      [second, 'backup'],
    ] as const)
      await usersRepo.upsertFromDiscord(db, { id, username, discriminator: '0001', avatar: null }, Date.now(), {
        slots: 1,
        serverMs: 0,
      });
    await db.close();
    assert.match((await run('admin', 'list')).stdout, /^no admins$/m);
    assert.match((await run('admin', 'grant', first)).stdout, /ops \(111111111111111111\) is now a super admin/);
    assert.match(
      (await run('admin', 'list')).stdout,
      /^111111111111111111 {2}ops {2}- {2}super admin {2}all permissions$/m,
    );
    await assert.rejects(run('admin', 'revoke', first), refused(m.lastSuperAdmin));
    await run('admin', 'grant', second);
    assert.match((await run('admin', 'revoke', first)).stdout, /is no longer an admin/);
    const listed = (await run('admin', 'list')).stdout;
    assert.doesNotMatch(listed, /111111111111111111/);
    assert.match(listed, /222222222222222222 {2}backup/);
    await assert.rejects(run('admin', 'revoke', first), refused(m.notAdmin));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
