import { setupGuideMessages } from '@canopy/contract';

/** Puts text on the clipboard; rejects when the browser refuses. */
export type ClipboardWriter = (text: string) => Promise<void>;

/** The toast a copy ends with. */
export interface CopyOutcome {
  type: 'success' | 'error';
  message: string;
}

/**
 * Copies `text` and says how it went (spec 2.11): 'No {label} to copy.' when there is nothing (the data
 * has not loaded or failed to), 'Failed to copy.' when the browser refuses, else `copied` (the success
 * text in the page's language).
 */
export async function copyText(
  text: string | null | undefined,
  label: string,
  write: ClipboardWriter,
  copied: string,
): Promise<CopyOutcome> {
  if (!text?.trim()) return { type: 'error', message: setupGuideMessages.nothingToCopy(label) };
  try {
    await write(text);
    return { type: 'success', message: copied };
  } catch {
    return { type: 'error', message: setupGuideMessages.copyFailed };
  }
}

/**
 * The browser's clipboard. Outside a secure context (the panel served over plain HTTP on a LAN address)
 * there is no Clipboard API, so the older select-and-copy command is the fallback.
 */
export const browserClipboard: ClipboardWriter = async (text) => {
  if (globalThis.navigator?.clipboard?.writeText && globalThis.isSecureContext) {
    await globalThis.navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  try {
    // Deprecated but the only copy path without the Clipboard API; false means the browser refused.
    if (!document.execCommand('copy')) throw new Error('copy refused');
  } finally {
    area.remove();
  }
};
