import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorPage } from '../features/errors/components/error-page.tsx';

/** Last-resort page for an error thrown while rendering a route. */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error)) {
    return <ErrorPage code={error.status} title="Terjadi Kesalahan" message={error.statusText} />;
  }
  const message = error instanceof Error ? error.message : 'Terjadi kesalahan yang tidak terduga.';
  return <ErrorPage code={500} title="Terjadi Kesalahan" message={message} />;
}
