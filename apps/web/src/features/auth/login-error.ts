/**
 * The login page's error text (spec 2.3: 'Login Failed: {message}'). The login call's own failures
 * already read 'Login failed: {status text}' or 'Login failed. The server returned an invalid
 * response ...' (spec section 8): those are shown as they are, so the words never appear twice.
 */
export function loginErrorText(message: string): string {
  const text = message.trim();
  return /^login failed\b/i.test(text) ? text : `Login Failed: ${text}`;
}
