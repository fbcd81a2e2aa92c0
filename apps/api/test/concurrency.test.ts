import assert from 'node:assert/strict';
import { it } from 'node:test';
import { hostingMessages as m, serverPageMessages as p } from '@canopy/contract';
import { signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';

// Requests are fired together with Promise.all: the api sees them interleaved, as it did the
// browsers of the reproduction. Nothing here waits on time.

type Session = Awaited<ReturnType<typeof signInRegistered>>;
let seq = 0;
const uniqueName = () => `race${process.pid % 1000}x${++seq}`;
// Wider than the harness's 10 ports: this file creates some 50 servers; no engine is started in it.
const base = 45000 + ((process.pid * 7) % 140) * 100;
const GAME_PORTS = `${base}-${base + 99}`;

const users = (api: TestApi, n: number) => Promise.all(Array.from({ length: n }, () => signInRegistered(api)));
const create = (api: TestApi, s: Session, serverName: string) =>
  api.request('POST', `/users/${s.user.id}/server`, { token: s.sessionToken, body: { serverName } });
const invite = (api: TestApi, owner: Session, discordId: string) =>
  api.request('POST', `/users/${owner.user.id}/server/collaborators`, {
    token: owner.sessionToken,
    body: { discordId, permissions: ['console:use'] },
  });
const count = (api: TestApi, sql: string, params: string[]) =>
  api.ctx.db.get<{ n: number }>(sql, params).then((r) => Number(r?.n));

describeEachDatabase(
  'concurrent creates and invitations',
  (api) => {
    it('20 users creating servers with distinct names at once all get one, each on its own port', async () => {
      const people = await users(api(), 20);
      const answers = await Promise.all(people.map((s) => create(api(), s, uniqueName())));
      assert.deepEqual(
        answers.map((a) => a.status),
        people.map(() => 201),
        JSON.stringify(answers.filter((a) => a.status !== 201).map((a) => a.body)),
      );
      const ports = await api().ctx.db.all<{ game_port: number }>(
        `SELECT game_port FROM servers WHERE owner_id IN (${people.map(() => '?').join(', ')})`,
        people.map((s) => s.user.id),
      );
      assert.equal(new Set(ports.map((r) => Number(r.game_port))).size, 20);
    });

    it('10 users creating the same name at once: exactly one gets it, the others are told it is taken', async () => {
      const people = await users(api(), 10);
      const name = uniqueName();
      const answers = await Promise.all(people.map((s) => create(api(), s, name)));
      assert.equal(answers.filter((a) => a.status === 201).length, 1);
      for (const a of answers.filter((x) => x.status !== 201)) {
        assert.equal(a.status, 409);
        assert.equal(a.body.error, m.serverNameTaken);
      }
      const slotsLeft = await count(
        api(),
        `SELECT SUM(available_slot) AS n FROM users WHERE id IN (${people.map(() => '?').join(', ')})`,
        people.map((s) => s.user.id),
      );
      assert.equal(slotsLeft, 9, 'a refused create keeps its slot');
    });

    it('one user creating twice at once gets one server and the one-server text', async () => {
      const [s] = await users(api(), 1);
      if (!s) throw new Error('no user');
      const answers = await Promise.all([create(api(), s, uniqueName()), create(api(), s, uniqueName())]);
      assert.deepEqual(answers.map((a) => a.status).sort(), [201, 409]);
      assert.equal(answers.find((a) => a.status === 409)?.body.error, m.alreadyOwnsServer);
    });

    it('11 owners inviting the same user at once: one invitation, the others refused', async () => {
      const owners = await users(api(), 11);
      await Promise.all(owners.map(async (o) => assert.equal((await create(api(), o, uniqueName())).status, 201)));
      const [target] = await users(api(), 1);
      if (!target) throw new Error('no user');
      const answers = await Promise.all(owners.map((o) => invite(api(), o, target.user.id)));
      assert.equal(answers.filter((a) => a.status === 201).length, 1, JSON.stringify(answers.map((a) => a.status)));
      for (const a of answers.filter((x) => x.status !== 201)) {
        assert.equal(a.status, 400);
        assert.equal(a.body.error, `${p.invalidCollaborator} This user already collaborates on a server.`);
      }
      assert.equal(
        await count(api(), 'SELECT COUNT(*) AS n FROM collaborators WHERE user_id = ?', [target.user.id]),
        1,
      );
    });

    it('an invitation racing the invitee creating their own server: one wins, never both', async () => {
      for (let round = 0; round < 8; round++) {
        const [owner, target] = await users(api(), 2);
        if (!owner || !target) throw new Error('no user');
        assert.equal((await create(api(), owner, uniqueName())).status, 201);
        const [invited, created] = await Promise.all([
          invite(api(), owner, target.user.id),
          create(api(), target, uniqueName()),
        ]);
        const owns = await count(api(), 'SELECT COUNT(*) AS n FROM servers WHERE owner_id = ?', [target.user.id]);
        const collaborates = await count(api(), 'SELECT COUNT(*) AS n FROM collaborators WHERE user_id = ?', [
          target.user.id,
        ]);
        assert.equal(owns + collaborates, 1, `round ${round}: owns ${owns}, collaborates ${collaborates}`);
        if (invited.status === 201) {
          assert.equal(created.status, 403);
          assert.equal(created.body.error, m.collaboratorCannotCreate);
        } else {
          assert.equal(created.status, 201);
          assert.equal(invited.status, 400);
          assert.equal(invited.body.error, `${p.invalidCollaborator} This user owns a server of their own.`);
        }
      }
    });
  },
  { CANOPY_GAME_PORTS: GAME_PORTS },
);
