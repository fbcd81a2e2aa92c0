import type { ActorType } from '@canopy/contract';
import { Badge, type BadgeTone } from '../../../components/ui/index.ts';

const tones: Record<ActorType, BadgeTone> = { Admin: 'warning', User: 'info', System: 'neutral' };

/** Who acted on an activity log entry: the actor type as a badge, then the actor's name. */
export function ActorCell({ type, name }: { type: ActorType; name: string }) {
  return (
    <span className="inline-flex items-center gap-2 whitespace-nowrap">
      <Badge tone={tones[type]} data-actor-type={type}>
        {type}
      </Badge>
      <span className="text-ink">{name}</span>
    </span>
  );
}
