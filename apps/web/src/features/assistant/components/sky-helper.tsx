/** SkyHelper, the floating AI assistant on every signed-in page (spec 2.13): filled by its own work. */
export function SkyHelper() {
  return null;
}
