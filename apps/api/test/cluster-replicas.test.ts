// Canopy as deployed on a cluster (issue 22): three api processes with CANOPY_RUNTIME=kubernetes on one PostgreSQL,
// the Kubernetes + Agones stand-in running each GameServer as a real engine, and the gateway as its own process.
// Browsers are the api's WebSocket and HTTP as a signed-in user: a power action sent to one replica reaches a browser
// on another, the console crosses replicas straight from the engine (never through PostgreSQL), and a player joins
// through the gateway to the address Agones gave the GameServer. Killing replicas: cluster-failover.test.ts.

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Bot, loginValidateUrl, tokenForm } from '@canopy/gtclient';
import pg from 'pg';
import { EVENTS_CHANNEL } from '../src/events/pg-relay.ts';
import { objectNames } from '../src/runtime/kubernetes/names.ts';
import { type ApiCluster, call, feedStatus, ownerOf, startApiCluster } from './support/cluster.ts';
import { consoleOf, openSocket } from './support/console-socket.ts';
import { dialects } from './support/databases.ts';
import { GATEWAY_ENV } from './support/gateway.ts';
import { freeTcpPort, LOGIN_NAME, loginCertificate, postLoginPage, tokenOf } from './support/login-host.ts';
import { until, untilValue } from './support/until.ts';

