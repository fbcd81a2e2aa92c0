import { setupGuideMessages } from '@canopy/contract';
import { Button, useToast } from '../../../components/ui/index.ts';
import { browserClipboard, copyText } from '../../../lib/copy-text.ts';

/**
 * A labelled value in a code block with a Copy button. `value` is undefined while the guide loads or after
 * it failed to; copying then says there is nothing to copy.
 */
export function CopyBlock({
  title,
  copyLabel,
  buttonLabel,
  copiedMessage,
  value,
  failed = false,
  testId,
}: {
  title: string;
  /** Names the value in 'No {label} to copy.'. */
  copyLabel: string;
  buttonLabel: string;
  /** The success toast, in the page's language. */
  copiedMessage: string;
  value: string | undefined;
  /** The guide could not be loaded: say so in the block rather than look like it is still loading. */
  failed?: boolean;
  testId: string;
}) {
  const toast = useToast();
  const copy = async () => {
    const outcome = await copyText(value, copyLabel, browserClipboard, copiedMessage);
    toast[outcome.type](outcome.message);
  };
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center justify-between gap-3">
        <h3 className="font-medium text-ink text-sm">{title}</h3>
        <Button size="sm" variant="secondary" data-testid={`${testId}-copy`} onClick={copy}>
          {buttonLabel}
        </Button>
      </div>
      <pre
        data-testid={testId}
        className="overflow-x-auto whitespace-pre rounded-md border border-line bg-canvas px-3 py-2 font-mono text-ink text-sm"
      >
        {value ?? (failed ? setupGuideMessages.fetchFailed : '…')}
      </pre>
    </div>
  );
}
