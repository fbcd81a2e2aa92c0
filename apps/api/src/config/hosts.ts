import { networkInterfaces } from 'node:os';
import { z } from 'zod';

// What game clients are told to connect to: a dotted IPv4 address or a DNS hostname (RFC 1123 labels).
const ipv4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const hostname =
  /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

// The login page's own host (CANOPY_LOGIN_HOST): a DNS name (not an address: a public CA certifies names)
// with an optional port; lower-cased, as TLS server names are compared.
export const loginHostSchema = z
  .string()
  .trim()
  .transform((v, ctx) => {
    const m = /^([^:]+)(?::(\d{1,5}))?$/.exec(v);
    const name = m?.[1]?.toLowerCase() ?? '';
    const port = m?.[2] === undefined ? undefined : Number(m[2]);
    if (!m || !hostname.test(name) || /^[\d.]+$/.test(name) || !name.includes('.')) {
      ctx.addIssue({
        code: 'custom',
        message:
          'must be a DNS name with an optional port, like login.example.com or login.example.com:8443 (no scheme, no path)',
      });
      return z.NEVER;
    }
    if (port !== undefined && (port < 1 || port > 65535)) {
      ctx.addIssue({ code: 'custom', message: 'port must be 1-65535' });
      return z.NEVER;
    }
    return { name, port };
  });

/** The first non-internal IPv4 address of this machine, else 127.0.0.1 (CANOPY_PUBLIC_IP's default). */
export function detectPublicIp(interfaces = networkInterfaces()): string {
  for (const list of Object.values(interfaces))
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  return '127.0.0.1';
}

/** CANOPY_PUBLIC_IP: an IPv4 address or a DNS hostname (all digits and dots is a malformed address, not a name). */
export const isPublicHost = (v: string) => ipv4.test(v) || (hostname.test(v) && !/^[\d.]+$/.test(v));
