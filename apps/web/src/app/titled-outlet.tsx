import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { documentTitle } from './document-title.ts';

/** The root of the router: keeps the tab title in step with the page shown. */
export function TitledOutlet() {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = documentTitle(pathname);
  }, [pathname]);
  return <Outlet />;
}
