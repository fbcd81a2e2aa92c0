import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GAME_TOKEN_TTL_MS } from '@canopy/contract/game-token';
import {
  killAll,
  type RunningEngine,
  removeDataDir,
  startEngine,
  stopEngine,
  tempDataDir,
} from './support/engine-process.ts';
import { buildPlayer } from './support/factories.ts';
import { GameClient, testToken } from './support/game-client.ts';

const LOGON = 'OnSuperMainStartAcceptLogonHrdxs47254722215a';

describe('game login', () => {
  let engine: RunningEngine;
  const clients: GameClient[] = [];
  const connect = async () => {
    const c = await GameClient.connect(engine.gamePort);
    clients.push(c);
    return c;
  };
  /** Logs in with `token` and expects a refusal naming `reason`, then a disconnect. */
  const refused = async (token: string, reason: RegExp) => {
    const c = await connect();
    const from = c.received.length;
    const answer = await c.login(token);
    assert.equal(answer.call?.name, 'OnConsoleMessage');
    assert.match(String(answer.call?.args[0]), reason);
    // As the references refuse a login: the reason in the client's log, then logon_fail (the client stops).
    const log = await c.waitFor((m) => m.type === 3 && /^action\|log\nmsg\|/.test(m.text ?? ''), from);
    assert.match(log.text ?? '', reason);
    await c.waitFor((m) => m.type === 3 && m.text === 'action|logon_fail', from);
    await c.waitForDisconnect();
    c.close();
  };
  before(async () => {
    const dataDir = tempDataDir();
    engine = await startEngine({
      dataDir,
      args: ['--data-dir', dataDir, '--game-port', '0', '--control-port', '0', '--standard-enet-header'],
    });
    assert.equal((await engine.request('PUT', '/players/Alice', buildPlayer())).status, 201);
    assert.equal((await engine.request('PUT', '/players/Banned', buildPlayer({ banned: true }))).status, 201);
    // The logon carries the hash of the items.dat built after READY.
    await engine.waitForLine(/Built effective-items\.dat: .* hash \d+/);
  });
  after(async () => {
    for (const c of clients) c.close();
    await stopEngine(engine);
    killAll();
    removeDataDir(engine.dataDir);
  });

  it('accepts a good token and answers with the hash of the items.dat the engine built', async () => {
    const c = await connect();
    const answer = await c.login(testToken('alice'));
    assert.equal(answer.call?.name, LOGON);
    const built = /hash (\d+)/.exec(engine.lines.find((l) => /Built effective-items/.test(l)) ?? '')?.[1];
    assert.ok(built && Number(built) > 0);
    assert.equal(answer.call?.args[0], Number(built));
    await engine.waitForLine(/\[INFO\] Alice logged in$/);
    assert.equal((await engine.request('GET', '/stats')).body.players, 1);
    await engine.waitForLine(/\[INFO\] Players online: 1$/);
    await c.disconnect();
    await engine.waitForLine(/\[INFO\] Players online: 0$/);
  });

  it('refuses a token signed for another server', () =>
    refused(testToken('alice', { secret: 'another-engine-secret-0123456789' }), /not valid for this server/));

  it('refuses an expired token', () =>
    refused(testToken('alice', { now: Date.now() - GAME_TOKEN_TTL_MS - 1 }), /expired/));

  it('refuses a token used before', async () => {
    const token = testToken('alice');
    const first = await connect();
    assert.equal((await first.login(token)).call?.name, LOGON);
    await refused(token, /already used/);
    await first.disconnect();
  });

  it('refuses a banned or unknown GrowID, and a login without a token', async () => {
    await refused(testToken('banned'), /banned/);
    await refused(testToken('nobody'), /No such GrowID/);
    const c = await connect();
    c.sendText(['requestedName|x', 'protocol|225']);
    const answer = await c.waitForCall('OnConsoleMessage');
    assert.match(String(answer.call?.args[0]), /No login token/);
    await c.waitForDisconnect();
  });

  it('takes one login per peer', async () => {
    const c = await connect();
    assert.equal((await c.login(testToken('alice'))).call?.name, LOGON);
    const from = c.received.length;
    c.sendText([`UUIDToken|${testToken('alice')}`]);
    // The second login is ignored: no second logon; the game goes on (enter_game answers the menu).
    c.sendGame(['action|enter_game']);
    await c.waitForCall('OnRequestWorldSelectMenu', from);
    assert.ok(!c.received.slice(from).some((m) => m.call?.name === LOGON));
    await c.disconnect();
  });
});
