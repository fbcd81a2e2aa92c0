import type { ChatMessage } from '@canopy/contract';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import type { Config } from '../config.ts';

/** Models used when CANOPY_AI_MODEL is not set. */
export const DEFAULT_MODELS = { gemini: 'gemini-2.5-flash', openai: 'gpt-4o-mini' } as const;

/** What a provider is asked: the system instruction and the conversation, oldest first, ending with the question. */
export interface ProviderRequest {
  system: string;
  messages: ChatMessage[];
  signal: AbortSignal;
}

/** A provider answered, but with nothing usable (no candidate, an empty text). */
export class EmptyAnswerError extends Error {
  constructor() {
    super('the provider answered without text');
  }
}

type Ai = Config['ai'];

/** Google Gemini through its official SDK; Gemini's roles are the spec's (user, model). */
async function askGemini(ai: Ai, req: ProviderRequest): Promise<string> {
  const client = new GoogleGenAI({
    apiKey: ai.apiKey,
    // No retryOptions: the SDK then makes one attempt, and the panel's error text tells the user to try again.
    // v1beta pinned: the API version Gemini documents generateContent with systemInstruction on, whatever the
    // SDK's default becomes.
    httpOptions: { apiVersion: 'v1beta', timeout: ai.timeoutMs, ...(ai.baseUrl ? { baseUrl: ai.baseUrl } : {}) },
  });
  const res = await client.models.generateContent({
    model: ai.model ?? DEFAULT_MODELS.gemini,
    contents: req.messages.map((m) => ({ role: m.role, parts: [{ text: m.text }] })),
    config: { systemInstruction: req.system, abortSignal: req.signal },
  });
  const text = res.text;
  if (!text) throw new EmptyAnswerError();
  return text;
}

/** Any OpenAI-compatible endpoint (OpenAI, Ollama, vLLM, llama.cpp's server) through the official package. */
async function askOpenAi(ai: Ai, req: ProviderRequest): Promise<string> {
  const client = new OpenAI({
    baseURL: ai.baseUrl,
    // Local servers take no key, but the package refuses to start without one.
    apiKey: ai.apiKey ?? 'none',
    timeout: ai.timeoutMs,
    maxRetries: 0,
  });
  const res = await client.chat.completions.create(
    {
      model: ai.model ?? DEFAULT_MODELS.openai,
      messages: [
        { role: 'system', content: req.system },
        ...req.messages.map((m) => ({
          role: m.role === 'model' ? ('assistant' as const) : ('user' as const),
          content: m.text,
        })),
      ],
    },
    { signal: req.signal },
  );
  const text = res.choices[0]?.message?.content;
  if (!text) throw new EmptyAnswerError();
  return text;
}

/**
 * Asks the configured model. Rejects when the provider fails, answers nothing, or has not answered within
 * timeoutMs (the request is aborted then, and the race below stops waiting even if an SDK ignored the abort).
 */
export async function askProvider(ai: Ai, system: string, messages: ChatMessage[], gone: AbortSignal): Promise<string> {
  if (ai.provider === 'offline') throw new Error('the offline helper is not a provider');
  const controller = new AbortController();
  const signal = AbortSignal.any([controller.signal, gone]);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`no answer within ${ai.timeoutMs} ms`));
    }, ai.timeoutMs);
  });
  const ask = ai.provider === 'gemini' ? askGemini : askOpenAi;
  try {
    return await Promise.race([ask(ai, { system, messages, signal }), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
