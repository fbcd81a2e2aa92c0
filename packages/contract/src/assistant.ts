import { z } from 'zod';

/** Longest question a user may send to SkyHelper, in characters (after trimming). */
export const ASSISTANT_MESSAGE_MAX = 1000;
/** Most earlier messages sent with a question: the window the assistant remembers. */
export const ASSISTANT_HISTORY_MAX = 20;
/** Longest earlier message accepted in the history; the panel clips longer answers before sending them back. */
export const ASSISTANT_HISTORY_TEXT_MAX = 2000;
/** Longest answer the api hands back: a provider that rambles is cut here. */
export const ASSISTANT_ANSWER_MAX = 8000;
/** Questions per user per minute (provider calls cost money; the offline helper obeys the same rule). */
export const ASSISTANT_RATE_LIMIT = { max: 20, windowMs: 60_000 } as const;

/** Texts of SkyHelper (panel document, sections 2.13 and 8). */
export const assistantMessages = {
  title: 'SkyHelper',
  failed: 'Failed to get response from AI.',
  errorLine: "I'm sorry, I encountered an error. Please try again.",
  open: 'Open SkyHelper',
  close: 'Close SkyHelper',
  placeholder: 'Ask SkyHelper about your server…',
  send: 'Send',
  typing: 'SkyHelper is typing…',
  greeting: "Hi! I'm SkyHelper. Ask me how to start your server, connect to it, add a collaborator and more.",
  clear: 'Clear chat',
  offlineDisclaimer:
    "I'm SkyHelper's offline helper: no AI model is configured on this panel, so I answer common questions from Canopy's built-in help and your account's live state.",
  // Refusals of the api for a bad request.
  messageRequired: 'Message cannot be empty.',
  messageTooLong: `Message must be at most ${ASSISTANT_MESSAGE_MAX} characters.`,
  historyTooLong: `History may hold at most ${ASSISTANT_HISTORY_MAX} messages.`,
  historyTextTooLong: `Each history message must be at most ${ASSISTANT_HISTORY_TEXT_MAX} characters.`,
  badRole: "A message's role must be user or model.",
} as const;

/** One chat message (spec section 3): role user or model, as Gemini names them. */
export const chatMessageSchema = z.object({
  role: z.enum(['user', 'model'], { error: assistantMessages.badRole }),
  text: z.string().max(ASSISTANT_HISTORY_TEXT_MAX, assistantMessages.historyTextTooLong),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** Body of POST /ai/chat: the earlier messages (oldest first) and the new question. */
export const chatRequestSchema = z.object({
  history: z.array(chatMessageSchema).max(ASSISTANT_HISTORY_MAX, assistantMessages.historyTooLong).default([]),
  message: z
    .string({ error: assistantMessages.messageRequired })
    .trim()
    .min(1, assistantMessages.messageRequired)
    .max(ASSISTANT_MESSAGE_MAX, assistantMessages.messageTooLong),
});
export type ChatRequest = z.infer<typeof chatRequestSchema>;

/** Answer of POST /ai/chat. */
export const chatResponseSchema = z.object({
  message: z.object({ role: z.literal('model'), text: z.string() }),
});
export type ChatResponse = z.infer<typeof chatResponseSchema>;
