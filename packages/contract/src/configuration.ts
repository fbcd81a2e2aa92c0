import { z } from 'zod';
import { CREATOR_LIST_MAX, creatorListSchema, newbieKitSchema, serverConfigSchema } from './engine-config.ts';
import { growIdSchema } from './user.ts';

/**
 * The Configuration page's General and Newbie Kit tabs (server-management document, sections 2, 5, 7
 * and 8): request and answer shapes of their calls, and their texts.
 */
export const configurationMessages = {
  allDisabled: 'Configuration settings are currently disabled by an administrator.',
  creatorAdded: 'Creator added successfully.',
  creatorRemoved: 'Creator removed successfully.',
  farmDelayUpdated: 'Autofarm delay updated.',
  newbieKitUpdated: 'Newbie kit updated successfully.',
  invalidFarmDelay: 'Autofarm delay must be a valid number.',
  invalidQuantity: 'Please enter a valid quantity.',
  /** Our words: the spec only says the trimmed GrowID must be non-empty. */
  growIdRequired: 'Please enter a GrowID.',
  creatorExists: (growId: string) => `${growId} is already on the creator list.`,
  creatorMissing: (growId: string) => `${growId} is not on the creator list.`,
  creatorListFull: `The creator list is full (at most ${CREATOR_LIST_MAX} GrowIDs).`,
  unknownKitItems: (ids: readonly number[]) =>
    `Unknown item ID${ids.length === 1 ? '' : 's'} in the newbie kit: ${ids.slice(0, 10).join(', ')}${
      ids.length > 10 ? ', ...' : ''
    }. Use items of the item database or your custom items.`,
  fetchCreatorListFailed: 'Failed to fetch creator list.',
  fetchServerConfigFailed: 'Failed to fetch server config.',
  fetchNewbieKitFailed: 'Failed to fetch newbie kit configuration.',
  saveFailed: 'Failed to save configuration.',
  noServerToRestart: 'No server found to restart.',
  /** Our words for failures the spec gives no fallback for. */
  addCreatorFailed: 'Failed to add creator.',
  removeCreatorFailed: 'Failed to remove creator.',
  /** Our words: how a save that needs an engine restart was applied (configAppliedSchema). */
  appliedRestarting: 'Your server is restarting to apply the change.',
  appliedNextStart: 'The change applies when your server next starts: saving does not start a stopped server.',
  appliedUnchanged: 'Nothing changed, so the server was not restarted.',
  /** The console line before the restart that applies a save (its '> stop' follows). */
  restartToApply: (what: string, by: string) => `Restarting to apply the ${what} saved by ${by}.`,
} as const;

/**
 * How a save that the engine reads only at start (newbie kit, custom items, a texture item) reached it. The
 * restart belongs to the save, under the saver's config:manage: `restarting`, the running server restarts
 * now; `next_start`, the server was stopped (or busy, or could not restart) and applies it when it starts;
 * `unchanged`, the saved content equals what was stored, so nothing restarted (a save must not be a way to
 * restart at will for one who may configure but not restart).
 */
export const configAppliedSchema = z.enum(['restarting', 'next_start', 'unchanged']);
export type ConfigApplied = z.infer<typeof configAppliedSchema>;

/** The text the page shows for how a save was applied. */
export const configAppliedMessage = (applied: ConfigApplied) =>
  ({
    restarting: configurationMessages.appliedRestarting,
    next_start: configurationMessages.appliedNextStart,
    unchanged: configurationMessages.appliedUnchanged,
  })[applied];

/** Answer of PUT newbie-kit and PUT item-config: the spec's success text and how the change was applied. */
export const configSaveResponseSchema = z.object({ message: z.string(), applied: configAppliedSchema });
export type ConfigSaveResponse = z.infer<typeof configSaveResponseSchema>;

/** Newbie kit items per page and most item suggestions (section 9). */
export const NEWBIE_KIT_PAGE_SIZE = 10;
export const NEWBIE_KIT_SUGGESTIONS = 10;

/** The Configuration page's tabs, in order. */
export const configurationTabs = ['general', 'newbie-kit', 'custom-items', 'custom-textures'] as const;
export type ConfigurationTab = (typeof configurationTabs)[number];

/** GET /users/{id}/server/creator-list. */
export const creatorListResponseSchema = z.object({ creatorList: creatorListSchema });
export type CreatorListResponse = z.infer<typeof creatorListResponseSchema>;

/** Body of POST /users/{id}/server/creator-list: a trimmed, non-empty GrowID. */
export const addCreatorRequestSchema = z.object({
  growId: z
    .string({ error: configurationMessages.growIdRequired })
    .trim()
    .min(1, configurationMessages.growIdRequired)
    .pipe(growIdSchema),
});
export type AddCreatorRequest = z.infer<typeof addCreatorRequestSchema>;

const delaySchema = serverConfigSchema.shape.autofarmDelay.unwrap();

/**
 * Body of POST /users/{id}/server/farm-delay. `amount` must parse as a number (a numeric string is
 * read as one, as the page's input gives text), within the server config's bounds.
 */
export const farmDelayRequestSchema = z.object({
  amount: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z
      .number({ error: configurationMessages.invalidFarmDelay })
      .refine(Number.isFinite, { message: configurationMessages.invalidFarmDelay })
      .pipe(delaySchema),
  ),
});
export type FarmDelayRequest = z.infer<typeof farmDelayRequestSchema>;

/** GET and PUT /users/{id}/server/newbie-kit: the whole kit (`ITEMS[0]` holds currencies and items). */
export const newbieKitRequestSchema = newbieKitSchema;
export type NewbieKitRequest = z.input<typeof newbieKitRequestSchema>;
