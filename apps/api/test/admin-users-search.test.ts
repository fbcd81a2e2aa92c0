import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { migrate } from '../src/db/migrate.ts';
import { migrations } from '../src/db/migrations.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { openSqlite } from '../src/db/sqlite.ts';
import { createPgDatabase, dialects } from './support/databases.ts';
import { ownerWithServer, signIn, signInAdmin, signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';

type Session = Awaited<ReturnType<typeof signIn>>;
interface Row {
  DiscordID: string;
  DiscordUsername: string;
  GrowID: string | null;
  ServerName: string | null;
}

/** The search as it was before users.search_text: four LIKEs over users joined to servers, in SQL. */
async function oldSearch(api: TestApi, text: string): Promise<string[]> {
  const p = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await api.ctx.db.all<{ id: string }>(
    `SELECT u.id FROM users u LEFT JOIN servers s ON s.owner_id = u.id
     WHERE LOWER(u.username) LIKE ? ESCAPE '\\' OR LOWER(u.grow_id_key) LIKE ? ESCAPE '\\'
       OR LOWER(u.id) LIKE ? ESCAPE '\\' OR s.name_key LIKE ? ESCAPE '\\'`,
    [p, p, p, p],
  );
  return rows.map((r) => r.id).sort();
}

describeEachDatabase('admin users search', (api) => {
  let admin: Session;
  let owner: Awaited<ReturnType<typeof ownerWithServer>>;
  let late: Session;
  // Unique per run and database, so each search below knows exactly whom it must find.
  const tag = `q${process.pid % 100000}`;
  const server = `SrvMix${tag}`;

  const search = async (text: string, page = 1) => {
    const res = await api().request('GET', `/admin/all-users?search=${encodeURIComponent(text)}&page=${page}`, {
      token: admin.sessionToken,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as { items: Row[]; total: number };
  };
  const ids = async (text: string) => {
    const body = await search(text);
    const found = body.items.map((r) => r.DiscordID).sort();
    assert.equal(body.total, found.length, `total of "${text}"`);
    assert.deepEqual(found, await oldSearch(api(), text), `"${text}" finds what the four LIKEs found`);
    return found;
  };

  before(async () => {
    admin = await signInAdmin(api(), 'super');
    owner = await ownerWithServer(api(), server);
    await api().ctx.db.run('UPDATE users SET username = ? WHERE id = ?', [`OwnerName${tag}`, owner.user.id]);
    late = await signIn(api(), { username: `latecomer${tag}` });
  });

  it('covers Discord username, GrowID, Discord ID and server name, whatever the case', async () => {
    const id = owner.user.id;
    assert.deepEqual(await ids(`ownername${tag}`.toUpperCase()), [id], 'Discord username');
    assert.deepEqual(await ids(owner.growId.slice(1).toLowerCase()), [id], 'GrowID');
    assert.deepEqual(await ids(id.slice(6)), [id], 'Discord ID');
    assert.deepEqual(await ids(`srvmix${tag}`), [id], 'server name');
    const [row] = (await search(`SRVMIX${tag}`)).items;
    assert.deepEqual(
      { name: row?.DiscordUsername, grow: row?.GrowID, server: row?.ServerName },
      { name: `OwnerName${tag}`, grow: owner.growId, server },
    );
    // One field's end and the next one's start are not one word.
    assert.deepEqual(await ids(`${tag}${owner.growId.slice(0, 3)}`), []);
    assert.deepEqual(await ids(`name${tag}\n${owner.growId}`), []);
    assert.deepEqual(await ids('100%_'), [], 'LIKE wildcards are plain characters');
  });

  it('follows a GrowID registered after sign-in, a renamed server and a deleted one', async () => {
    const growId = `G${late.user.id.slice(-10)}`;
    assert.deepEqual(await ids(growId), []);
    assert.deepEqual(await ids(`latecomer${tag}`), [late.user.id]);
    const reg = await api().request('POST', '/register', {
      token: late.sessionToken,
      body: { discordId: late.user.id, discordUsername: late.user.username, growId },
    });
    assert.equal(reg.status, 201, JSON.stringify(reg.body));
    assert.deepEqual(await ids(growId.toLowerCase()), [late.user.id], 'the GrowID is searchable at once');

    await api().ctx.db.run('UPDATE servers SET name = ?, name_key = ? WHERE owner_id = ?', [
      `Renamed${tag}`,
      `renamed${tag}`,
      owner.user.id,
    ]);
    assert.deepEqual(await ids(`srvmix${tag}`), [], 'the old name no longer finds the owner');
    assert.deepEqual(await ids(`RENAMED${tag}`), [owner.user.id]);

    const del = await api().request('DELETE', `/users/${owner.user.id}/server`, { token: owner.sessionToken });
    assert.equal(del.status, 200, JSON.stringify(del.body));
    assert.deepEqual(await ids(`renamed${tag}`), [], 'a deleted server is not searched');
    const [row] = (await search(`ownername${tag}`)).items;
    assert.equal(row?.ServerName, null);
  });

  it('counts every match and pages them, ten a page', async () => {
    const many = `crowd${tag}x`;
    const made: string[] = [];
    for (let k = 0; k < 12; k++) made.push((await signInRegistered(api(), { username: `${many}${k}` })).user.id);
    const first = await search(many.toUpperCase());
    const second = await search(many, 2);
    assert.equal(first.total, 12);
    assert.equal(second.total, 12);
    assert.equal(first.items.length, 10);
    assert.equal(second.items.length, 2);
    const past = await search(many, 3);
    assert.deepEqual([past.items.length, past.total], [0, 12], 'a page past the end still tells the total');
    assert.deepEqual([...first.items, ...second.items].map((r) => r.DiscordID).sort(), made.sort());
  });
});

for (const dialect of dialects)
  describe(`migration 10 [${dialect}]`, () => {
    it('fills the search text of the users already there', async () => {
      const pg = dialect === 'postgres' ? await createPgDatabase() : undefined;
      const db = pg ? openPostgres(pg.url) : openSqlite(':memory:');
      try {
        await migrate(
          db,
          migrations.filter((m) => m.version < 10),
        );
        await db.run(
          "INSERT INTO users (id, username, grow_id, grow_id_key, created_at) VALUES ('77', 'Ann', 'AnnG', 'anng', 1), ('78', 'Bo', NULL, NULL, 2)",
        );
        await db.run(
          "INSERT INTO servers (id, owner_id, name, name_key, game_port, control_secret, created_at) VALUES ('s1', '77', 'AnnWorld', 'annworld', 30001, '', 1)",
        );
        assert.deepEqual(
          await migrate(
            db,
            migrations.filter((m) => m.version <= 10),
          ),
          [10],
        );
        const rows = await db.all<{ id: string; search_text: string }>('SELECT id, search_text FROM users ORDER BY id');
        assert.deepEqual(
          rows.map((r) => ({ ...r })),
          [
            { id: '77', search_text: 'ann\nanng\n77\nannworld' },
            { id: '78', search_text: 'bo\n\n78\n' },
          ],
        );
      } finally {
        await db.close();
        await pg?.drop();
      }
    });
  });
