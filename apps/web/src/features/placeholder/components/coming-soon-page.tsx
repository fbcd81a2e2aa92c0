import type { WebRoute } from '@canopy/contract';

/** Stand-in for a page that a later issue builds: its label and 'Coming soon'. */
export function ComingSoonPage({ route }: { route: WebRoute }) {
  return (
    <section className="flex flex-col gap-2">
      <h1 className="font-bold text-2xl text-ink">{route.label}</h1>
      <p className="text-ink-muted">Coming soon</p>
    </section>
  );
}
