import { configuredLoginCertificate, loginUrlOf } from '../config/login-host.ts';
import type { Config } from '../config.ts';
import type { GatewayHandle } from './gateway.ts';

/** The line a started gateway prints (in `npm start` and `npm run gateway`): its ports, where players connect, the login page. */
export function gatewayStartLine(config: Config, gateway: GatewayHandle): string {
  const certificateSource = {
    operator: 'your certificate',
    acme: `ACME, HTTP-01 on port ${gateway.login.acmeHttpPort}`,
    'self-signed': 'self-signed: development only',
  };
  return (
    `Canopy gateway: https on port ${gateway.tlsPort} (server_data.php, login page), ENet front on udp port ${gateway.udpPort}; players connect to ${config.publicIp}` +
    (config.gateway.login
      ? `; login page https://${loginUrlOf(config.gateway.login)} (${certificateSource[configuredLoginCertificate(config.gateway.login)]})`
      : '; login page self-signed: development only (CANOPY_LOGIN_HOST)')
  );
}
