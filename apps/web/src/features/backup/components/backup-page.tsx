import type { WebRoute } from '@canopy/contract';
import { ComingSoonPage } from '../../placeholder/components/coming-soon-page.tsx';

/** Issue 9 builds this page. */
export function BackupPage({ route }: { route: WebRoute }) {
  return <ComingSoonPage route={route} />;
}
