import { api } from '../../../lib/api-client.ts';
import { createSheetCache } from '../sprite-sheets.ts';

/** The panel's sheet cache: textures come from GET /cache/{file} with the session's bearer token. */
export const spriteSheets = createSheetCache((name) =>
  api.get<Uint8Array>(`/cache/${encodeURIComponent(name)}`, { responseType: 'bytes' }),
);
