import { ErrorPage } from './error-page.tsx';

/** Title of the failed registration check page (spec 2.2). */
export const VERIFICATION_FAILED_TITLE = 'Verifikasi Gagal';

/** The registration check failed: shows its code and Indonesian message. */
export function VerificationFailedPage({ code, message }: { code: number; message: string }) {
  return <ErrorPage code={code} title={VERIFICATION_FAILED_TITLE} message={message} />;
}
