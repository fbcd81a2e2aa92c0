import assert from 'node:assert/strict';
import { it } from 'node:test';
import { hostingMessages as m, type ServerSocketMessage, serverSocketMessageSchema } from '@canopy/contract';
import { WebSocket } from 'ws';
import { signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { sql, waitForStatus } from './support/servers.ts';

type Session = Awaited<ReturnType<typeof signInRegistered>>;

function connect(api: TestApi, s: Session) {
  const ws = new WebSocket(`${api.url.replace('http', 'ws')}/ws/${s.user.id}?token=${s.sessionToken}`);
  const messages: ServerSocketMessage[] = [];
  ws.on('message', (d) => messages.push(serverSocketMessageSchema.parse(JSON.parse(String(d)))));
  const opened = new Promise<void>((resolve) => ws.once('open', () => resolve()));
  return { ws, messages, opened };
}

async function until(check: () => boolean, what: string, ms = 20000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const errorOf = (messages: ServerSocketMessage[]) =>
  messages.filter((x) => x.type === 'error').map((x) => (x.type === 'error' ? x.payload.message : ''));

describeEachDatabase('hardening', (api) => {
  it('survives a malformed socket path and an oversized frame', async () => {
    await new Promise<void>((resolve) => {
      const ws = new WebSocket(`${api().url.replace('http', 'ws')}/ws/%E0%A4%A?token=x`);
      ws.on('error', () => resolve());
      ws.on('close', () => resolve());
    });
    await new Promise<void>((resolve) => {
      const ws = new WebSocket(`${api().url.replace('http', 'ws')}/ws/123?token=x`);
      ws.on('open', () => ws.send('x'.repeat(70 * 1024)));
      ws.on('error', () => resolve());
      ws.on('close', () => resolve());
    });
    assert.equal((await api().request('GET', '/status')).status, 200, 'the api is still up');
  });

  it('treats console stop as a power action and refuses multi-line commands', async () => {
    const owner = await signInRegistered(api());
    const helper = await signInRegistered(api());
    const name = `hard${api().dialect[0]}${process.pid % 1000}`;
    const call = (s: Session, method: string, path: string, body?: unknown) =>
      api().request(method, `/users/${s.user.id}/server${path}`, { token: s.sessionToken, body });
    await call(owner, 'POST', '', { serverName: name });
    await call(owner, 'POST', '/collaborators', { discordId: helper.user.id, permissions: ['console:use'] });
    await call(owner, 'POST', `/${name}/start`);
    await waitForStatus(api(), name, 'ONLINE');

    const h = connect(api(), helper);
    await h.opened;
    h.ws.send(JSON.stringify({ type: 'console_command', payload: { command: 'status\nplayers' } }));
    await until(() => errorOf(h.messages).includes('A command must be a single line.'), 'multi-line refusal');
    h.ws.send(JSON.stringify({ type: 'console_command', payload: { command: 'stop' } }));
    await until(() => errorOf(h.messages).includes(m.noActionPermission), 'stop refused without server:actions');
    assert.equal(
      (await api().request('GET', '/status')).body.hostedServers.find((x: { name: string }) => x.name === name).status,
      'ONLINE',
    );

    const o = connect(api(), owner);
    await o.opened;
    o.ws.send(JSON.stringify({ type: 'console_command', payload: { command: 'STOP' } }));
    await waitForStatus(api(), name, 'OFFLINE');
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(
      (await api().request('GET', '/status')).body.hostedServers.find((x: { name: string }) => x.name === name).status,
      'OFFLINE',
      'a stop typed in the console is not treated as a crash and restarted',
    );
    h.ws.close();
    o.ws.close();
  });

  it('ends a console subscription when the collaborator is removed', async () => {
    const owner = await signInRegistered(api());
    const helper = await signInRegistered(api());
    const name = `rev${api().dialect[0]}${process.pid % 1000}`;
    const call = (s: Session, method: string, path: string, body?: unknown) =>
      api().request(method, `/users/${s.user.id}/server${path}`, { token: s.sessionToken, body });
    await call(owner, 'POST', '', { serverName: name });
    await call(owner, 'POST', '/collaborators', { discordId: helper.user.id, permissions: ['console:use'] });
    const h = connect(api(), helper);
    await h.opened;
    h.ws.send(JSON.stringify({ type: 'console_subscribe' }));
    await until(() => h.messages.some((x) => x.type === 'console_history'), 'history');
    await call(owner, 'DELETE', `/collaborators/${helper.user.id}`);
    await until(() => errorOf(h.messages).length > 0, 'the subscription ended', 10000);

    // A collaborator may not create a server of their own while they collaborate.
    await call(owner, 'POST', '/collaborators', { discordId: helper.user.id, permissions: ['console:use'] });
    const create = await call(helper, 'POST', '', { serverName: `${name}x` });
    assert.equal(create.status, 403);
    assert.equal(create.body.error, m.collaboratorCannotCreate);
    h.ws.close();
  });

  it('refuses start and restart alike when storage is full, and stop still works', async () => {
    const owner = await signInRegistered(api());
    const name = `full${api().dialect[0]}${process.pid % 1000}`;
    const call = (method: string, path: string, body?: unknown) =>
      api().request(method, `/users/${owner.user.id}/server${path}`, { token: owner.sessionToken, body });
    await call('POST', '', { serverName: name });
    await call('POST', `/${name}/start`);
    await waitForStatus(api(), name, 'ONLINE');
    await sql(api(), 'UPDATE users SET storage_limit_mb = 0 WHERE id = ?', [owner.user.id]);
    const restart = await call('POST', `/${name}/restart`);
    assert.equal(restart.status, 409);
    assert.equal(restart.body.error, m.storageFull);
    await waitForStatus(api(), name, 'ONLINE');
    assert.equal((await call('POST', `/${name}/stop`)).status, 202);
    await waitForStatus(api(), name, 'OFFLINE');
    const start = await call('POST', `/${name}/start`);
    assert.equal(start.status, 409);
    assert.equal(start.body.error, m.storageFull);
  });
});
