import { TOAST_EXIT_MS, TOAST_LIFETIME_MS, TOAST_MAX } from '@canopy/contract';
import {
  type CSSProperties,
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';

/** Kind of toast; decides colour and whether it is announced as an alert. */
export type ToastType = 'success' | 'error' | 'info';

/** What `useToast()` returns. */
export interface ToastApi {
  success(message: string): void;
  error(message: string): void;
  info(message: string): void;
}

interface ToastItem {
  id: number;
  type: ToastType;
  message: string;
  leaving: boolean;
}

const ToastContext = createContext<ToastApi | null>(null);

const styles: Record<ToastType, string> = {
  success: 'border-emerald-500/50 bg-emerald-950/95 text-emerald-100',
  error: 'border-red-500/50 bg-red-950/95 text-red-100',
  info: 'border-sky-500/50 bg-slate-900/95 text-sky-100',
};
const icons: Record<ToastType, string> = { success: '✓', error: '!', info: 'i' };

/** Holds the toast stack (top right, at most TOAST_MAX) and provides `useToast()` to its subtree. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>[]>());

  const forget = useCallback((id: number) => {
    for (const timer of timers.current.get(id) ?? []) clearTimeout(timer);
    timers.current.delete(id);
  }, []);

  const remove = useCallback(
    (id: number) => {
      forget(id);
      setToasts((list) => list.filter((t) => t.id !== id));
    },
    [forget],
  );

  /** Starts the exit animation, then removes the toast once it has played. */
  const dismiss = useCallback(
    (id: number) => {
      forget(id);
      setToasts((list) => list.map((t) => (t.id === id ? { ...t, leaving: true } : t)));
      timers.current.set(id, [setTimeout(() => remove(id), TOAST_EXIT_MS)]);
    },
    [forget, remove],
  );

  const push = useCallback(
    (type: ToastType, message: string) => {
      const id = nextId.current++;
      setToasts((list) => {
        const next = [...list, { id, type, message, leaving: false }];
        // Oldest go first when the stack is full; their timers must not fire later.
        const dropped = next.slice(0, Math.max(next.length - TOAST_MAX, 0));
        for (const t of dropped) forget(t.id);
        return next.slice(-TOAST_MAX);
      });
      timers.current.set(id, [setTimeout(() => dismiss(id), TOAST_LIFETIME_MS)]);
    },
    [dismiss, forget],
  );

  // Open <dialog>s live in the browser's top layer, above any z-index. The stack is a manual popover and is
  // shown again after each new toast, which puts it above whatever dialog is open at that moment.
  const stack = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = stack.current;
    if (!el?.showPopover || toasts.length === 0) return;
    if (el.matches(':popover-open')) el.hidePopover();
    el.showPopover();
  }, [toasts.length]);

  useEffect(() => {
    const all = timers.current;
    return () => {
      for (const list of all.values()) for (const timer of list) clearTimeout(timer);
      all.clear();
    };
  }, []);

  const api = useMemo<ToastApi>(
    () => ({
      success: (message) => push('success', message),
      error: (message) => push('error', message),
      info: (message) => push('info', message),
    }),
    [push],
  );

  return (
    <ToastContext.Provider value={api}>
      {children}
      <div
        ref={stack}
        popover="manual"
        // Below the phone's top bar (h-14), so its Menu button stays usable while toasts show; top right from md up.
        className="pointer-events-none fixed inset-auto top-16 right-4 z-50 m-0 flex w-80 max-w-[calc(100vw-2rem)] flex-col gap-2 overflow-visible border-0 bg-transparent p-0 md:top-4"
        style={{ '--toast-duration': `${TOAST_EXIT_MS}ms` } as CSSProperties}
      >
        {toasts.map((t) => (
          <div
            key={t.id}
            role={t.type === 'error' ? 'alert' : 'status'}
            data-toast-type={t.type}
            data-leaving={t.leaving || undefined}
            className={`pointer-events-auto rounded-lg border shadow-lg backdrop-blur ${styles[t.type]} ${t.leaving ? 'animate-toast-out' : 'animate-toast-in'}`}
          >
            <button
              type="button"
              onClick={() => dismiss(t.id)}
              className="flex w-full items-start gap-3 px-4 py-3 text-left text-sm"
            >
              <span aria-hidden="true" className="mt-px font-bold">
                {icons[t.type]}
              </span>
              <span className="flex-1">{t.message}</span>
              <span className="sr-only">Dismiss notification</span>
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

/** Shows toasts: `const toast = useToast(); toast.error('...')`. Must be inside a ToastProvider. */
export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast() must be used inside <ToastProvider>.');
  return api;
}
