import { adminContentMessages, adminContentLabels as labels } from '@canopy/contract';
import { Button, useToast } from '../../../components/ui/index.ts';
// The web app's one clipboard path, with its fallback outside secure contexts.
import { browserClipboard, copyText } from '../../../lib/copy-text.ts';

/** Copies a code's text, toasting the outcome. */
export function CopyCodeButton({ code }: { code: string }) {
  const toast = useToast();
  const copy = async () => {
    const outcome = await copyText(code, 'code', browserClipboard, adminContentMessages.codeCopied(code));
    toast[outcome.type](outcome.message);
  };
  return (
    <Button size="sm" variant="ghost" aria-label={labels.copyCode(code)} title={labels.copyCode(code)} onClick={copy}>
      {labels.copy}
    </Button>
  );
}
