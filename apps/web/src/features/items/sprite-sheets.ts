// Texture sheets for item sprites: fetched from /cache/{file} as bytes through the signed-in api client,
// decoded in the browser, and kept in memory by name (spec section 3, Texture images).
import { itemMessages } from '@canopy/contract';
import { cutSprite, decodeRtpackInBrowser, type RttexImage } from '@canopy/formats/browser';

/**
 * A sheet that does not decode, or a cell outside it, is the page's text: the formats package's own words
 * ("cutSprite: cell (3, 0) lies outside ...") are for developers. A failed fetch keeps the api's text.
 */
function unreadable(cause: unknown): never {
  throw new Error(itemMessages.textureFailed, { cause });
}

/** Fetches a texture file's bytes (the api client's getBytes in the app; a stub in tests). */
export type FetchTexture = (name: string) => Promise<Uint8Array>;

/** A cache of decoded sheets by file name; a failed fetch is forgotten so that it can be tried again. */
export function createSheetCache(fetchTexture: FetchTexture) {
  const sheets = new Map<string, Promise<RttexImage>>();
  return {
    sheet(name: string): Promise<RttexImage> {
      let sheet = sheets.get(name);
      if (!sheet) {
        sheet = fetchTexture(name).then((bytes) => decodeRtpackInBrowser(bytes).catch(unreadable));
        sheets.set(name, sheet);
        sheet.catch(() => sheets.delete(name));
      }
      return sheet;
    },
    /** The item's 32x32 RGBA cell, or an error with the page's text when it has no texture. */
    async sprite(item: { texture: string; texture_x: number; texture_y: number }): Promise<Uint8Array> {
      if (!item.texture) throw new Error(itemMessages.textureNotFound);
      const sheet = await this.sheet(item.texture);
      try {
        return cutSprite(sheet, item.texture_x, item.texture_y);
      } catch (error) {
        return unreadable(error);
      }
    },
    get size() {
      return sheets.size;
    },
  };
}
export type SheetCache = ReturnType<typeof createSheetCache>;
