import {
  ASSISTANT_ANSWER_MAX,
  assistantMessages,
  type ChatMessage,
  type ChatRequest,
  type ChatResponse,
} from '@canopy/contract';
import type { Caller } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { setupGuide } from '../setup-guide/setup-guide.service.ts';
import { loadCallerState } from './caller-state.ts';
import { offlineAnswer, type SetupLinks } from './offline-helper.ts';
import { askProvider } from './providers.ts';
import { systemPrompt } from './system-prompt.ts';

/**
 * The Setup Guide page's own data (setup-guide.service.ts), so SkyHelper and the page say the same; null
 * when the game address cannot be resolved: the other answers do not need it.
 */
async function setupLinks(ctx: AppContext, origin: string): Promise<SetupLinks> {
  try {
    return await setupGuide(ctx, origin);
  } catch (error) {
    ctx.log.warn({ reason: error instanceof Error ? error.message : String(error) }, 'SkyHelper: no setup links');
    return null;
  }
}

const answer = (text: string): ChatResponse => ({
  message: {
    role: 'model',
    text: text.length > ASSISTANT_ANSWER_MAX ? `${text.slice(0, ASSISTANT_ANSWER_MAX)}…` : text,
  },
});

/**
 * Answers one question: the offline helper, or the configured model with a system prompt holding the
 * caller's own state. A provider's failure is logged here and reaches the user only as the spec's text.
 */
export async function chat(
  ctx: AppContext,
  caller: Caller,
  req: ChatRequest,
  opts: { origin: string; gone: AbortSignal },
): Promise<ChatResponse> {
  const state = await loadCallerState(ctx, caller);
  const links = await setupLinks(ctx, opts.origin);
  const ai = ctx.config.ai;
  if (ai.provider === 'offline') return answer(offlineAnswer(req.message, state, links));

  const messages: ChatMessage[] = [...req.history, { role: 'user', text: req.message }];
  const started = Date.now();
  try {
    return answer(await askProvider(ai, systemPrompt(state, links), messages, opts.gone));
  } catch (error) {
    // The provider's own text may name its endpoint or echo a key: it stays in the log.
    ctx.log.warn(
      {
        provider: ai.provider,
        ms: Date.now() - started,
        reason: error instanceof Error ? error.message : String(error),
      },
      'SkyHelper provider failed',
    );
    throw new AppError(502, 'ai_failed', assistantMessages.failed);
  }
}
