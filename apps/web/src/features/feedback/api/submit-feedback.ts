import { type FeedbackRequest, feedbackMessages, feedbackResponseSchema } from '@canopy/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** POST /feedback {type, message}: the api's thank-you text, or its error ('Failed to submit feedback.' without one). */
export function submitFeedback(body: FeedbackRequest) {
  return api.post('/feedback', body, {
    schema: feedbackResponseSchema,
    defaultError: () => feedbackMessages.failed,
  });
}

/** Sending feedback as a mutation; the page adds its toasts and clears the form. */
export function useSubmitFeedback() {
  return useMutation({ mutationFn: submitFeedback });
}
