import { assistantMessages, type ChatMessage, type ChatResponse, chatResponseSchema } from '@canopy/contract';
import { useMutation } from '@tanstack/react-query';
import { AUTH_ERROR_EVENT, authEvents, createApiClient } from '../../../lib/api-client.ts';
import { session } from '../../../lib/session.ts';

/**
 * The app's client without retries: a failed answer is a provider that failed or timed out, and asking it
 * again three times would keep the user waiting minutes and spend their rate limit; the chat's error line
 * tells them to try again instead.
 */
const chatClient = createApiClient({
  fetch: (input, init) => globalThis.fetch(input, init),
  tokens: session,
  retries: 0,
  onAuthError: () => authEvents.dispatchEvent(new Event(AUTH_ERROR_EVENT)),
  lock: (name, fn) => (globalThis.navigator?.locks ? globalThis.navigator.locks.request(name, fn) : fn()),
});

/** POST /ai/chat: one question with the earlier messages. */
export function sendChat(history: ChatMessage[], message: string): Promise<ChatResponse> {
  return chatClient.post(
    '/ai/chat',
    { history, message },
    {
      schema: chatResponseSchema,
      defaultError: () => assistantMessages.failed,
    },
  );
}

/** The chat's mutation; the component adds the answer or the error line to the conversation. */
export function useSendChat() {
  return useMutation({
    mutationFn: ({ history, message }: { history: ChatMessage[]; message: string }) => sendChat(history, message),
  });
}
