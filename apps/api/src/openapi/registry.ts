import type { z } from 'zod';
import type { AppContext } from '../context.ts';
import type { RateRule } from '../http/rate-limits.ts';
import type { Access, RouteResponse } from '../http/route.ts';

/** A route as route() declared it, without its handler: what the OpenAPI document is generated from. */
export interface DeclaredRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  access: Access;
  /** The permission needed on the caller's server (server-scoped routes). */
  server?: string;
  body?: z.ZodType;
  rawBody: boolean;
  query?: z.ZodType;
  response?: RouteResponse;
  /** The write honours If-Match (route.ts `ifMatch`). */
  ifMatch: boolean;
  status: number;
  summary?: string;
  bodyLimit: number;
  rateLimit: {
    perIp?: RateRule;
    perAccount?: { rule: RateRule; key: 'caller' | 'body' };
    perCallerShared?: RateRule;
  };
}

// Per app (one context each): tests build several apps in one process. Entries hold the schemas the routes
// hold anyway, so the registry costs a few small objects per route.
const declared = new WeakMap<AppContext, DeclaredRoute[]>();

/** Records a route as it is declared (route.ts). */
export function recordRoute(ctx: AppContext, entry: DeclaredRoute) {
  const list = declared.get(ctx) ?? [];
  list.push(entry);
  declared.set(ctx, list);
}

/** The routes route() declared on this app, in declaration order. */
export function declaredRoutes(ctx: AppContext): readonly DeclaredRoute[] {
  return declared.get(ctx) ?? [];
}
