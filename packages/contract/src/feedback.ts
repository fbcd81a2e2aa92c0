import { z } from 'zod';

/** Kinds of feedback (panel document, sections 2.12 and 3), in the selector's order. */
export const FEEDBACK_TYPES = ['Suggestion', 'Bug Report', 'General Feedback'] as const;
export type FeedbackType = (typeof FEEDBACK_TYPES)[number];

/** States an admin moves feedback through (admin document); new feedback starts as New. */
export const FEEDBACK_STATUSES = ['New', 'In Progress', 'Resolved', 'Archived'] as const;
export type FeedbackStatus = (typeof FEEDBACK_STATUSES)[number];

/** Longest message accepted, in characters (after trimming). */
export const FEEDBACK_MESSAGE_MAX = 2000;

/** How many feedback messages one user may send per window (POST /feedback answers 429 beyond it). */
export const FEEDBACK_RATE_LIMIT = { max: 5, windowMs: 10 * 60_000 } as const;

/** Texts of the Feedback page and POST /feedback (spec sections 2.12, 5 and 8). */
export const feedbackMessages = {
  title: 'Feedback',
  intro: 'Tell us what to improve, report a bug, or just say hello. Every message is read by an administrator.',
  typeLabel: 'Type',
  messageLabel: 'Message',
  placeholder: 'Describe your suggestion or the problem you ran into…',
  submit: 'Submit Feedback',
  empty: 'Feedback message cannot be empty.',
  tooLong: `Feedback message must be at most ${FEEDBACK_MESSAGE_MAX} characters.`,
  controlCharacters: 'Feedback message cannot contain control characters (line breaks and tabs are fine).',
  invalidType: `Feedback type must be one of: ${FEEDBACK_TYPES.join(', ')}.`,
  banned: 'Banned users cannot submit feedback.',
  failed: 'Failed to submit feedback.',
  thanks: 'Thank you for your feedback!',
} as const;

/**
 * Control characters other than tab, line feed and carriage return (NUL cannot be stored on PostgreSQL),
 * and the bidi embeddings, overrides and isolates U+202A–U+202E and U+2066–U+2069, which make a message
 * display in the admin panel as something other than what it says.
 */
const CONTROL = /[^\P{Cc}\t\n\r]|[\u202a-\u202e\u2066-\u2069]/u;
/** Whitespace and invisible format characters (zero-width space, joiners, BOM): a message of only these is empty. */
const INVISIBLE = /^[\s\p{Cf}]*$/u;

/**
 * POST /feedback {type, message}: the message is trimmed, required (something visible in it), at most
 * FEEDBACK_MESSAGE_MAX long, and free of control characters.
 */
export const feedbackRequestSchema = z.object({
  type: z.enum(FEEDBACK_TYPES, { error: feedbackMessages.invalidType }),
  message: z
    .string({ error: feedbackMessages.empty })
    .trim()
    .min(1, { error: feedbackMessages.empty })
    .max(FEEDBACK_MESSAGE_MAX, { error: feedbackMessages.tooLong })
    .refine((text) => !INVISIBLE.test(text), { error: feedbackMessages.empty, abort: true })
    .refine((text) => !CONTROL.test(text), { error: feedbackMessages.controlCharacters }),
});
export type FeedbackRequest = z.infer<typeof feedbackRequestSchema>;

/** Answer of POST /feedback: the thank-you text. */
export const feedbackResponseSchema = z.object({ message: z.string() });
export type FeedbackResponse = z.infer<typeof feedbackResponseSchema>;

/** One stored feedback message as the admin panel lists it (admin document). */
export const feedbackEntrySchema = z.object({
  id: z.string(),
  userId: z.string().nullable(),
  type: z.enum(FEEDBACK_TYPES),
  message: z.string(),
  submittedByUsername: z.string(),
  submittedByGrowId: z.string().nullable(),
  status: z.enum(FEEDBACK_STATUSES),
  /** ISO 8601. */
  createdAt: z.string(),
});
export type FeedbackEntry = z.infer<typeof feedbackEntrySchema>;
