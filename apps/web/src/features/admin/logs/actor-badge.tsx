import type { ActorType } from '@canopy/contract';

const tones: Record<ActorType, string> = {
  Admin: 'bg-amber-500/15 text-amber-300 ring-amber-500/40',
  User: 'bg-sky-500/15 text-sky-300 ring-sky-500/40',
  System: 'bg-slate-500/15 text-slate-300 ring-slate-500/40',
};

/** Who acted on an activity log entry: the actor type as a badge, then the actor's name. */
export function ActorCell({ type, name }: { type: ActorType; name: string }) {
  return (
    <span className="inline-flex items-center gap-2 whitespace-nowrap">
      <span
        data-actor-type={type}
        className={`rounded-full px-2 py-0.5 font-semibold text-xs ring-1 ring-inset ${tones[type]}`}
      >
        {type}
      </span>
      <span className="text-ink">{name}</span>
    </span>
  );
}
