import { adminPanelMessages, BAN_REASON_MAX, adminServerLabels as l } from '@canopy/contract';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { Button, Input, Modal, useToast } from '../../../components/ui/index.ts';
import { reloadAfterAdminWrite } from '../api/admin-mutation.ts';
import { bannedServersKey, postBannedServer } from '../bans/api/banned-servers-api.ts';
import { deleteServer, serversListKey } from './api/servers-api.ts';
import { deleteFormError, deleteServerWithBan } from './delete-server.ts';

export interface DeleteServerDialogProps {
  /** The server to delete; null keeps the dialog closed. */
  name: string | null;
  /** Whether the admin may ban names (bans:manage): without it the ban choice is not offered. */
  canBan: boolean;
  onClose: () => void;
}

interface DeleteForm {
  ban: boolean;
  reason: string;
}

/**
 * Confirms the deletion of a server, optionally banning its name with a reason (admin document, sections 2
 * and 4). The reason is required only with the ban ticked; the order of the two calls is deleteServerWithBan's.
 */
export function DeleteServerDialog({ name, canBan, onClose }: DeleteServerDialogProps) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const form = useForm<DeleteForm>({ defaultValues: { ban: false, reason: '' } });
  // isSubmitting covers validation too, so the buttons lock from the first click; the ref also stops a second
  // submit (Enter, a double click) that lands before React re-renders them disabled.
  const busy = form.formState.isSubmitting;
  const sending = useRef(false);
  const ban = form.watch('ban');

  const close = () => {
    if (busy) return;
    form.reset();
    onClose();
  };
  const submit = form.handleSubmit(async (values) => {
    if (!name) return;
    const outcome = await deleteServerWithBan(
      { name, ban: canBan && values.ban, reason: values.reason },
      {
        deleteServer,
        banName: (serverName, reason) => postBannedServer({ serverName, reason }, adminPanelMessages.banServerName),
      },
    );
    for (const item of outcome.toasts) toast[item.type](item.text);
    await reloadAfterAdminWrite(queryClient, [serversListKey, bannedServersKey]);
    if (outcome.deleted) {
      form.reset();
      onClose();
    }
  });

  const submitOnce = async (event: FormEvent) => {
    event.preventDefault();
    if (sending.current) return;
    sending.current = true;
    try {
      await submit(event);
    } finally {
      sending.current = false;
    }
  };

  return (
    <Modal
      open={name !== null}
      title={l.deleteTitle}
      onClose={close}
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={busy}>
            {l.cancel}
          </Button>
          <Button variant="danger" type="submit" form="admin-delete-server" loading={busy}>
            {l.delete}
          </Button>
        </>
      }
    >
      <form
        id="admin-delete-server"
        noValidate
        onSubmit={(event) => void submitOnce(event)}
        className="flex flex-col gap-4"
      >
        <p className="text-ink-muted">{l.deleteConfirm(name ?? '')}</p>
        {canBan && (
          <label className="flex items-start gap-2.5 text-ink">
            <input type="checkbox" className="mt-0.5 size-4 accent-accent" {...form.register('ban')} />
            <span className="flex flex-col">
              <span className="font-medium">{l.alsoBan}</span>
              <span className="text-ink-muted text-xs">{l.alsoBanHint}</span>
            </span>
          </label>
        )}
        {canBan && ban && (
          <Input
            label={l.banReason}
            placeholder={l.banReasonPlaceholder}
            maxLength={BAN_REASON_MAX}
            autoComplete="off"
            error={form.formState.errors.reason?.message}
            {...form.register('reason', {
              validate: (reason, values) => deleteFormError({ ban: values.ban, reason }) ?? true,
            })}
          />
        )}
      </form>
    </Modal>
  );
}
