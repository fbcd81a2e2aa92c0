import { useState } from 'react';
import { Button, Card } from '../../../components/ui/index.ts';
import type { AccountCardProps } from '../card-props.ts';
import { createControl } from '../server-controls.ts';
import { CreateServerDialog } from './create-server-dialog.tsx';

/**
 * The card shown without a server: an invitation and the Create Server button with its rules (once the time ran
 * out, a new server would be deleted with it).
 */
export function NoServerCard({ profile, settings, timeRanOut }: AccountCardProps) {
  const [open, setOpen] = useState(false);
  const control = createControl(profile, settings, timeRanOut);
  return (
    <Card heading="Server" data-testid="no-server-card">
      <div className="flex flex-col items-start gap-4">
        <div>
          <p className="font-medium text-ink">You do not have a server yet.</p>
          <p className="mt-1 text-ink-muted text-sm">
            Create one to host your own world. Available slots:{' '}
            <span data-testid="available-slots" className="font-medium text-ink">
              {profile.availableSlot}
            </span>
          </p>
        </div>
        <Button
          data-testid="server-create"
          disabled={!control.enabled}
          title={control.reason ?? undefined}
          onClick={() => setOpen(true)}
        >
          Create Server
        </Button>
        {control.reason && <p className="text-ink-muted text-xs">{control.reason}</p>}
      </div>
      <CreateServerDialog open={open} userId={profile.id} onClose={() => setOpen(false)} />
    </Card>
  );
}
