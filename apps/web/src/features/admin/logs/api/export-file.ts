/** Not in the spec: the export's own failure text, in the tone of its 'Failed to fetch logs.'. */
export const EXPORT_FAILED = 'Failed to export logs.';

/** The export's file name: the day it was made, as the api names it too. */
export const exportFileName = (now: Date) => `activity-logs-${now.toISOString().slice(0, 10)}.csv`;

/** Hands bytes to the browser as a downloaded file (a link clicked once, its object URL freed after). */
export function download(bytes: Uint8Array, name: string) {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
