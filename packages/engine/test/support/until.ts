/**
 * Polls until `found` gives a value (not undefined or false) and returns it: for what the engine does without a line
 * or an answer saying so (a write under way). No deadline of its own: the test runner's timeout ends a wait that
 * never ends.
 */
export async function until<T>(found: () => T | false | undefined): Promise<T> {
  for (;;) {
    const value = found();
    if (value !== undefined && value !== false) return value;
    await new Promise((r) => setTimeout(r, 5));
  }
}
