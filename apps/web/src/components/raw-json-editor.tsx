import { useId } from 'react';

export interface RawJsonEditorProps {
  value: string;
  error: string | null;
  onChange: (text: string) => void;
  disabled?: boolean;
}

/** The Raw JSON tab of a document editor: a monospace textarea and the parse error under it. */
export function RawJsonEditor({ value, error, onChange, disabled = false }: RawJsonEditorProps) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="font-medium text-ink text-sm">
        Raw JSON
      </label>
      <textarea
        id={id}
        data-testid="raw-json"
        value={value}
        spellCheck={false}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
        className="h-96 w-full resize-y rounded-md border border-line bg-canvas p-3 font-mono text-ink text-xs leading-relaxed focus:border-accent disabled:opacity-50 aria-invalid:border-red-500"
      />
      {error && (
        <p id={`${id}-error`} data-testid="raw-json-error" role="alert" className="text-red-400 text-xs">
          {error}
        </p>
      )}
    </div>
  );
}
