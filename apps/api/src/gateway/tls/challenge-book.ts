/** Most HTTP-01 answers held at once: one order names one host, so a handful is already generous. */
const MAX_CHALLENGES = 64;

/**
 * The HTTP-01 answers the ACME client has published (token -> key authorization), read by the plain-HTTP
 * listener. Bounded: a runaway order cannot grow it.
 */
export class ChallengeBook {
  private readonly answers = new Map<string, string>();

  /** Publishes one token's key authorization until `remove`. */
  add(token: string, keyAuthorization: string): void {
    if (this.answers.size >= MAX_CHALLENGES && !this.answers.has(token)) {
      const oldest = this.answers.keys().next().value;
      if (oldest !== undefined) this.answers.delete(oldest);
    }
    this.answers.set(token, keyAuthorization);
  }

  /** Withdraws a token once its challenge is done. */
  remove(token: string): void {
    this.answers.delete(token);
  }

  /** The key authorization for a token, if it is published. */
  answer(token: string): string | undefined {
    return this.answers.get(token);
  }
}
