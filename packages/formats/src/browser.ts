// Browser entry: everything from index.ts plus RTPACK inflation through the Compression Streams API.
import { checkUnpacked, describeMagic, hasMagic, readRtpack } from './rtpack.ts';
import { decodeRttxtr, type RttexImage } from './rttex.ts';

export * from './index.ts';

/** zlib inflate with DecompressionStream('deflate'), which is the zlib-wrapped format. */
export async function inflateInBrowser(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Decodes an RTPACK-wrapped (or bare RTTXTR) texture, e.g. fetched from /cache/{file}. */
export async function decodeRtpackInBrowser(bytes: Uint8Array): Promise<RttexImage> {
  if (hasMagic(bytes, 'RTTXTR')) return decodeRttxtr(bytes);
  const { header, payload } = readRtpack(bytes);
  let inner = payload;
  if (header.compressionType !== 0) {
    try {
      inner = await inflateInBrowser(payload);
    } catch (error) {
      throw new Error(`RTPACK: corrupt zlib payload: ${(error as Error).message}`, { cause: error });
    }
  }
  checkUnpacked(header, inner);
  if (!hasMagic(inner, 'RTTXTR')) {
    throw new Error(`RTPACK: payload is not an RTTXTR texture (magic ${describeMagic(inner)})`);
  }
  return decodeRttxtr(inner);
}
