import { webRoutes } from '@canopy/contract';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { LoginPage } from '../features/auth/components/login-page.tsx';
import { NotFoundPage } from '../features/errors/components/not-found-page.tsx';
import { GuardedLayout } from './guarded-layout.tsx';
import { RouteError } from './route-error.tsx';
import { RouteGate } from './route-gate.tsx';
import { pageFor } from './route-pages.tsx';
import { TitledOutlet } from './titled-outlet.tsx';

/** The route objects: '/', every guarded route of the contract's table, and the 404 page. */
export function buildRoutes(): RouteObject[] {
  return [
    {
      element: <TitledOutlet />,
      errorElement: <RouteError />,
      children: [
        { path: '/', element: <LoginPage /> },
        {
          element: <GuardedLayout />,
          children: webRoutes.map((route) => {
            const Page = pageFor(route);
            return {
              path: route.path,
              element: (
                <RouteGate route={route}>
                  <Page route={route} />
                </RouteGate>
              ),
            };
          }),
        },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ];
}

/** The app's browser router. */
export const router = createBrowserRouter(buildRoutes());
