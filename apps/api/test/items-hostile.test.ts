// Regression test from an attack on GET /cache/{file} (issue 9): each download read the whole texture into
// memory, so one user opening many downloads of a 4 MB custom texture and not reading them held 4 MB each.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { before, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { signInRegistered } from './support/factories.ts';
import { describeEachDatabase, type TestApi } from './support/harness.ts';
import { serverFiles } from './support/server-files.ts';

type Session = Awaited<ReturnType<typeof signInRegistered>>;

// The chunks a stream already handed to the kernel are garbage, but they count in arrayBuffers until a
// collection runs, and when one runs depends on the whole heap (loading the openai package was enough to
// delay it past the measurement). Collecting first measures what the downloads really hold.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const TEXTURE = 'custom_00112233445566ff.rttex';
const TEXTURE_BYTES = 4 * 1024 * 1024;
const DOWNLOADS = 40;

/** A GET on a raw socket that stops reading once the answer has started (a client that never drains it). */
function stalledDownload(api: TestApi, path: string, token: string) {
  const socket: Socket = connect(Number(new URL(api.url).port), '127.0.0.1');
  socket.on('error', () => {});
  const started = new Promise<string>((resolve) =>
    socket.once('data', (d) => {
      socket.pause();
      resolve(d.toString('latin1').split('\r\n')[0] ?? '');
    }),
  );
  socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`);
  return { started, socket };
}

describeEachDatabase('texture downloads under attack', (api) => {
  let owner: Session;

  before(async () => {
    owner = await signInRegistered(api());
    const server = `dl${api().dialect[0]}${process.pid % 1000}`;
    const made = await api().request('POST', `/users/${owner.user.id}/server`, {
      token: owner.sessionToken,
      body: { serverName: server },
    });
    assert.equal(made.status, 201);
    const row = await api().ctx.db.get<{ id: string }>('SELECT id FROM servers WHERE owner_id = ?', [owner.user.id]);
    await (await serverFiles(api(), row?.id as string)).write(`cache/${TEXTURE}`, Buffer.alloc(TEXTURE_BYTES, 7));
  });

  it('streams a texture: many stalled downloads do not hold it in memory each', async () => {
    collectGarbage();
    const before = process.memoryUsage().arrayBuffers;
    const downloads = Array.from({ length: DOWNLOADS }, () =>
      stalledDownload(api(), `/cache/${TEXTURE}`, owner.sessionToken),
    );
    const limit = (DOWNLOADS * TEXTURE_BYTES) / 4;
    let held = Number.POSITIVE_INFINITY;
    try {
      for (const line of await Promise.all(downloads.map((d) => d.started))) assert.equal(line, 'HTTP/1.1 200 OK');
      // Until the kernel's socket buffers fill, chunks are still in flight and count too: the lowest reading
      // over a few seconds is what the stalled downloads hold (reading the file whole held it in every one).
      for (let i = 0; i < 30 && held >= limit; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        collectGarbage();
        held = Math.min(held, process.memoryUsage().arrayBuffers - before);
      }
    } finally {
      // Before the api closes, which waits for its connections.
      for (const d of downloads) d.socket.destroy();
    }
    // Read whole, 40 downloads held 160 MB; streamed, each holds a read buffer or two.
    assert.ok(held < limit, `the api holds ${Math.round(held / 1e6)} MB for ${DOWNLOADS} stalled downloads`);
  });
});
