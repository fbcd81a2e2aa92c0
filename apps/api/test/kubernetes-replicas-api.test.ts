import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { ServerSocketMessage } from '@canopy/contract';
import { readGameToken } from '@canopy/contract/game-token';
import { gatewayRepo } from '../src/gateway/gateway.repo.ts';
import { loadGatewayKey } from '../src/gateway/keys.ts';
import { loginToServer } from '../src/gateway/login.service.ts';
import { embeddedGatewayContext, recordedTenants } from '../src/gateway/tenants.ts';
import { consoleOf, openSocket } from './support/console-socket.ts';
import { createPgDatabase, dialects } from './support/databases.ts';
import { ownerWithServer } from './support/factories.ts';
import { startApi, type TestApi } from './support/harness.ts';
import { type K8sStandIn, startK8sStandIn } from './support/k8s-stand-in/index.ts';
import { until, untilValue } from './support/until.ts';

// Two api replicas on one PostgreSQL with CANOPY_RUNTIME=kubernetes (ADR 0043), on the stand-in cluster: each
// replica watches the cluster itself, so a status reaches each browser once (not relayed as well), console lines
// reach a browser on either replica, and the gateway sends players to the address Agones gave.

const statuses = (messages: ServerSocketMessage[], name: string) =>
  messages.flatMap((m) => (m.type === 'status_update' && m.payload.name === name ? [m.payload.status] : []));

describe('two api replicas with the kubernetes runtime', { skip: !dialects.includes('postgres') }, () => {
  let stand: K8sStandIn;
  let pgDb: Awaited<ReturnType<typeof createPgDatabase>>;
  let a: TestApi;
  let b: TestApi;
  const name = `Kube${process.pid % 10000}`;
  let owner: Awaited<ReturnType<typeof ownerWithServer>>;

  before(async () => {
    stand = await startK8sStandIn({ root: new URL('../../../', import.meta.url).pathname });
    // The driver finds its cluster as kubectl does.
    process.env.KUBECONFIG = stand.kubeconfigPath;
    pgDb = await createPgDatabase();
    const env = {
      DATABASE_URL: pgDb.url,
      CANOPY_SESSION_SECRET: randomBytes(32).toString('hex'),
      CANOPY_SCHEDULER_LEADER_RETRY_MS: '200',
      CANOPY_RUNTIME: 'kubernetes',
      CANOPY_K8S_ENGINE_IMAGE: 'canopy-engine:test',
      CANOPY_K8S_NAMESPACE: stand.namespace,
      // Shared by the replicas, as each derives the engines' control secrets from it.
      CANOPY_CONTROL_KEY: randomBytes(32).toString('hex'),
    };
    a = await startApi('postgres', env);
    b = await startApi('postgres', env);
    // Made on A after B started: B learns of it from the cluster.
    owner = await ownerWithServer(a, name);
  });
  after(async () => {
    await a?.close();
    await b?.close();
    await pgDb?.drop();
    await stand?.stop();
  });

  it('starts on B and tells sockets on A and on B each change once', async () => {
    const onA = await openSocket(a, owner.user.id, owner.sessionToken);
    const onB = await openSocket(b, owner.user.id, owner.sessionToken);
    const start = await b.request('POST', `/users/${owner.user.id}/server/${name}/start`, {
      token: owner.sessionToken,
    });
    assert.equal(start.status, 202, JSON.stringify(start.body));
    for (const s of [onA, onB])
      await until(() => statuses(s.messages, name).includes('ONLINE'), 'ONLINE on both replicas');
    // Relayed over LISTEN/NOTIFY as well, each change would come twice to the sockets of the replica that did not act.
    assert.deepEqual(
      statuses(onA.messages, name).filter((s) => s === 'STARTING'),
      ['STARTING'],
    );
    assert.deepEqual(
      statuses(onB.messages, name).filter((s) => s === 'STARTING'),
      ['STARTING'],
    );
    for (const s of [onA, onB]) s.ws.close();
  });

  it('brings console lines to a browser on either replica', async () => {
    const viewA = await consoleOf(a, owner.user.id, owner.sessionToken);
    const viewB = await consoleOf(b, owner.user.id, owner.sessionToken);
    assert.ok(
      viewA.lines().some((l) => l.includes('[INFO] READY')),
      "A's history is the engine's",
    );
    viewB.send('say hello across replicas');
    for (const view of [viewA, viewB])
      await until(() => view.lines().some((l) => l.includes('[SERVER] hello across replicas')), 'the line');
    for (const view of [viewA, viewB]) view.ws.close();
  });

  it("signs a player in with a game token naming the GameServer's address", async () => {
    const id = (await a.ctx.db.get<{ id: string }>('SELECT id FROM servers WHERE name = ?', [name]))?.id ?? '';
    const address = a.ctx.servers.runtime.state(id).address;
    assert.ok(address, 'the runtime names where players go');
    const key = loadGatewayKey(a.ctx.config.dataDir);
    const login = await loginToServer(embeddedGatewayContext(a.ctx), key, {
      server: name,
      growId: 'Kubey',
      password: 'leafy-pw',
      create: true,
    });
    const ticket = readGameToken(login.token, 'gateway', key, Date.now());
    assert.ok(ticket && ticket !== 'expired');
    assert.deepEqual({ host: ticket.host, port: ticket.port }, address);
    // A gateway run apart reads the same address from the database.
    const row = await untilValue(async () => {
      const r = await gatewayRepo.findServerByName(b.ctx.db, name);
      return r?.game_address ? r : undefined;
    }, 'the recorded game address');
    assert.deepEqual(recordedTenants(b.ctx.db, b.ctx.config).address(row), address);
  });

  it('stops from A; both replicas see it OFFLINE and nobody counts a crash', async () => {
    const stop = await a.request('POST', `/users/${owner.user.id}/server/${name}/stop`, {
      token: owner.sessionToken,
    });
    assert.equal(stop.status, 202, JSON.stringify(stop.body));
    const id = (await a.ctx.db.get<{ id: string }>('SELECT id FROM servers WHERE name = ?', [name]))?.id ?? '';
    for (const api of [a, b])
      await until(() => api.ctx.servers.runtime.state(id).status === 'OFFLINE', 'OFFLINE on both replicas');
    const row = await a.ctx.db.get<{ at: number | null }>('SELECT last_crash_at AS at FROM servers WHERE id = ?', [id]);
    assert.equal(row?.at, null);
  });

  it('answers one of two starts sent to A and B at once, and 409 to the other', async () => {
    const start = (api: TestApi) =>
      api.request('POST', `/users/${owner.user.id}/server/${name}/start`, { token: owner.sessionToken });
    const answers = (await Promise.all([start(a), start(b)])).map((r) => r.status).sort();
    assert.deepEqual(answers, [202, 409]);
    const id = (await a.ctx.db.get<{ id: string }>('SELECT id FROM servers WHERE name = ?', [name]))?.id ?? '';
    for (const api of [a, b])
      await until(() => api.ctx.servers.runtime.state(id).status === 'ONLINE', 'ONLINE on both replicas');
    const desired = await a.ctx.db.get<{ d: string }>('SELECT desired_state AS d FROM servers WHERE id = ?', [id]);
    assert.equal(desired?.d, 'running');
  });
});
