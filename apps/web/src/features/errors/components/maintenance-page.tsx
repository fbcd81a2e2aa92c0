import { messages } from '@canopy/contract';
import { Button } from '../../../components/ui/index.ts';

/** Shown to non-admins while maintenance mode is on (spec 2.2 step 4). */
export function MaintenancePage({ onLogout }: { onLogout: () => void }) {
  return (
    <main className="flex min-h-screen items-center justify-center px-6 py-12">
      <div className="flex max-w-lg flex-col items-center gap-4 text-center">
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-16 fill-none stroke-amber-400 stroke-[1.5]">
          <path d="M14.7 6.3a4 4 0 0 0-5.4 5.4L3 18l3 3 6.3-6.3a4 4 0 0 0 5.4-5.4l-2.5 2.5-2.4-.6-.6-2.4 2.5-2.5Z" />
        </svg>
        <h1 className="font-bold text-3xl text-ink">Under Maintenance</h1>
        <p className="text-ink-muted">{messages.maintenance}</p>
        <Button variant="secondary" onClick={onLogout}>
          Logout
        </Button>
      </div>
    </main>
  );
}
