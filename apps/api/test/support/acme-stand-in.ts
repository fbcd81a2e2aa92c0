import { createHash, createPublicKey, type JsonWebKey, type KeyObject, randomBytes, verify } from 'node:crypto';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import * as x509 from '@peculiar/x509';

// A local stand-in for an ACME CA (RFC 8555), as much of it as acme-client uses: directory, newNonce,
// newAccount, newOrder, authorization, challenge, finalize and certificate download, over plain HTTP. Every
// POST is a JWS checked like a CA does (signature, nonce, url, account). The HTTP-01 challenge is really
// performed: the key authorization is fetched from the gateway's listener with the login name as Host and
// compared with token.thumbprint(account key). Certificates are signed by a test CA made at start.

const b64u = (b: Buffer | string) => Buffer.from(b).toString('base64url');
const fromB64u = (s: string) => Buffer.from(s, 'base64url');
const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;

/** One HTTP-01 check the stand-in made: the token, the Host it asked with, and whether the answer matched. */
export interface ValidationRecord {
  host: string;
  token: string;
  ok: boolean;
}

interface Account {
  key: KeyObject;
  thumbprint: string;
}
interface Challenge {
  id: string;
  token: string;
  status: 'pending' | 'valid' | 'invalid';
  authzId: string;
}
interface Authz {
  id: string;
  name: string;
  status: 'pending' | 'valid' | 'invalid' | 'deactivated';
  challengeId: string;
  account: string;
}
interface Order {
  id: string;
  names: string[];
  status: 'pending' | 'ready' | 'valid' | 'invalid';
  authzIds: string[];
  account: string;
  certificate?: string;
}

/** RFC 7638: the SHA-256 of the public JWK's required members, in order. */
function thumbprint(key: KeyObject): string {
  const jwk = key.export({ format: 'jwk' }) as JsonWebKey;
  const members =
    jwk.kty === 'EC' ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y } : { e: jwk.e, kty: jwk.kty, n: jwk.n };
  return b64u(createHash('sha256').update(JSON.stringify(members)).digest());
}

class Problem extends Error {
  readonly status: number;
  readonly type: string;
  constructor(status: number, type: string, detail: string) {
    super(detail);
    this.status = status;
    this.type = type;
  }
}

/** The running stand-in CA. */
export interface AcmeStandIn {
  directoryUrl: string;
  /** The test CA's certificate (PEM): the only root a test's TLS client trusts. */
  caPem: string;
  /** Every HTTP-01 check made, in order. */
  validations: ValidationRecord[];
  /** Certificates issued so far. */
  issued: number;
  /** Where the HTTP-01 checks go (the gateway's listener); checks wait until it is set. */
  setChallengePort(port: number): void;
  /** Makes the next checks expect a wrong key authorization (so they fail), or the right one again. */
  expectWrongAnswer(wrong: boolean): void;
  close(): Promise<void>;
}

