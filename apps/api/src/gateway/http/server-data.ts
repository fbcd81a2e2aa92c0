/** What server_data.php says, for one answer. */
export interface ServerDataInput {
  /** Where game clients connect: CANOPY_PUBLIC_IP. */
  ip: string;
  /** The ENet front's UDP port. */
  udpPort: number;
  /** `host:port` of the login page (no scheme, as the client expects). */
  loginUrl: string;
  meta: string;
  /** The text shown instead of connecting, when the platform is in maintenance. */
  maintenance?: string;
}

const END_MARKER = 'RTENDMARKERBS1001';

// A value must not end its line early or add a line of its own.
const oneLine = (value: string) => value.replace(/[\r\n|]/g, ' ');

/** The key|value body of POST /growtopia/server_data.php (docs/game-protocol.md, step 1). */
export function serverDataBody(input: ServerDataInput): string {
  return [
    `server|${oneLine(input.ip)}`,
    `port|${input.udpPort}`,
    'type|1',
    // type2|1: the client speaks ENet with the "new packet" header (the front expects it).
    'type2|1',
    input.maintenance === undefined ? '#maint|' : `maint|${oneLine(input.maintenance)}`,
    `loginurl|${oneLine(input.loginUrl)}`,
    `meta|${oneLine(input.meta)}`,
    END_MARKER,
    '',
  ].join('\n');
}
