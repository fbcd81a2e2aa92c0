import { ASSISTANT_HISTORY_MAX, ASSISTANT_HISTORY_TEXT_MAX, ASSISTANT_MESSAGE_MAX } from '@canopy/contract';

/**
 * The largest legitimate POST /ai/chat: a full history of the longest messages and the longest question,
 * at up to 6 bytes a character (a JSON \u escape; UTF-8 takes at most 4), plus 8 KB for the JSON
 * around them. Anything larger is refused (413) before it is parsed.
 */
export const ASSISTANT_BODY_LIMIT =
  (ASSISTANT_HISTORY_MAX * ASSISTANT_HISTORY_TEXT_MAX + ASSISTANT_MESSAGE_MAX) * 6 + 8 * 1024;
