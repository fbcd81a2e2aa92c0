import type { GameAddress } from '../runtime/types.ts';

// A server's game address as servers.game_address stores it (host:port; an IPv6 host in brackets), written by the
// panel's runtime and read by a gateway that runs apart (ADR 0043).

/** The stored form of an address, or null for none. */
export const formatGameAddress = (address: GameAddress | undefined): string | null =>
  address ? `${address.host.includes(':') ? `[${address.host}]` : address.host}:${address.port}` : null;

/** The address a stored value names, or null for none or a value that is not one. */
export function parseGameAddress(stored: string | null): GameAddress | null {
  const m = stored ? /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(stored) : null;
  const port = Number(m?.[2]);
  return m?.[1] && port >= 1 && port <= 65535 ? { host: m[1], port } : null;
}
