import { lookup } from 'node:dns/promises';
import { isIPv4 } from 'node:net';
import { hostsLines, type LoginPage, type SetupGuide, setupGuideMessages, setupPaths } from '@canopy/contract';
import { configuredLoginCertificate, loginUrlOf } from '../config/login-host.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';

/** How long a resolved game hostname is reused before it is looked up again. */
const RESOLVE_TTL_MS = 60_000;
const resolved = new Map<string, { ip: string; at: number }>();

/**
 * The IPv4 address game clients must reach. CANOPY_PUBLIC_IP may be a hostname (GET /ip tells it as is),
 * but a hosts file and a Surge [Host] line need an address, so a hostname is resolved here (briefly cached).
 */
export async function gameIp(ctx: AppContext): Promise<string> {
  const address = ctx.config.publicIp;
  if (isIPv4(address)) return address;
  const now = Date.now();
  const cached = resolved.get(address);
  if (cached && now - cached.at < RESOLVE_TTL_MS) return cached.ip;
  try {
    const { address: ip } = await lookup(address, { family: 4 });
    resolved.set(address, { ip, at: now });
    return ip;
  } catch {
    throw new AppError(503, 'ip_unresolved', setupGuideMessages.ipUnresolved);
  }
}

/** A host as a browser sends it: a DNS name or IPv4 address, or a bracketed IPv6 address, and a port. */
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const HOST = new RegExp(`^(?:${LABEL}(?:\\.${LABEL})*|\\[[0-9A-Fa-f:.]+\\])(?::\\d{1,5})?$`);

/**
 * The origin a request came in on, for links handed back to the same caller: its Host when that is a
 * host, else the address and port the connection reached (the Host header is the client's text, and a
 * malformed one must not become a link or a line of SkyHelper's prompt). X-Forwarded-* are not read:
 * anyone can send them; behind a proxy the operator sets CANOPY_PUBLIC_URL.
 */
export function requestOrigin(req: {
  protocol: string;
  host: string;
  socket: { localAddress?: string; localPort?: number };
}): string {
  if (HOST.test(req.host)) return `${req.protocol}://${req.host}`;
  const address = req.socket.localAddress ?? '127.0.0.1';
  return `${req.protocol}://${address.includes(':') ? `[${address}]` : address}:${req.socket.localPort}`;
}

/**
 * The absolute base of the links handed out: CANOPY_PUBLIC_URL when set (the address players reach, also
 * behind a proxy), else the origin this request came in on.
 */
export function publicBase(configured: string | undefined, origin: string): string {
  return configured ?? origin;
}

/**
 * How the game's sign-in page is served (ADR 0027). With the gateway running, the certificate it serves the
 * login host with now (self-signed until ACME has issued one); without it (CANOPY_GATEWAY=off), the configured
 * source, as the gateway would start with it.
 */
export function loginPage(ctx: AppContext): LoginPage {
  const login = ctx.config.gateway.login;
  if (!login) return { host: null, certificate: 'self-signed' };
  return {
    host: loginUrlOf(login),
    certificate: ctx.gateway?.login.sni.loginSource() ?? configuredLoginCertificate(login),
  };
}

/**
 * GET /setup-guide: the address, its hosts lines, the absolute URLs of the tunnel list and Surge profile, and
 * how the game's sign-in page is served.
 */
export async function setupGuide(ctx: AppContext, origin: string): Promise<SetupGuide> {
  const ip = await gameIp(ctx);
  const base = publicBase(ctx.config.publicUrl, origin);
  return {
    ip,
    hostsLines: hostsLines(ip),
    tunnelUrl: `${base}${setupPaths.tunnel}`,
    surgeUrl: `${base}${setupPaths.surge}`,
    loginPage: loginPage(ctx),
  };
}
