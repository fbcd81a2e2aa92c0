/** The logging the gateway's parts take: the api's logger, adapted once in gateway.ts, or a test's recorder. */
export interface GatewayLog {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}
