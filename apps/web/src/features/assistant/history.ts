import {
  ASSISTANT_HISTORY_MAX,
  ASSISTANT_HISTORY_TEXT_MAX,
  assistantMessages,
  type ChatMessage,
  chatMessageSchema,
} from '@canopy/contract';

/** The part of Web Storage the chat history needs (sessionStorage in the browser, a Map in tests). */
export interface HistoryStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  readonly length: number;
  key(index: number): string | null;
}

const PREFIX = 'canopy.skyhelper.';
/** Most messages kept for the browser session: enough to scroll back, small enough for storage. */
export const STORED_MESSAGES_MAX = 100;

/** The session-storage key of one user's chat: a second account in the same tab never sees it. */
export const historyKey = (userId: string) => `${PREFIX}${userId}`;

/** One user's stored chat; anything unreadable or malformed counts as an empty chat. */
export function readHistory(storage: HistoryStorage, userId: string): ChatMessage[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(historyKey(userId)) ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((m) => {
      // Stored answers may be longer than the request's bound, so only the shape is checked here.
      const role = (m as ChatMessage)?.role;
      const text = (m as ChatMessage)?.text;
      return (role === 'user' || role === 'model') && typeof text === 'string' ? [{ role, text }] : [];
    });
  } catch {
    return [];
  }
}

/** Stores one user's chat (the newest STORED_MESSAGES_MAX messages); a full storage only loses the history. */
export function writeHistory(storage: HistoryStorage, userId: string, messages: readonly ChatMessage[]): void {
  try {
    storage.setItem(historyKey(userId), JSON.stringify(messages.slice(-STORED_MESSAGES_MAX)));
  } catch {
    // Quota exceeded or storage disabled: the chat still works, it is just not kept.
  }
}

/** Forgets every stored chat (on logout, so the next person at this browser does not read it). */
export function clearHistories(storage: HistoryStorage): void {
  const keys: string[] = [];
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (key?.startsWith(PREFIX)) keys.push(key);
  }
  for (const key of keys) storage.removeItem(key);
}

const clip = (text: string) =>
  text.length > ASSISTANT_HISTORY_TEXT_MAX ? `${text.slice(0, ASSISTANT_HISTORY_TEXT_MAX - 1)}…` : text;

/**
 * The history sent with a question, within the api's bounds: the error lines the panel appended are left
 * out (they were never the model's words), long answers are clipped, only the last ASSISTANT_HISTORY_MAX
 * messages go, and the window starts with a question, as Gemini expects.
 */
export function requestHistory(messages: readonly ChatMessage[]): ChatMessage[] {
  const window = messages
    .filter((m) => !(m.role === 'model' && m.text === assistantMessages.errorLine))
    .slice(-ASSISTANT_HISTORY_MAX)
    .map((m) => ({ role: m.role, text: clip(m.text) }));
  const first = window.findIndex((m) => m.role === 'user');
  const bounded = first === -1 ? [] : window.slice(first);
  // Whatever passed the filters fits the contract; checked so a bug here is a test failure, not a 400.
  return bounded.filter((m) => chatMessageSchema.safeParse(m).success);
}
