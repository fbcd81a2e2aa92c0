const highlights = [
  {
    title: 'Instant Server Setup',
    // A new server starts OFFLINE (the owner presses Start), so the text promises creation, not a running server.
    text: 'Pick a name and your private server is created for you, ready to start with one click. No hosting knowledge needed.',
  },
  {
    title: 'Full Control Panel',
    text: 'Manage worlds, players, backups, collaborators and configuration from one dashboard.',
  },
  {
    title: 'Real-time Console',
    text: 'Follow the server log as it happens and send commands straight from the browser.',
  },
] as const;

/** The three marketing highlights of the login page (spec 2.3). */
export function LoginHighlights() {
  return (
    <ul className="grid gap-4 sm:grid-cols-3">
      {highlights.map((h) => (
        <li key={h.title} className="rounded-xl border border-line bg-surface p-5">
          <h2 className="font-semibold text-ink">{h.title}</h2>
          <p className="mt-2 text-ink-muted text-sm">{h.text}</p>
        </li>
      ))}
    </ul>
  );
}
