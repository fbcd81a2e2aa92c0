import {
  FEEDBACK_MESSAGE_MAX,
  FEEDBACK_TYPES,
  type FeedbackRequest,
  feedbackMessages as f,
  feedbackRequestSchema,
} from '@canopy/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { Banner, Button, Card, useToast } from '../../../components/ui/index.ts';
import { useRegisteredProfile } from '../../../lib/profile-query.ts';
import { useSubmitFeedback } from '../api/submit-feedback.ts';

const emptyForm: FeedbackRequest = { type: 'Suggestion', message: '' };

/**
 * The Feedback page (/feedback, spec 2.12): a type and a message, sent to the admins. Banned users may open
 * it (spec 2.5) but not send; the api refuses them as well.
 */
export function FeedbackPage() {
  const { profile } = useRegisteredProfile();
  const toast = useToast();
  const submit = useSubmitFeedback();
  const form = useForm<FeedbackRequest>({ resolver: zodResolver(feedbackRequestSchema), defaultValues: emptyForm });
  const ids = { type: useId(), message: useId() };
  // What will be sent: the schema trims the message, so spaces around it do not count towards the limit.
  const length = form.watch('message').trim().length;
  const error = form.formState.errors.message?.message ?? form.formState.errors.type?.message;
  const banned = profile.isBanned;

  const onSubmit = form.handleSubmit((request) => {
    submit.mutate(request, {
      onSuccess: (answer) => {
        toast.success(answer.message);
        form.reset(emptyForm);
      },
      onError: (failure) => toast.error(failure.message),
    });
  });

  return (
    <section className="flex max-w-3xl flex-col gap-6">
      <header>
        <h1 className="font-bold text-2xl text-ink">{f.title}</h1>
        <p className="mt-1 text-ink-muted">{f.intro}</p>
      </header>
      {banned && (
        <Banner tone="danger" data-testid="feedback-banned">
          {f.banned}
        </Banner>
      )}
      <Card>
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
          <div className="flex flex-col gap-1.5">
            <label htmlFor={ids.type} className="font-medium text-ink text-sm">
              {f.typeLabel}
            </label>
            <select
              id={ids.type}
              disabled={banned}
              className="rounded-md border border-line bg-canvas px-3 py-2 text-ink text-sm focus:border-accent disabled:opacity-50"
              {...form.register('type')}
            >
              {FEEDBACK_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </select>
          </div>
          <div className="flex flex-col gap-1.5">
            <label htmlFor={ids.message} className="font-medium text-ink text-sm">
              {f.messageLabel}
            </label>
            <textarea
              id={ids.message}
              rows={7}
              disabled={banned}
              placeholder={f.placeholder}
              aria-invalid={error ? true : undefined}
              aria-describedby={`${ids.message}-note`}
              className="resize-y rounded-md border border-line bg-canvas px-3 py-2 text-ink text-sm placeholder:text-slate-500 focus:border-accent disabled:opacity-50 aria-invalid:border-red-500"
              {...form.register('message')}
            />
            <div id={`${ids.message}-note`} className="flex justify-between gap-3 text-xs">
              <span data-testid="feedback-error" className="text-red-400">
                {error}
              </span>
              <span
                data-testid="feedback-counter"
                className={length > FEEDBACK_MESSAGE_MAX ? 'text-red-400' : 'text-ink-muted'}
              >
                {length}/{FEEDBACK_MESSAGE_MAX}
              </span>
            </div>
          </div>
          <div>
            <Button
              type="submit"
              data-testid="feedback-submit"
              disabled={banned}
              loading={submit.isPending}
              title={banned ? f.banned : undefined}
            >
              {f.submit}
            </Button>
          </div>
        </form>
      </Card>
    </section>
  );
}
