import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { FullPageSpinner } from '../components/ui/index.ts';
import { MaintenancePage } from '../features/errors/components/maintenance-page.tsx';
import { VerificationFailedPage } from '../features/errors/components/verification-failed-page.tsx';
import { RegistrationScreen } from '../features/registration/components/registration-screen.tsx';
import { AppShell } from '../features/shell/components/app-shell.tsx';
import { logout as endSession } from '../lib/logout.ts';
import { RegistrationCheckError, useProfileCheck } from '../lib/profile-query.ts';
import { useSession } from '../lib/session.ts';
import { ServerSocketProvider } from './socket-provider.tsx';

/** The layout around every signed-in route, deciding in the order of spec 2.2. */
export function GuardedLayout() {
  const { status, user, signedOutByUser } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const check = useProfileCheck();

  const logout = () => {
    endSession();
    void navigate('/', { replace: true });
  };

  if (status === 'restoring') return <FullPageSpinner />;
  // 1. Not signed in: to the login page, keeping the page for after sign-in (not after a deliberate logout).
  if (!user) {
    const origin = `${location.pathname}${location.search}`;
    return <Navigate to={signedOutByUser ? '/' : `/?redirect=${encodeURIComponent(origin)}`} replace />;
  }
  // 2. The registration check failed. A failed background refetch keeps the last good answer on screen.
  if (check.isError && !check.data) {
    const error = check.error;
    if (error instanceof RegistrationCheckError)
      return <VerificationFailedPage code={error.code} message={error.message} />;
    return <VerificationFailedPage code={500} message={error.message} />;
  }
  // 3. Still checking.
  if (check.isPending) return <FullPageSpinner />;
  const data = check.data;
  // 4. Maintenance, unless an admin (a maintenance answer carries no profile, so the session says who).
  const isAdmin = data.kind === 'registered' ? data.profile.isAdmin : user.isAdmin;
  if (data.kind === 'maintenance' || (data.settings.maintenance && !isAdmin))
    return <MaintenancePage onLogout={logout} />;
  // 5. Not registered yet.
  if (data.kind === 'unregistered') return <RegistrationScreen user={user} onLogout={logout} />;
  // 6. Registered: sidebar plus the page, with the live server socket.
  return (
    <ServerSocketProvider userId={user.id}>
      <AppShell profile={data.profile} settings={data.settings} onLogout={logout}>
        <Outlet />
      </AppShell>
    </ServerSocketProvider>
  );
}
