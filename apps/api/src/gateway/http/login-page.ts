import { GAME_PASSWORD_MAX, GROWID_MAX, SERVER_NAME_MAX } from '@canopy/contract';

/** Text made safe for HTML content and quoted attribute values. */
export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The page's Content-Security-Policy: nothing loads but its own inline style, and it posts only here. */
export const loginPageCsp = (nonce: string) =>
  `default-src 'none'; style-src 'nonce-${nonce}'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;

const STYLE = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:16px;
background:#0f2a1d;color:#e8f5ec;font:16px/1.4 system-ui,-apple-system,Segoe UI,Roboto,sans-serif}
main{width:100%;max-width:380px;background:#173d2b;border-radius:14px;padding:22px;box-shadow:0 8px 28px #0007}
h1{margin:0 0 4px;font-size:1.4rem}
p{margin:0 0 16px;color:#a9cdb6;font-size:.92rem}
label{display:block;margin:12px 0 4px;font-weight:600;font-size:.9rem}
input[type=text],input[type=password]{width:100%;padding:12px;border:1px solid #2f6b4c;border-radius:9px;
background:#0f2a1d;color:#e8f5ec;font-size:1rem}
input:focus{outline:2px solid #5fd38d;border-color:transparent}
.check{display:flex;gap:8px;align-items:center;margin:14px 0 4px;font-weight:400}
button{width:100%;margin-top:18px;padding:13px;border:0;border-radius:9px;background:#3fb36f;color:#06210f;
font-size:1.05rem;font-weight:700}
.servers{margin:4px 0 0;color:#a9cdb6;font-size:.85rem}
.error{margin:0 0 14px;padding:10px 12px;border-radius:9px;background:#5a1d1d;color:#ffd9d9;font-size:.92rem}
`;

/** What a failed sign-in shows again: the error, and the names typed (never the password). */
export interface LoginPageState {
  error?: string;
  server?: string;
  growId?: string;
}

/**
 * The login page the game client's web view opens (docs/game-protocol.md step 2): self-contained, no script.
 * The form posts to the token call, whose JSON answer the client reads; a refused sign-in (or saved sign-in)
 * answers this page again with the error shown (ADR 0027). Everything interpolated is escaped.
 */
export function loginPageHtml(onlineServers: string[], nonce: string, state: LoginPageState = {}): string {
  const options = onlineServers.map((name) => `<option value="${escapeHtml(name)}"></option>`).join('');
  const listed = onlineServers.length
    ? `Online: ${onlineServers.slice(0, 50).map(escapeHtml).join(', ')}`
    : 'No server is online right now.';
  const error = state.error ? `<p class="error" role="alert">${escapeHtml(state.error)}</p>\n` : '';
  const value = (v: string | undefined, max: number) => (v ? ` value="${escapeHtml(v.slice(0, max))}"` : '');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>Canopy sign-in</title><style nonce="${nonce}">${STYLE}</style></head>
<body><main>
<h1>Canopy</h1>
<p>Pick the server you want to play on and sign in with your GrowID there.</p>
${error}<form method="post" action="/player/growid/login/validate" autocomplete="on">
<label for="server">Server</label>
<input id="server" name="server" type="text" list="online" required maxlength="${SERVER_NAME_MAX}"${value(state.server, SERVER_NAME_MAX)} autocapitalize="off" autocorrect="off" spellcheck="false">
<datalist id="online">${options}</datalist>
<div class="servers">${listed}</div>
<label for="growId">GrowID</label>
<input id="growId" name="growId" type="text" required maxlength="${GROWID_MAX}"${value(state.growId, GROWID_MAX)} autocomplete="username" autocapitalize="off" spellcheck="false">
<label for="password">Password</label>
<input id="password" name="password" type="password" required maxlength="${GAME_PASSWORD_MAX}" autocomplete="current-password">
<label class="check"><input type="checkbox" name="create" value="1"> Create this GrowID on that server</label>
<button type="submit">Play</button>
</form>
</main></body></html>`;
}
