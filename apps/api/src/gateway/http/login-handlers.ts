import { randomBytes } from 'node:crypto';
import {
  type GatewayLoginResponse,
  GROWID_MAX,
  gatewayCheckTokenRequestSchema,
  gatewayLoginRequestSchema,
  gatewayMessages,
  SERVER_NAME_MAX,
} from '@canopy/contract';
import { type GatewayLogin, GatewayRefusal, loginToServer, readSavedSignIn, refreshLogin } from '../login.service.ts';
import { WindowCounter, type WindowRule } from '../rate-limit.ts';
import type { GatewayContext } from '../tenants.ts';
import { type LoginPageState, loginPageCsp, loginPageHtml } from './login-page.ts';
import type { GatewayRequest, HttpAnswer } from './messages.ts';
import { bodyOf, parseFields } from './request-body.ts';
import { answer } from './respond.ts';

/** The token calls' limits: per IP (validate and checktoken together), and per server and GrowID. */
export interface LoginLimits {
  loginsPerIp: WindowRule;
  loginsPerGrowId: WindowRule;
}

/** The header that carries a refused sign-in's stable code beside the HTML page (clients branch on it). */
export const LOGIN_ERROR_HEADER = 'x-canopy-error';

/**
 * The login page and its two token calls (ADR 0026, 0027). Success is the JSON the client reads; a refusal
 * answers the page again, status 200 (what the game's web view renders), with the error shown and its code in
 * the x-canopy-error header.
 */
export function createLoginHandlers(ctx: GatewayContext, gatewayKey: Buffer, limits: LoginLimits) {
  const loginsPerIp = new WindowCounter(limits.loginsPerIp);
  const loginsPerGrowId = new WindowCounter(limits.loginsPerGrowId);

  const page = async (state: LoginPageState = {}, code?: string): Promise<HttpAnswer> => {
    const online = (await ctx.tenants.onlineNames()).sort((a, b) => a.localeCompare(b));
    const nonce = randomBytes(16).toString('base64');
    return answer(200, 'text/html; charset=utf-8', loginPageHtml(online, nonce, state), {
      'content-security-policy': loginPageCsp(nonce),
      'x-frame-options': 'DENY',
      ...(code ? { [LOGIN_ERROR_HEADER]: code } : {}),
    });
  };

  const refused = (code: string, error: string, names: Omit<LoginPageState, 'error'> = {}) => {
    ctx.metrics.refused(code);
    return page({ ...names, error }, code);
  };

  const succeeded = (login: GatewayLogin, message: string, saved = false) => {
    ctx.metrics.login(saved ? 'saved' : login.created ? 'new_growid' : 'password');
    return answer(
      200,
      'application/json; charset=utf-8',
      JSON.stringify({
        status: 'success',
        message,
        token: login.token,
        url: '',
        accountType: 'growtopia',
      } satisfies GatewayLoginResponse),
    );
  };

  // The names typed, kept to fill the form again (bounded; the page escapes them).
  const typed = (fields: Record<string, string | boolean>) => ({
    server: typeof fields.server === 'string' ? fields.server.trim().slice(0, SERVER_NAME_MAX) : undefined,
    growId: typeof fields.growId === 'string' ? fields.growId.trim().slice(0, GROWID_MAX) : undefined,
  });

  return {
    /** GET or the web view's POST of /player/login/dashboard: the page. */
    loginPage(request: GatewayRequest): Promise<HttpAnswer> {
      // The client's web view posts its own fields here; they are not needed, only bounded (routes.ts).
      bodyOf(request);
      return page();
    },

    /** POST /player/growid/login/validate: a password sign-in (or a new GrowID). */
    async validate(request: GatewayRequest): Promise<HttpAnswer> {
      const fields = parseFields(request.contentType, bodyOf(request));
      const names = typed(fields);
      const now = ctx.now();
      if (!loginsPerIp.hit(request.ip, now)) return refused('rate_limited', gatewayMessages.tooManyAttempts, names);
      const parsed = gatewayLoginRequestSchema.safeParse(fields);
      if (!parsed.success) {
        const field = parsed.error.issues[0]?.path[0];
        const message =
          field === 'server'
            ? gatewayMessages.serverNameInvalid
            : field === 'password'
              ? gatewayMessages.passwordInvalid
              : gatewayMessages.growIdInvalid;
        return refused('invalid', message, names);
      }
      const input = parsed.data;
      const account = `${input.server.toLowerCase()}\0${input.growId.toLowerCase()}`;
      if (!loginsPerGrowId.hit(account, now)) return refused('rate_limited', gatewayMessages.tooManyAttempts, names);
      try {
        const login = await loginToServer(ctx, gatewayKey, input);
        ctx.log.info(`gateway: ${login.growId} signed in to ${login.server}${login.created ? ' (new GrowID)' : ''}`);
        return succeeded(
          login,
          (login.created ? gatewayMessages.created : gatewayMessages.loggedIn)(login.growId, login.server),
        );
      } catch (error) {
        if (!(error instanceof GatewayRefusal)) throw error;
        return refused(error.code, error.message, names);
      }
    },

    /** POST /player/growid/checktoken: a returning player's saved sign-in, refreshed into a new token. */
    async checkToken(request: GatewayRequest): Promise<HttpAnswer> {
      const now = ctx.now();
      // Nothing of the form is shown again, so the per-IP count comes before the body is parsed.
      if (!loginsPerIp.hit(request.ip, now)) return refused('rate_limited', gatewayMessages.tooManyAttempts);
      const parsed = gatewayCheckTokenRequestSchema.safeParse(parseFields(request.contentType, bodyOf(request)));
      if (!parsed.success) return refused('token_invalid', gatewayMessages.savedSignInInvalid);
      try {
        const { refreshToken } = parsed.data;
        const ticket = readSavedSignIn(gatewayKey, refreshToken, now);
        // Counted with the password sign-ins of that server and GrowID: each refresh gives a new token, so a count
        // per token could be spun, one per account cannot. Before any lookup.
        if (!loginsPerGrowId.hit(`${ticket.server.toLowerCase()}\0${ticket.growId.toLowerCase()}`, now))
          return refused('rate_limited', gatewayMessages.tooManyAttempts);
        const login = await refreshLogin(ctx, gatewayKey, refreshToken, ticket);
        ctx.log.info(`gateway: ${login.growId} signed in to ${login.server} (saved sign-in)`);
        return succeeded(login, gatewayMessages.accountValidated, true);
      } catch (error) {
        if (!(error instanceof GatewayRefusal)) throw error;
        return refused(error.code, error.message);
      }
    },
  };
}
