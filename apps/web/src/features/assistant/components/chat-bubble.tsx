import { assistantMessages, type ChatMessage } from '@canopy/contract';

/** One message: the user's on the right in the accent colour, SkyHelper's on the left. */
export function ChatBubble({ message }: { message: ChatMessage }) {
  const mine = message.role === 'user';
  return (
    <div
      data-testid="skyhelper-message"
      data-role={message.role}
      className={`max-w-[85%] whitespace-pre-wrap break-words rounded-lg px-3 py-2 text-sm ${
        mine ? 'self-end bg-accent text-accent-ink' : 'self-start bg-surface-raised text-ink'
      }`}
    >
      <span className="sr-only">{mine ? 'You: ' : `${assistantMessages.title}: `}</span>
      <span>{message.text}</span>
    </div>
  );
}

/** Shown while SkyHelper is answering. */
export function TypingIndicator() {
  return (
    <div
      role="status"
      data-testid="skyhelper-typing"
      className="flex items-center gap-1 self-start rounded-lg bg-surface-raised px-3 py-2"
    >
      <span className="sr-only">{assistantMessages.typing}</span>
      {[0, 150, 300].map((delay) => (
        <span
          key={delay}
          aria-hidden="true"
          className="h-1.5 w-1.5 animate-bounce rounded-full bg-ink-muted"
          style={{ animationDelay: `${delay}ms` }}
        />
      ))}
    </div>
  );
}

/**
 * The floating button's speech bubble, drawn rather than an emoji: a browser without an emoji font (many
 * Linux desktops) would show an empty box.
 */
export function ChatIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6 fill-none stroke-current stroke-2">
      <path strokeLinejoin="round" d="M4 5h16v11H9l-5 4V5Z" />
      <path strokeLinecap="round" d="M8 9.5h8M8 12.5h5" />
    </svg>
  );
}
