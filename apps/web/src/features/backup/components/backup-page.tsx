import { backupMessages as b } from '@canopy/contract';
import { Link } from 'react-router';
import { Card } from '../../../components/ui/index.ts';
import { useRegisteredProfile } from '../../../lib/profile-query.ts';
import { backupPageBlock } from '../backup-access.ts';
import { BackupPanel } from './backup-panel.tsx';

/** The Backup Manager (/backup): the account's one database backup, created, restored or deleted. */
export function BackupPage() {
  const { profile, settings } = useRegisteredProfile();
  const blocked = backupPageBlock(profile, settings);
  return (
    <section className="flex flex-col gap-6">
      <header>
        <h1 className="font-bold text-2xl text-ink">{b.title}</h1>
        <p className="mt-1 text-ink-muted">Keep a copy of your server database and bring it back when you need it.</p>
      </header>
      {blocked?.kind === 'no-server' ? (
        <Card data-testid="backup-state" data-state="no-server" className="py-10 text-center">
          <div className="flex flex-col items-center gap-3">
            <h2 className="font-semibold text-ink text-xl">{b.noServer}</h2>
            <p className="max-w-md text-ink-muted">{blocked.message}</p>
            <Link
              to="/dashboard"
              className="rounded-md bg-accent px-4 py-2 font-medium text-accent-ink text-sm hover:bg-accent-hover"
            >
              {b.goToDashboard}
            </Link>
          </div>
        </Card>
      ) : blocked ? (
        <Card data-testid="backup-state" data-state={blocked.kind} className="py-10 text-center">
          <p data-testid="backup-blocked" className="text-ink">
            {blocked.message}
          </p>
        </Card>
      ) : (
        <BackupPanel userId={profile.id} />
      )}
      <aside
        data-testid="backup-tip"
        className="rounded-xl border border-accent/30 bg-accent/10 p-4 text-ink text-sm leading-relaxed"
      >
        <span className="font-semibold">Tip: </span>
        {b.tip}
      </aside>
    </section>
  );
}