describe('three api replicas with the kubernetes runtime on one PostgreSQL', {
  skip: !dialects.includes('postgres'),
}, () => {
  let cluster: ApiCluster;
  /** Every NOTIFY on the events channel while the file runs, as the replicas' relays see them. */
  const notified: { e: string; p: unknown; text: string }[] = [];
  const listener = { client: undefined as pg.Client | undefined };
  const name = `Leafy${process.pid % 10000}`;
  let owner: Awaited<ReturnType<typeof ownerOf>>;
  const replica = (n: number) => {
    const r = cluster.replicas[n];
    if (!r) throw new Error(`no replica ${n}`);
    return r;
  };
  const gameServer = () => cluster.stand.objects.get('gameservers', objectNames(owner.serverId).gameServer);
  const statuses = (messages: { type: string; payload?: unknown }[]) =>
    messages.flatMap((m) =>
      m.type === 'status_update' && (m.payload as { name: string }).name === name
        ? [(m.payload as { status: string }).status]
        : [],
    );

  before(async () => {
    cluster = await startApiCluster({ replicas: 3 });
    const client = new pg.Client({ connectionString: cluster.databaseUrl });
    listener.client = client;
    await client.connect();
    client.on('notification', (msg) => {
      const text = msg.payload ?? '';
      const envelope = JSON.parse(text) as { e: string; p: unknown };
      notified.push({ e: envelope.e, p: envelope.p, text });
    });
    await client.query(`LISTEN ${EVENTS_CHANNEL}`);
    owner = await ownerOf(cluster, replica(0).url, name);
  });
  after(async () => {
    await listener.client?.end().catch(() => {});
    await cluster?.close();
  });

  it('shows a start sent to replica A as STARTING then ONLINE to a browser on replica B', async () => {
    const onB = await openSocket({ url: replica(1).url }, owner.id, owner.token);
    try {
      const start = await call(replica(0).url, owner.token, 'POST', `/users/${owner.id}/server/${name}/start`);
      assert.equal(start.status, 202, JSON.stringify(start.body));
      await until(() => statuses(onB.messages).includes('ONLINE'), 'ONLINE on the browser of replica B', 60_000);
      const seen = statuses(onB.messages);
      assert.ok(seen.indexOf('STARTING') >= 0 && seen.indexOf('STARTING') < seen.indexOf('ONLINE'), String(seen));
      assert.equal(gameServer()?.status?.state, 'Ready', 'Agones calls the GameServer Ready');
      // The third replica, which no one asked, agrees: it watches the cluster too.
      await untilValue(async () => ((await feedStatus(replica(2).url, name)) === 'ONLINE' ? true : undefined), 'C');
      // Each replica saw the change in the cluster itself: no status went through PostgreSQL (it would arrive twice).
      assert.deepEqual(
        notified.filter((n) => n.e === 'status' && (n.p as { name: string }).name === name),
        [],
      );
    } finally {
      onB.ws.close();
    }
  });

  it('brings a console command sent on replica A to a console watched on replica B, not through PostgreSQL', async () => {
    const onB = await consoleOf({ url: replica(1).url }, owner.id, owner.token);
    const onA = await consoleOf({ url: replica(0).url }, owner.id, owner.token);
    try {
      const marker = `across-replicas-${process.pid}`;
      const before = notified.length;
      onA.send(`say ${marker}`);
      await until(() => onB.lines().some((l) => l.includes(`[SERVER] ${marker}`)), 'the line on replica B');
      await until(() => onA.lines().some((l) => l.includes(`[SERVER] ${marker}`)), 'the line on replica A');
      assert.deepEqual(onA.errors(), []);
      // A replica publishes an event before its own sockets get it, so a NOTIFY of the line would have been sent
      // by now; NOTIFYs arrive in commit order, so once a probe sent after it is here, that one would be too.
      const probe = JSON.stringify({ r: 'test', e: 'probe', p: marker });
      await cluster.db.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, probe]);
      await until(() => notified.some((n) => n.text === probe), 'the probe NOTIFY');
      const during = notified.slice(before).filter((n) => n.text !== probe);
      assert.deepEqual(
        during.filter((n) => n.e === 'console' || n.text.includes(marker)),
        [],
        'no console line was published on the events channel',
      );
    } finally {
      onA.ws.close();
      onB.ws.close();
    }
  });

  it('lets a player join through the gateway, sent to the address and port Agones gave the GameServer', async () => {
    const login = await loginCertificate();
    const bot = new Bot({ stepTimeoutMs: 15_000 });
    try {
      const loginPort = await freeTcpPort();
      const gateway = await cluster.startGateway({
        ...GATEWAY_ENV,
        CANOPY_GATEWAY_TLS_PORT: String(loginPort),
        CANOPY_LOGIN_HOST: `${LOGIN_NAME}:${loginPort}`,
        CANOPY_LOGIN_TLS_CERT: login.certPath,
        CANOPY_LOGIN_TLS_KEY: login.keyPath,
      });
      const status = gameServer()?.status as { address: string; ports: { name: string; port: number }[] };
      const agones = { host: status.address, port: status.ports.find((p) => p.name === 'game')?.port };
      // The gateway runs apart: it knows where the server is from what the replicas recorded in its row.
      const row = await cluster.db.query<{ game_address: string | null; game_port: number }>(
        'SELECT game_address, game_port FROM servers WHERE id = $1',
        [owner.serverId],
      );
      assert.equal(row.rows[0]?.game_address, `${agones.host}:${agones.port}`);

      const serverData = await bot.serverData(`https://127.0.0.1:${gateway.tls}`, { insecure: true });
      assert.deepEqual([serverData.server, serverData.port], ['127.0.0.1', gateway.udp]);
      const validate = loginValidateUrl(serverData.loginUrl as string);
      const form = tokenForm({ server: name, growId: 'Climber', password: 'pw-cluster-leafy' });
      const token = tokenOf(await postLoginPage(validate, { ...form, create: '1' }, login.cert));
      const result = await bot.login(
        { host: serverData.server, port: serverData.port },
        { token, meta: serverData.meta },
      );
      assert.deepEqual(result.engine, agones, 'OnSendToServer named the GameServer’s address and host port');
      assert.notEqual(result.engine.port, Number(row.rows[0]?.game_port), 'not the port the api recorded at creation');
      assert.equal(result.name, 'Climber');
      // login() resolved on the engine's logon answer; the world menu comes from that engine's game loop.
      assert.match(await bot.enterGame(), /\S/, 'the engine in the pod plays the session');
    } finally {
      bot.enet?.disconnectNow();
      rmSync(login.dir, { recursive: true, force: true });
    }
  });

  it('shows a stop sent to replica B to a browser on replica A, and leaves no GameServer', async () => {
    const onA = await openSocket({ url: replica(0).url }, owner.id, owner.token);
    try {
      const stop = await call(replica(1).url, owner.token, 'POST', `/users/${owner.id}/server/${name}/stop`);
      assert.equal(stop.status, 202, JSON.stringify(stop.body));
      await until(() => statuses(onA.messages).includes('OFFLINE'), 'OFFLINE on the browser of replica A', 60_000);
      const seen = statuses(onA.messages);
      assert.ok(seen.indexOf('STOPPING') >= 0 && seen.indexOf('STOPPING') < seen.lastIndexOf('OFFLINE'), String(seen));
      assert.equal(gameServer(), undefined);
      await until(
        () => cluster.stand.objects.get('pods', objectNames(owner.serverId).gameServer) === undefined,
        'the engine pod to go',
      );
      for (const r of cluster.replicas) assert.equal(await feedStatus(r.url, name), 'OFFLINE', r.name);
    } finally {
      onA.ws.close();
    }
  });
});
