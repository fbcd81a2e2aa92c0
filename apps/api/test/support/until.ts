/** Polls `check` every 25 ms until it is true; throws "timed out waiting for <what>" after `ms`. */
export async function until(check: () => boolean, what: string, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
