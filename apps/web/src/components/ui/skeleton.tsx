const bar = 'h-4 animate-pulse rounded bg-surface-raised motion-reduce:animate-none';

export interface SkeletonProps {
  rows?: number;
  columns?: number;
}

/** Placeholder rows of pulsing bars, announced once as 'Loading'. */
export function SkeletonRows({ rows = 3, columns = 1 }: SkeletonProps) {
  return (
    <div role="status" aria-label="Loading" aria-busy="true" className="flex flex-col gap-3">
      {Array.from({ length: rows }, (_, r) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders, never reordered
        <div key={r} className="flex gap-3" aria-hidden="true">
          {Array.from({ length: columns }, (_, c) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders, never reordered
            <div key={c} className={`${bar} flex-1`} />
          ))}
        </div>
      ))}
    </div>
  );
}

/** Placeholder <tr> rows to render inside a <tbody> while data loads; mark the table aria-busy meanwhile. */
export function SkeletonTableRows({ rows = 5, columns = 3 }: SkeletonProps) {
  return (
    <>
      {Array.from({ length: rows }, (_, r) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders, never reordered
        <tr key={r} data-skeleton="">
          {Array.from({ length: columns }, (_, c) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders, never reordered
            <td key={c} className="px-3 py-3">
              <div aria-hidden="true" className={bar} />
            </td>
          ))}
        </tr>
      ))}
    </>
  );
}
