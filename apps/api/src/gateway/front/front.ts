import { OUTDATED_CLIENT_MESSAGE, supportedProtocol } from '@canopy/contract/game-client';
import { readGameToken } from '@canopy/contract/game-token';
import { callPacket, gameTextPacket, helloPacket, MESSAGE_TEXT, readTextPacket } from './packets.ts';

/** What the front does to a peer; the ENet host (or a test) implements it. */
export interface FrontTransport {
  send(peer: number, data: Buffer): void;
  /** Disconnects once what was queued is sent. */
  disconnectLater(peer: number): void;
  /** Drops the peer at once. */
  disconnectNow(peer: number): void;
}

/** Bounds of the front, per peer and per IP. */
export interface FrontLimits {
  /**
   * Peers one IP may hold at once before they are answered; more are dropped on connect. Players behind one NAT
   * share an IP, so an answered peer (only waiting to leave) no longer counts.
   */
  peersPerIp: number;
  /** Packets a peer may send before it is dropped (a login needs one). */
  packetsPerPeer: number;
  /** Largest packet read; longer ones drop the peer. */
  packetBytes: number;
  /** A peer that has not sent its login text by then is dropped. */
  idleMs: number;
  /** An answered peer still there this long after its answer is dropped (its client went away unannounced). */
  lingerMs: number;
}

export const DEFAULT_FRONT_LIMITS: FrontLimits = {
  peersPerIp: 16,
  packetsPerPeer: 8,
  packetBytes: 4096,
  idleMs: 5000,
  lingerMs: 3000,
};

interface PeerState {
  ip: string;
  since: number;
  packets: number;
  /** When it was answered (OnSendToServer or a refusal): everything else it says is ignored until it is gone. */
  doneAt: number | undefined;
}

/** What the front tells the player when it cannot send them on (shown in the game's console). */
export const frontMessages = {
  noToken: '`4Sign in on the login page first.``',
  badToken: '`4Your sign-in is not valid. Sign in again from the login page.``',
  expired: '`4Your sign-in expired. Sign in again from the login page.``',
} as const;

/**
 * The ENet front's logic (ADR 0026): hello on connect, then on the login text the game token's port is read
 * with the gateway key and the player is sent there with OnSendToServer; it keeps no state beyond each peer's
 * few seconds. Below the transport, so that it is tested without sockets.
 */
export class Front {
  private readonly peers = new Map<number, PeerState>();
  private readonly perIp = new Map<string, number>();
  private readonly key: Buffer;
  private readonly publicIp: string;
  private readonly transport: FrontTransport;
  private readonly limits: FrontLimits;
  private readonly log: (line: string) => void;

  constructor(opts: {
    key: Buffer;
    publicIp: string;
    transport: FrontTransport;
    limits?: FrontLimits;
    log?: (line: string) => void;
  }) {
    this.key = opts.key;
    this.publicIp = opts.publicIp;
    this.transport = opts.transport;
    this.limits = opts.limits ?? DEFAULT_FRONT_LIMITS;
    this.log = opts.log ?? (() => {});
  }

  /** Peers held now. */
  get peerCount(): number {
    return this.peers.size;
  }

  connected(peer: number, ip: string, now: number): void {
    const count = this.perIp.get(ip) ?? 0;
    this.peers.set(peer, { ip, since: now, packets: 0, doneAt: undefined });
    this.perIp.set(ip, count + 1);
    if (count >= this.limits.peersPerIp) {
      this.drop(peer);
      return;
    }
    this.transport.send(peer, helloPacket());
  }

  received(peer: number, data: Buffer, now: number): void {
    const state = this.peers.get(peer);
    if (!state || state.doneAt !== undefined) return;
    state.packets++;
    if (state.packets > this.limits.packetsPerPeer || data.length > this.limits.packetBytes) {
      this.drop(peer);
      return;
    }
    const fields = readTextPacket(data);
    // Only the login text matters here; anything else (a game message, a stray tank) is ignored.
    if (!fields || data.readUInt32LE(0) !== MESSAGE_TEXT) return;
    // An older client would be sent on to a server whose world data it cannot read: tell it here, as the engine
    // does (the game's update notice in its log, then logon_fail, which makes the client stop trying).
    if (!supportedProtocol(fields.get('protocol'))) {
      this.refuse(peer, OUTDATED_CLIENT_MESSAGE, now, 'log');
      return;
    }
    const token = fields.get('ltoken')?.trim();
    const ticket = token ? readGameToken(token, 'gateway', this.key, now) : undefined;
    if (!token || ticket === undefined || ticket === 'expired') {
      this.refuse(
        peer,
        !token ? frontMessages.noToken : ticket === 'expired' ? frontMessages.expired : frontMessages.badToken,
        now,
        'both',
      );
      return;
    }
    this.answered(state, now);
    this.transport.send(
      peer,
      callPacket(
        'OnSendToServer',
        { i32: ticket.port },
        { i32: 0 },
        { i32: 0 },
        `${ticket.host ?? this.publicIp}|0|${token}`,
        { i32: 1 },
        ticket.growId,
      ),
    );
    this.transport.disconnectLater(peer);
    this.log(`sent ${ticket.growId} to ${ticket.server} (${ticket.host ? `${ticket.host}:` : 'port '}${ticket.port})`);
  }

  disconnected(peer: number): void {
    const state = this.peers.get(peer);
    if (!state) return;
    this.peers.delete(peer);
    if (state.doneAt === undefined) this.uncount(state.ip);
  }

  /** Drops peers silent past the idle limit, and answered ones still there past the linger time. */
  sweep(now: number): void {
    for (const [peer, state] of this.peers) {
      const overdue =
        state.doneAt === undefined
          ? now - state.since >= this.limits.idleMs
          : now - state.doneAt >= this.limits.lingerMs;
      if (overdue) this.drop(peer);
    }
  }

  private answered(state: PeerState, now: number): void {
    state.doneAt = now;
    this.uncount(state.ip);
  }

  private uncount(ip: string): void {
    const left = (this.perIp.get(ip) ?? 1) - 1;
    if (left > 0) this.perIp.set(ip, left);
    else this.perIp.delete(ip);
  }

  /**
   * Answers as the references refuse a login: the log line, then logon_fail (the client stops trying), with the
   * reason as a console line too ('both') for clients that show that; then lets the peer go.
   */
  private refuse(peer: number, message: string, now: number, as: 'log' | 'both'): void {
    const state = this.peers.get(peer);
    if (state) this.answered(state, now);
    this.transport.send(peer, gameTextPacket(['action|log', `msg|${message}`]));
    if (as === 'both') this.transport.send(peer, callPacket('OnConsoleMessage', message));
    this.transport.send(peer, gameTextPacket(['action|logon_fail']));
    this.transport.disconnectLater(peer);
  }

  private drop(peer: number): void {
    this.transport.disconnectNow(peer);
    // disconnectNow raises no disconnect event: forget the peer here.
    this.disconnected(peer);
  }
}
