import { RouterProvider } from 'react-router';
import { AppProviders } from './providers.tsx';
import { router } from './router.tsx';

/** The whole web app. */
export function App() {
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
