import type { ReactNode } from 'react';
import { Link } from 'react-router';

export interface ErrorPageProps {
  /** The error code shown large (an HTTP status). */
  code: number | string;
  title: string;
  message: string;
  /** Extra controls under the links. */
  children?: ReactNode;
}

/** A full-page error with its code, title and message, linking to / and /feedback (spec 2.2). */
export function ErrorPage({ code, title, message, children }: ErrorPageProps) {
  return (
    <main className="flex min-h-screen items-center justify-center px-6 py-12">
      <div className="flex max-w-lg flex-col items-center gap-4 text-center">
        <p data-testid="error-code" className="font-bold text-7xl text-accent">
          {code}
        </p>
        <h1 className="font-bold text-2xl text-ink">{title}</h1>
        <p className="text-ink-muted">{message}</p>
        <nav className="mt-2 flex flex-wrap justify-center gap-3">
          <Link
            to="/"
            className="rounded-md bg-accent px-4 py-2 font-medium text-accent-ink text-sm hover:bg-accent-hover"
          >
            Kembali ke Beranda
          </Link>
          <Link
            to="/feedback"
            className="rounded-md border border-line bg-surface-raised px-4 py-2 font-medium text-ink text-sm hover:bg-slate-700"
          >
            Kirim Masukan
          </Link>
        </nav>
        {children}
      </div>
    </main>
  );
}
