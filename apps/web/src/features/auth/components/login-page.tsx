import { messages } from '@canopy/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { FullPageSpinner } from '../../../components/ui/index.ts';
import { session, useSession } from '../../../lib/session.ts';
import { useAuthConfig } from '../api/get-auth-config.ts';
import { useLogin } from '../api/login.ts';
import { loginErrorText as loginFailed } from '../login-error.ts';
import { newLoginState, rememberLoginState, takeLoginState } from '../login-state.ts';
import { buildAuthorizeUrl, readAuthFragment, safeRedirectTarget } from '../login-url.ts';
import { InsecureConnectionNote } from './insecure-connection-note.tsx';
import { LoginErrorBox } from './login-error-box.tsx';
import { LoginHighlights } from './login-highlights.tsx';

// The OAuth round trip returns to the bare origin, so the page to go back to waits here meanwhile.
const REDIRECT_KEY = 'canopy.login-redirect';

/** The public login page at '/' (spec 2.3); signed-in users go on to the kept page or /dashboard. */
export function LoginPage() {
  const { status, user, storageError } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const config = useAuthConfig();
  const login = useLogin();
  const [error, setError] = useState<string | null>(null);
  const [returnTo, setReturnTo] = useState<string | null>(null);
  // One state per page load; the click that starts the sign-in keeps it for the return (login-state.ts).
  const [loginState] = useState(() => newLoginState((b) => window.crypto.getRandomValues(b)));
  const handled = useRef(false);
  const redirectParam = safeRedirectTarget(new URLSearchParams(location.search).get('redirect'));

  // Return handling runs once per page load (refs survive StrictMode's double effect).
  useEffect(() => {
    if (handled.current) return;
    handled.current = true;
    const fragment = readAuthFragment(window.location.hash);
    // With neither token nor error, the auth provider's restore of the stored session applies.
    if (fragment.kind === 'none') return;
    navigate({ pathname: location.pathname, search: location.search, hash: '' }, { replace: true });
    // A return this tab did not start (a crafted link carrying someone else's token, login CSRF) changes
    // nothing: no sign-in, and whoever is signed in stays signed in. Its error text is not shown either.
    if (!takeLoginState(sessionStorage, fragment.state)) {
      sessionStorage.removeItem(REDIRECT_KEY);
      setError(loginFailed(messages.loginStateMismatch));
      return;
    }
    if (fragment.kind === 'error') {
      session.signOut(false);
      setError(loginFailed(fragment.description));
      return;
    }
    setReturnTo(safeRedirectTarget(sessionStorage.getItem(REDIRECT_KEY)));
    sessionStorage.removeItem(REDIRECT_KEY);
    login.mutate(fragment.accessToken, {
      onError: (e) => {
        session.signOut(false);
        setError(loginFailed(e.message));
      },
    });
  }, [navigate, location.pathname, location.search, login.mutate]);

  useEffect(() => {
    if (!storageError) return;
    setError(loginFailed(storageError));
    session.clearStorageError();
  }, [storageError]);

  const dismiss = useCallback(() => setError(null), []);

  if (login.isPending) return <FullPageSpinner label="Signing in" />;
  // Avoids flashing the login page at someone whose stored session is still being read.
  if (status === 'restoring') return <FullPageSpinner />;
  if (status === 'ready' && user) return <Navigate to={redirectParam ?? returnTo ?? '/dashboard'} replace />;

  const authorizeUrl = config.data ? buildAuthorizeUrl(config.data, window.location.origin, loginState) : null;
  const startSignIn = () => {
    rememberLoginState(sessionStorage, loginState);
    if (redirectParam) sessionStorage.setItem(REDIRECT_KEY, redirectParam);
    else sessionStorage.removeItem(REDIRECT_KEY);
  };

  return (
    <main className="mx-auto flex min-h-screen max-w-5xl flex-col justify-center gap-10 px-6 py-12">
      <header className="flex flex-col gap-4">
        <p className="font-semibold text-accent text-sm uppercase tracking-widest">Canopy</p>
        <h1 className="font-bold text-4xl text-ink sm:text-5xl">Host your own Growtopia private server</h1>
        <p className="max-w-2xl text-ink-muted text-lg">
          Create a server in seconds, manage worlds, players and backups, and watch the console live, all from one
          control panel.
        </p>
      </header>

      <LoginHighlights />

      <div className="flex max-w-md flex-col gap-4">
        <InsecureConnectionNote />
        <LoginErrorBox message={error} onDismiss={dismiss} />
        {authorizeUrl ? (
          <a
            href={authorizeUrl}
            onClick={startSignIn}
            className="inline-flex items-center justify-center gap-2 rounded-md bg-[#5865F2] px-5 py-3 font-semibold text-white hover:bg-[#4752c4]"
          >
            <DiscordIcon />
            Login with Discord
          </a>
        ) : (
          <span
            aria-disabled="true"
            className="inline-flex cursor-not-allowed items-center justify-center gap-2 rounded-md bg-[#5865F2]/50 px-5 py-3 font-semibold text-white/70"
          >
            <DiscordIcon />
            Login with Discord
          </span>
        )}
        {config.isError && <p className="text-red-400 text-sm">{config.error.message}</p>}
        {config.data?.devProvider && (
          <p className="text-ink-muted text-xs">Development sign-in: no Discord application is configured.</p>
        )}
      </div>
    </main>
  );
}

function DiscordIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5 fill-current">
      <path d="M20.3 4.4A19.8 19.8 0 0 0 15.4 3l-.6 1.3a18.4 18.4 0 0 0-5.6 0L8.6 3a19.7 19.7 0 0 0-4.9 1.5C.6 9.1-.3 13.6.1 18.1a19.9 19.9 0 0 0 6 3l1.3-2.1c-.7-.3-1.4-.6-2-1l.5-.4a14.2 14.2 0 0 0 12.2 0l.5.4c-.6.4-1.3.7-2 1l1.3 2.1a19.8 19.8 0 0 0 6-3c.5-5.2-.8-9.7-3.6-13.7ZM8 15.3c-1.2 0-2.2-1.1-2.2-2.4S6.8 10.4 8 10.4s2.2 1.1 2.2 2.5-1 2.4-2.2 2.4Zm8 0c-1.2 0-2.2-1.1-2.2-2.4s1-2.5 2.2-2.5 2.2 1.1 2.2 2.5-1 2.4-2.2 2.4Z" />
    </svg>
  );
}
