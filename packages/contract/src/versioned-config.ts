// The Configuration page's whole-file documents with their version (ADR 0035; the rules in versioned-writes.ts).
import { z } from 'zod';
import { configSaveResponseSchema } from './configuration.ts';
import { customItemsFileSchema, newbieKitSchema } from './engine-config.ts';

/** A config file's version: a hash of its content, as GET answers it and a save names it back (If-Match). */
export const configVersionSchema = z.string().regex(/^[0-9a-f]{32}$/, 'version must be the one the GET answered.');

/** Answer of GET newbie-kit: the kit and the version of its file. */
export const newbieKitResponseSchema = newbieKitSchema.extend({ version: configVersionSchema });
export type NewbieKitResponse = z.infer<typeof newbieKitResponseSchema>;

/** Answer of GET item-config: the custom items and the version of their file. */
export const itemConfigResponseSchema = customItemsFileSchema.extend({ version: configVersionSchema });
export type ItemConfigResponse = z.infer<typeof itemConfigResponseSchema>;

/** Answer of PUT newbie-kit and PUT item-config: as configSaveResponseSchema, with the version now stored. */
export const versionedConfigSaveResponseSchema = configSaveResponseSchema.extend({ version: configVersionSchema });
export type VersionedConfigSaveResponse = z.infer<typeof versionedConfigSaveResponseSchema>;
