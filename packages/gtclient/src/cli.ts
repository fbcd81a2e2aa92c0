// Command line: runs the client's steps against a gateway and prints each one.
//   node packages/gtclient/src/cli.ts --server-data https://127.0.0.1:PORT --server NAME --growid X --password Y
//     [--create] [--world START] [--say hello] [--login-url https://host:port] [--secure]

import { parseArgs } from 'node:util';
import { Bot } from './bot.ts';
import { loginValidateUrl } from './token.ts';

const { values } = parseArgs({
  options: {
    'server-data': { type: 'string' },
    server: { type: 'string' },
    growid: { type: 'string' },
    password: { type: 'string' },
    create: { type: 'boolean', default: false },
    world: { type: 'string' },
    say: { type: 'string' },
    'login-url': { type: 'string' },
    secure: { type: 'boolean', default: false },
  },
});

const serverDataUrl = values['server-data'];
if (!serverDataUrl || !values.server || !values.growid || !values.password) {
  console.error(
    'usage: cli.ts --server-data URL --server NAME --growid X --password Y [--create] [--world W] [--say T]',
  );
  process.exit(2);
}

const step = (line: string) => console.log(`[gtclient] ${line}`);
const bot = new Bot();
const http = { insecure: !values.secure };
try {
  const data = await bot.serverData(serverDataUrl, http);
  step(
    `server_data: ${data.server}:${data.port} loginurl=${data.loginUrl ?? '-'}${data.maintenance ? ` maint=${data.maintenance}` : ''}`,
  );
  const loginUrl = values['login-url'] ?? loginValidateUrl(data.loginUrl ?? new URL(serverDataUrl).host);
  const token = await bot.fetchToken(
    loginUrl,
    { server: values.server, growId: values.growid, password: values.password, create: values.create },
    http,
  );
  step(`token: ${token.length} characters from ${loginUrl}`);
  const login = await bot.login({ host: data.server, port: data.port }, { token, meta: data.meta });
  step(
    `login: redirected to ${login.engine.host}:${login.engine.port} as ${login.name}; items hash ${login.itemsHash}${login.refreshedItems ? ` (refreshed, ${bot.items?.length ?? 0} bytes)` : ''}`,
  );
  const menu = await bot.enterGame();
  step(`enter_game: world menu (${menu.split('\n').filter((l) => l.startsWith('add_floater')).length} worlds listed)`);
  if (values.world) {
    const world = await bot.join(values.world);
    step(
      `join: ${world.name} ${world.width}x${world.height}, netID ${world.netId}, spawn ${world.spawn.x},${world.spawn.y}`,
    );
    if (values.say) {
      const bubble = bot.waitForCall('OnTalkBubble');
      bot.say(values.say);
      step(`say: ${String((await bubble).args[1] ?? '')}`);
    }
    await bot.leave();
    step('leave: back at the world menu');
  }
  await bot.disconnect();
  step('disconnected');
  process.exit(0);
} catch (err) {
  step(`failed: ${err instanceof Error ? err.message : String(err)}`);
  await bot.disconnect().catch(() => {});
  process.exit(1);
}
