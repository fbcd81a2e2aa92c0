import { CONSOLE_COMMAND_MAX } from '@canopy/contract';
import { useForm } from 'react-hook-form';
import { Button } from '../../../components/ui/index.ts';
import { commandToSend } from '../console-access.ts';

export interface CommandFormProps {
  /** False while the socket is not open or the console is unavailable. */
  enabled: boolean;
  /** The placeholder while disabled: why nothing can be typed. */
  disabledHint: string;
  /** Sends the command; false when it could not be sent (the input then keeps the text). */
  onSend: (command: string) => boolean;
}

/** The command line: Enter or Send sends the trimmed command and clears the input. */
export function CommandForm({ enabled, disabledHint, onSend }: CommandFormProps) {
  const form = useForm<{ command: string }>({ defaultValues: { command: '' } });
  const command = commandToSend(form.watch('command'));
  return (
    <form
      className="flex gap-2"
      onSubmit={form.handleSubmit(({ command: raw }) => {
        const valid = commandToSend(raw);
        if (enabled && valid && onSend(valid)) form.reset();
      })}
    >
      <label htmlFor="console-command" className="sr-only">
        Console command
      </label>
      <input
        id="console-command"
        data-testid="console-input"
        autoComplete="off"
        spellCheck={false}
        maxLength={CONSOLE_COMMAND_MAX}
        disabled={!enabled}
        placeholder={enabled ? 'Type a command, e.g. help' : disabledHint}
        className="min-w-0 flex-1 rounded-md border border-line bg-canvas px-3 py-2 font-mono text-ink text-sm placeholder:text-slate-500 focus:border-accent disabled:opacity-50"
        {...form.register('command')}
      />
      <Button type="submit" data-testid="console-send" disabled={!enabled || !command}>
        Send
      </Button>
    </form>
  );
}
