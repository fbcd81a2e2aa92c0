import { type AdminPermission, hasAdminPermission, messages, type SettingKey } from '@canopy/contract';
import type { FastifyRequest } from 'fastify';
import type { Caller } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import { forbidden, maintenance } from '../errors.ts';
import { callerOf } from '../http/route.ts';
import { registered } from '../items/own-server.ts';
import { settingsRepo } from '../settings/settings.repo.ts';
import { adminCaller, isBanActive } from '../users/profile.ts';
import type { UserRow } from '../users/users.repo.ts';

/** Whether an account is a panel admin (any admin permission). */
export const isAdmin = (who: Caller | UserRow): boolean => ('user' in who ? who.user : who).is_admin === 1;

/** What an account route asks of its caller, besides being registered (every account page is). */
export interface AccountRule {
  /** The `:id` the route names must be the caller's own; `othersWith`: an admin holding it may name anyone. */
  self?: { id: string; othersWith?: AdminPermission };
  /** Refused during maintenance (admins pass): the page is replaced by the maintenance page then. */
  maintenance?: boolean;
  /** Refused to a banned account, with this text; `adminsPass`: a banned admin is let through. */
  unbanned?: { message: string; adminsPass?: boolean };
  /** The admin switch that turns the feature off for everyone but admins. */
  feature?: Exclude<SettingKey, 'maintenance'>;
}

/**
 * The one check of an account route, in one fixed order so every page refuses alike: own id → registered
 * → maintenance (admins pass) → banned → feature switch (admins pass). Each refusal has the status, code
 * and text the pages show.
 */
export async function assertAccount(ctx: AppContext, caller: Caller, rule: AccountRule): Promise<void> {
  const admin = isAdmin(caller);
  const { self } = rule;
  if (
    self &&
    self.id !== caller.user.id &&
    !(self.othersWith && hasAdminPermission(adminCaller(caller.user), self.othersWith))
  )
    throw forbidden(messages.missingPermission, 'not_your_account');
  registered(caller);
  const settings = rule.maintenance || rule.feature ? await settingsRepo.load(ctx.db) : undefined;
  if (rule.maintenance && settings?.maintenance && !admin) throw maintenance();
  if (rule.unbanned && !(rule.unbanned.adminsPass && admin) && isBanActive(caller.user, ctx.now()))
    throw forbidden(rule.unbanned.message, 'banned');
  if (rule.feature && settings?.[rule.feature] && !admin) throw forbidden(messages.featureDisabled, 'feature_disabled');
}

/**
 * A route's `admit` step running assertAccount before the body is read (route.ts), `self` taken from the
 * `:id` parameter; `more` adds the route's own refusals after it (still before the body).
 */
export function admitAccount(
  ctx: AppContext,
  rule: Omit<AccountRule, 'self'> & { self?: { othersWith?: AdminPermission } },
  more?: (caller: Caller) => Promise<void>,
) {
  return async ({ req }: { req: FastifyRequest }) => {
    const caller = callerOf(req);
    // 'user' routes only: the chain authenticated the caller before admit.
    if (!caller) throw new Error('admitAccount needs a signed-in route');
    const id = (req.params as { id?: string }).id ?? '';
    await assertAccount(ctx, caller, { ...rule, self: rule.self && { ...rule.self, id } });
    if (more) await more(caller);
    return () => {};
  };
}
