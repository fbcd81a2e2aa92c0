import {
  ASSISTANT_ANSWER_MAX,
  assistantMessages,
  type ChatMessage,
  type ChatRequest,
  type ChatResponse,
  setupPaths,
} from '@canopy/contract';
import type { Caller } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { loadCallerState } from './caller-state.ts';
import { offlineAnswer, type SetupLinks } from './offline-helper.ts';
import { askProvider } from './providers.ts';
import { systemPrompt } from './system-prompt.ts';

/** Where players get the setup files: the configured public URL, else the origin the caller used. */
export function setupLinks(ctx: AppContext, origin: string): SetupLinks {
  const base = ctx.config.publicUrl ?? origin;
  return { ip: ctx.config.publicIp, tunnelUrl: `${base}${setupPaths.tunnel}`, surgeUrl: `${base}${setupPaths.surge}` };
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
  const links = setupLinks(ctx, opts.origin);
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
