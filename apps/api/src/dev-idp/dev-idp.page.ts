import type { DiscordUser } from '@canopy/contract';

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The stand-in for Discord's authorize page: pick a test user, type a new one, or cancel. */
export function authorizePage(opts: { redirectUri: string; state: string; scope: string; presets: DiscordUser[] }) {
  const hidden = `<input type="hidden" name="redirect_uri" value="${esc(opts.redirectUri)}">
    <input type="hidden" name="state" value="${esc(opts.state)}"><input type="hidden" name="scope" value="${esc(opts.scope)}">`;
  const buttons = opts.presets
    .map(
      (u) => `<button name="username" value="${esc(u.username)}" type="submit">
        <strong>${esc(u.username)}</strong><small>#${esc(u.discriminator)} · id ${esc(u.id)}</small></button>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Development sign-in · Canopy</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
 body{font-family:system-ui,sans-serif;background:#0f172a;color:#e2e8f0;display:grid;place-items:center;min-height:100vh;margin:0}
 main{background:#1e293b;padding:2rem;border-radius:12px;width:min(420px,92vw);box-shadow:0 10px 30px #0008}
 h1{font-size:1.25rem;margin:0 0 .25rem} p{color:#94a3b8;font-size:.9rem}
 .warn{background:#78350f;color:#fde68a;padding:.5rem .75rem;border-radius:8px;font-size:.8rem}
 button{display:flex;flex-direction:column;align-items:flex-start;width:100%;margin:.4rem 0;padding:.6rem .8rem;border-radius:8px;border:1px solid #334155;background:#0f172a;color:inherit;cursor:pointer}
 button:hover{border-color:#10b981} small{color:#94a3b8}
 input[type=text]{width:100%;box-sizing:border-box;padding:.6rem;border-radius:8px;border:1px solid #334155;background:#0f172a;color:inherit}
 .row{display:flex;gap:.5rem;margin-top:.5rem} .row button{align-items:center}
 .cancel{background:transparent;border:none;color:#f87171;text-decoration:underline;align-items:center}
</style></head><body><main>
<h1>Development sign-in</h1>
<p>This stands in for Discord's authorize page while no Discord application is configured. It never runs in production.</p>
<p class="warn">Anyone can sign in as anyone here.</p>
<form method="get" action="/dev-discord/oauth2/approve">${hidden}
 <p>Continue as a test user:</p>${buttons}
</form>
<form method="get" action="/dev-discord/oauth2/approve">${hidden}
 <p>Or type a username:</p>
 <input type="text" name="username" aria-label="Username" placeholder="username" required pattern="[A-Za-z0-9_.]{2,32}">
 <div class="row"><button type="submit">Authorize</button></div>
</form>
<form method="get" action="/dev-discord/oauth2/approve">${hidden}
 <button class="cancel" type="submit" name="deny" value="1">Cancel</button>
</form>
</main></body></html>`;
}
