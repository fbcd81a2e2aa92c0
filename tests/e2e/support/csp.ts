import type { Page } from 'playwright-core';

/** Every CSP violation the page reports, from the console and from securitypolicyviolation events. */
export async function watchCspViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy|Refused to/i.test(msg.text())) violations.push(msg.text());
  });
  await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { reportViolation(t: string): void }).reportViolation(
        `${e.violatedDirective} blocked ${e.blockedURI}`,
      ),
    );
  });
  return violations;
}
