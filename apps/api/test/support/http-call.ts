/** One JSON call to an api, as a browser makes it (bearer session token; none when empty). */
export async function call(url: string, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(url + path, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  // biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies loosely and assert on them
  return { status: res.status, body: (text ? JSON.parse(text) : null) as any };
}