/** Starts the stand-in CA on 127.0.0.1; certificates it issues are good for `validityDays` from now. */
export async function startAcmeStandIn(opts: { validityDays?: number } = {}): Promise<AcmeStandIn> {
  const validityMs = (opts.validityDays ?? 90) * DAY_MS;
  const caKeys = (await crypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as CryptoKeyPair;
  const now = Date.now();
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=Canopy test ACME CA',
    notBefore: new Date(now - DAY_MS),
    notAfter: new Date(now + 3650 * DAY_MS),
    signingAlgorithm: EC,
    keys: caKeys,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });
  const caPem = ca.toString('pem');

  const nonces = new Set<string>();
  const accounts = new Map<string, Account>();
  const orders = new Map<string, Order>();
  const authzs = new Map<string, Authz>();
  const challenges = new Map<string, Challenge>();
  const certificates = new Map<string, string>();
  const validations: ValidationRecord[] = [];
  let wrongAnswer = false;
  let issued = 0;
  let portSet: (port: number) => void = () => {};
  const challengePort = new Promise<number>((resolve) => {
    portSet = resolve;
  });
  let base = '';

  const newNonce = () => {
    const n = b64u(randomBytes(16));
    nonces.add(n);
    return n;
  };
  const id = () => b64u(randomBytes(9));

  function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(status, {
      'content-type': typeof body === 'string' ? 'application/pem-certificate-chain' : 'application/json',
      'replay-nonce': newNonce(),
      'cache-control': 'no-store',
      ...headers,
    });
    res.end(text);
  }

  const orderJson = (o: Order) => ({
    status: o.status,
    expires: new Date(Date.now() + 7 * DAY_MS).toISOString(),
    identifiers: o.names.map((value) => ({ type: 'dns', value })),
    authorizations: o.authzIds.map((a) => `${base}/authz/${a}`),
    finalize: `${base}/finalize/${o.id}`,
    ...(o.certificate ? { certificate: `${base}/cert/${o.certificate}` } : {}),
  });
  const challengeJson = (c: Challenge) => ({
    type: 'http-01',
    url: `${base}/chall/${c.id}`,
    token: c.token,
    status: c.status,
  });
  const authzJson = (a: Authz) => {
    const c = challenges.get(a.challengeId);
    return {
      status: a.status,
      expires: new Date(Date.now() + 7 * DAY_MS).toISOString(),
      identifier: { type: 'dns', value: a.name },
      challenges: c ? [challengeJson(c)] : [],
    };
  };

  // Checks a JWS POST as RFC 8555 6.2-6.5 ask; answers its payload ('' for POST-as-GET) and account id.
  function verifyJws(raw: string, url: string, newAccount: boolean) {
    let jws: { protected: string; payload: string; signature: string };
    try {
      jws = JSON.parse(raw);
    } catch {
      throw new Problem(400, 'malformed', 'body is not a JWS');
    }
    const header = JSON.parse(fromB64u(jws.protected).toString()) as {
      alg: string;
      nonce?: string;
      url?: string;
      jwk?: JsonWebKey;
      kid?: string;
    };
    if (!header.nonce || !nonces.delete(header.nonce)) throw new Problem(400, 'badNonce', 'unknown or used nonce');
    if (header.url !== url) throw new Problem(401, 'unauthorized', `url ${header.url} is not ${url}`);
    let key: KeyObject;
    let accountId: string | undefined;
    if (newAccount) {
      if (!header.jwk) throw new Problem(400, 'malformed', 'newAccount needs a jwk');
      key = createPublicKey({ key: header.jwk, format: 'jwk' });
    } else {
      accountId = header.kid?.startsWith(`${base}/acct/`) ? header.kid.slice(`${base}/acct/`.length) : undefined;
      const account = accountId ? accounts.get(accountId) : undefined;
      if (!account) throw new Problem(400, 'accountDoesNotExist', 'unknown kid');
      key = account.key;
    }
    const data = Buffer.from(`${jws.protected}.${jws.payload}`);
    const signature = fromB64u(jws.signature);
    const ok =
      header.alg === 'ES256'
        ? verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, signature)
        : header.alg === 'RS256' && verify('sha256', data, key, signature);
    if (!ok) throw new Problem(400, 'malformed', 'bad JWS signature');
    const payload = jws.payload ? JSON.parse(fromB64u(jws.payload).toString()) : '';
    return { payload, key, accountId };
  }

  // The HTTP-01 check itself: GET the token from the gateway's listener, Host = the name being validated.
  async function performHttp01(c: Challenge, a: Authz): Promise<boolean> {
    const account = accounts.get(a.account);
    if (!account) return false;
    const port = await challengePort;
    const expected = `${c.token}.${wrongAnswer ? 'not-the-thumbprint' : account.thumbprint}`;
    const body = await new Promise<string>((resolve) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: `/.well-known/acme-challenge/${c.token}`,
          headers: { host: a.name },
          timeout: 10_000,
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d) => {
            if (text.length < 4096) text += d;
          });
          res.on('end', () => resolve(res.statusCode === 200 ? text : ''));
        },
      );
      req.on('timeout', () => req.destroy());
      req.on('error', () => resolve(''));
      req.end();
    });
    const ok = body.trim() === expected;
    validations.push({ host: a.name, token: c.token, ok });
    return ok;
  }

  async function issue(o: Order, csrB64u: string): Promise<string> {
    const csr = new x509.Pkcs10CertificateRequest(fromB64u(csrB64u));
    if (!(await csr.verify())) throw new Problem(400, 'badCSR', 'CSR signature does not verify');
    const san = csr.extensions.find((e) => e instanceof x509.SubjectAlternativeNameExtension) as
      | x509.SubjectAlternativeNameExtension
      | undefined;
    const cn = /CN=([^,]+)/.exec(csr.subject)?.[1];
    const names = [...new Set([...(cn ? [cn] : []), ...(san?.names.items.map((n) => n.value) ?? [])])];
    if (names.some((n) => !o.names.includes(n)) || o.names.some((n) => !names.includes(n)))
      throw new Problem(400, 'badCSR', `CSR names ${names.join(',')} are not the order's`);
    const start = Date.now();
    const leaf = await x509.X509CertificateGenerator.create({
      serialNumber: randomBytes(8)
        .toString('hex')
        .replace(/^[89a-f]/, '1'),
      subject: `CN=${names[0]}`,
      issuer: ca.subject,
      notBefore: new Date(start - 60_000),
      notAfter: new Date(start + validityMs),
      signingAlgorithm: EC,
      publicKey: csr.publicKey,
      signingKey: caKeys.privateKey,
      extensions: [
        new x509.SubjectAlternativeNameExtension(names.map((value) => ({ type: 'dns' as const, value }))),
        new x509.BasicConstraintsExtension(false),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        await x509.AuthorityKeyIdentifierExtension.create(caKeys.publicKey),
      ],
    });
    issued++;
    return `${leaf.toString('pem')}\n${caPem}\n`;
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = req.url ?? '/';
    const url = base + path;
    if (req.method === 'GET' && path === '/directory')
      return reply(res, 200, {
        newNonce: `${base}/new-nonce`,
        newAccount: `${base}/new-account`,
        newOrder: `${base}/new-order`,
        revokeCert: `${base}/revoke-cert`,
        keyChange: `${base}/key-change`,
        meta: { termsOfService: `${base}/terms` },
      });
    if ((req.method === 'HEAD' || req.method === 'GET') && path === '/new-nonce') return reply(res, 200, '');
    if (req.method !== 'POST') throw new Problem(405, 'malformed', 'POST only');
    let raw = '';
    for await (const chunk of req) {
      raw += chunk;
      if (raw.length > 65_536) throw new Problem(413, 'malformed', 'body too large');
    }
    const [, kind, ref] = /^\/([a-z-]+)(?:\/([A-Za-z0-9_-]+))?$/.exec(path) ?? [];
    const jws = verifyJws(raw, url, kind === 'new-account');

    if (kind === 'new-account') {
      const print = thumbprint(jws.key);
      const existing = [...accounts].find(([, a]) => a.thumbprint === print)?.[0];
      const accountId = existing ?? id();
      if (!existing) {
        if (jws.payload.termsOfServiceAgreed !== true)
          throw new Problem(403, 'userActionRequired', 'agree to the terms');
        accounts.set(accountId, { key: jws.key, thumbprint: print });
      }
      return reply(
        res,
        existing ? 200 : 201,
        { status: 'valid', contact: jws.payload.contact ?? [], orders: `${base}/orders/${accountId}` },
        { location: `${base}/acct/${accountId}` },
      );
    }
    const account = jws.accountId as string;
    // An account's own URL: acme-client reads (and may update the contact of) an account it found again.
    if (kind === 'acct') {
      if (ref !== account) throw new Problem(403, 'unauthorized', 'not your account');
      return reply(res, 200, { status: 'valid', orders: `${base}/orders/${account}` }, { location: url });
    }
    if (kind === 'new-order') {
      const names = (jws.payload.identifiers as { type: string; value: string }[]).map((i) => {
        if (i.type !== 'dns') throw new Problem(400, 'rejectedIdentifier', 'dns identifiers only');
        return i.value.toLowerCase();
      });
      const order: Order = { id: id(), names, status: 'pending', authzIds: [], account };
      for (const name of names) {
        const authz: Authz = { id: id(), name, status: 'pending', challengeId: id(), account };
        challenges.set(authz.challengeId, {
          id: authz.challengeId,
          token: b64u(randomBytes(24)),
          status: 'pending',
          authzId: authz.id,
        });
        authzs.set(authz.id, authz);
        order.authzIds.push(authz.id);
      }
      orders.set(order.id, order);
      return reply(res, 201, orderJson(order), { location: `${base}/order/${order.id}` });
    }
    if (kind === 'authz') {
      const authz = authzs.get(ref ?? '');
      if (!authz || authz.account !== account) throw new Problem(404, 'malformed', 'no such authorization');
      if (jws.payload && jws.payload.status === 'deactivated') authz.status = 'deactivated';
      return reply(res, 200, authzJson(authz));
    }
    if (kind === 'chall') {
      const challenge = challenges.get(ref ?? '');
      const authz = challenge && authzs.get(challenge.authzId);
      if (!challenge || !authz || authz.account !== account) throw new Problem(404, 'malformed', 'no such challenge');
      // A POST with a payload ({}) asks the CA to check; POST-as-GET only reads.
      if (jws.payload !== '' && challenge.status === 'pending') {
        const ok = await performHttp01(challenge, authz);
        challenge.status = ok ? 'valid' : 'invalid';
        authz.status = ok ? 'valid' : 'invalid';
        for (const order of orders.values())
          if (order.authzIds.includes(authz.id))
            order.status = !ok
              ? 'invalid'
              : order.authzIds.every((a) => authzs.get(a)?.status === 'valid')
                ? 'ready'
                : order.status;
      }
      return reply(res, 200, challengeJson(challenge), { link: `<${base}/authz/${authz.id}>;rel="up"` });
    }
    if (kind === 'order' || kind === 'finalize') {
      const order = orders.get(ref ?? '');
      if (!order || order.account !== account) throw new Problem(404, 'malformed', 'no such order');
      if (kind === 'finalize') {
        if (order.status !== 'ready') throw new Problem(403, 'orderNotReady', `order is ${order.status}`);
        const pem = await issue(order, String(jws.payload.csr));
        order.certificate = id();
        certificates.set(order.certificate, pem);
        order.status = 'valid';
      }
      return reply(res, 200, orderJson(order), { location: `${base}/order/${order.id}` });
    }
    if (kind === 'cert') {
      const pem = certificates.get(ref ?? '');
      if (!pem) throw new Problem(404, 'malformed', 'no such certificate');
      return reply(res, 200, pem);
    }
    throw new Problem(404, 'malformed', `no resource ${path}`);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const problem =
        error instanceof Problem ? error : new Problem(500, 'serverInternal', (error as Error).message ?? 'error');
      if (!res.headersSent)
        reply(
          res,
          problem.status,
          { type: `urn:ietf:params:acme:error:${problem.type}`, detail: problem.message },
          { 'content-type': 'application/problem+json' },
        );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  return {
    directoryUrl: `${base}/directory`,
    caPem,
    validations,
    get issued() {
      return issued;
    },
    setChallengePort: (port) => portSet(port),
    expectWrongAnswer: (wrong) => {
      wrongAnswer = wrong;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
