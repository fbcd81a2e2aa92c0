/** Largest body of server_data.php: the client's form is a few hundred bytes. */
export const GATEWAY_BODY_LIMIT = 4096;
/** Largest body of the login form's token call (the form is a few hundred bytes). */
export const LOGIN_BODY_LIMIT = 4096;
/** Largest body of the calls that carry the client's own login fields: the web view's page post and checktoken. */
export const CLIENT_DATA_BODY_LIMIT = 16_384;

/** The gateway's HTTPS calls, by the handler that answers them in the api. */
export type GatewayRouteName = 'serverData' | 'loginPage' | 'validate' | 'checkToken';

/** One call: who answers it and the most body the TLS thread reads for it (0: none is read). */
export interface GatewayRoute {
  name: GatewayRouteName;
  bodyLimit: number;
}

const routes = new Map<string, GatewayRoute>([
  ['POST /growtopia/server_data.php', { name: 'serverData', bodyLimit: GATEWAY_BODY_LIMIT }],
  ['GET /player/login/dashboard', { name: 'loginPage', bodyLimit: 0 }],
  // The client's web view posts its own fields here; they are not needed, only bounded.
  ['POST /player/login/dashboard', { name: 'loginPage', bodyLimit: CLIENT_DATA_BODY_LIMIT }],
  ['POST /player/growid/login/validate', { name: 'validate', bodyLimit: LOGIN_BODY_LIMIT }],
  ['POST /player/growid/checktoken', { name: 'checkToken', bodyLimit: CLIENT_DATA_BODY_LIMIT }],
]);

/** The call a method and path name (the TLS thread reads its body, the api answers it); undefined: a 404. */
export const gatewayRoute = (method: string, path: string): GatewayRoute | undefined => routes.get(`${method} ${path}`);
