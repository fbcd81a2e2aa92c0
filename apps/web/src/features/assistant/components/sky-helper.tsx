import { ASSISTANT_MESSAGE_MAX, type ChatMessage, assistantMessages as m } from '@canopy/contract';
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { useToast } from '../../../components/ui/index.ts';
import { useProfileCheck } from '../../../lib/profile-query.ts';
import { session } from '../../../lib/session.ts';
import { useSendChat } from '../api/send-chat.ts';
import { clearHistories, readHistory, requestHistory, writeHistory } from '../history.ts';
import { ChatBubble, ChatIcon, TypingIndicator } from './chat-bubble.tsx';

const storage = () => globalThis.sessionStorage;

/**
 * SkyHelper, the floating AI assistant on every signed-in page (spec 2.13): a small button at the bottom
 * right that opens a chat window. The conversation is kept for the browser session, per user.
 */
export function SkyHelper() {
  const { data } = useProfileCheck();
  // Only a registered user has it (the layout shows it with the sidebar; this guards a state change). Keyed
  // by user: another account signed in in this tab starts from its own history, never the previous one's.
  return data?.kind === 'registered' ? <SkyHelperChat key={data.profile.id} userId={data.profile.id} /> : null;
}

function SkyHelperChat({ userId }: { userId: string }) {
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState('');
  const [messages, setMessages] = useState<ChatMessage[]>(() => readHistory(storage(), userId));
  const send = useSendChat();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const endRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    writeHistory(storage(), userId, messages);
  }, [userId, messages]);
  // Logout clears the chats before this component is gone, so the next person at the browser cannot read them.
  useEffect(() => {
    const unsubscribe = session.subscribe(() => {
      if (!session.getState().user) clearHistories(storage());
    });
    return () => {
      unsubscribe();
    };
  }, []);
  useEffect(() => {
    if (open) inputRef.current?.focus();
  }, [open]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scrolls whenever a message or the typing line appears
  useEffect(() => {
    endRef.current?.scrollIntoView?.({ block: 'end' });
  }, [messages, send.isPending, open]);

  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const question = draft.trim();
    if (!question || send.isPending) return;
    const history = requestHistory(messages);
    setMessages((list) => [...list, { role: 'user', text: question }]);
    setDraft('');
    send.mutate(
      { history, message: question },
      {
        onSuccess: (answer) => setMessages((list) => [...list, answer.message]),
        onError: (error) => {
          toast.error(error.message || m.failed);
          setMessages((list) => [...list, { role: 'model', text: m.errorLine }]);
        },
      },
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends, Shift+Enter is a new line; an IME composing text keeps its Enter.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
  };

  return (
    <>
      {/* Below md the phone menu (z-30) opens over the chat, and the window stays under the top bar. */}
      {open && (
        <section
          role="dialog"
          aria-labelledby="skyhelper-title"
          data-testid="skyhelper-window"
          onKeyDown={(event) => event.key === 'Escape' && close()}
          className="fixed right-3 bottom-18 z-20 flex h-[min(32rem,calc(100dvh-9rem))] w-[min(24rem,calc(100vw-1.5rem))] flex-col md:z-40 md:h-[min(32rem,calc(100dvh-6rem))] overflow-hidden rounded-xl border border-line bg-surface shadow-2xl"
        >
          <header className="flex items-center justify-between border-line border-b px-4 py-2.5">
            <h2 id="skyhelper-title" className="font-semibold text-ink">
              {m.title}
            </h2>
            <div className="flex items-center gap-1">
              {messages.length > 0 && (
                <button
                  type="button"
                  onClick={() => setMessages([])}
                  disabled={send.isPending}
                  className="rounded px-2 py-1 text-ink-muted text-xs hover:bg-surface-raised hover:text-ink disabled:opacity-40"
                >
                  {m.clear}
                </button>
              )}
              <button
                type="button"
                onClick={close}
                aria-label={m.close}
                className="rounded px-2 py-1 text-ink-muted hover:bg-surface-raised hover:text-ink"
              >
                ✕
              </button>
            </div>
          </header>
          <div role="log" aria-live="polite" className="flex flex-1 flex-col gap-2 overflow-y-auto px-3 py-3">
            <p className="text-ink-muted text-sm">{m.greeting}</p>
            {messages.map((message, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the list only grows at its end (or is cleared)
              <ChatBubble key={i} message={message} />
            ))}
            {send.isPending && <TypingIndicator />}
            <div ref={endRef} />
          </div>
          <form onSubmit={submit} className="flex items-end gap-2 border-line border-t p-3">
            <textarea
              ref={inputRef}
              value={draft}
              onChange={(event) => setDraft(event.target.value)}
              onKeyDown={onKeyDown}
              rows={2}
              maxLength={ASSISTANT_MESSAGE_MAX}
              aria-label={m.placeholder}
              placeholder={m.placeholder}
              className="min-h-10 flex-1 resize-none rounded-md border border-line bg-canvas px-3 py-2 text-ink text-sm placeholder:text-slate-500 focus:border-accent"
            />
            <button
              type="submit"
              disabled={!draft.trim() || send.isPending}
              className="rounded-md bg-accent px-3 py-2 font-medium text-accent-ink text-sm hover:bg-accent-hover disabled:cursor-not-allowed disabled:opacity-40"
            >
              {m.send}
            </button>
          </form>
        </section>
      )}
      <button
        ref={buttonRef}
        type="button"
        onClick={() => (open ? close() : setOpen(true))}
        aria-label={open ? m.close : m.open}
        aria-expanded={open}
        title={m.title}
        data-testid="skyhelper-button"
        className="fixed right-3 bottom-3 z-20 flex h-12 w-12 items-center justify-center rounded-full bg-accent text-accent-ink text-xl shadow-lg hover:bg-accent-hover md:z-40"
      >
        {open ? <span aria-hidden="true">✕</span> : <ChatIcon />}
      </button>
    </>
  );
}
