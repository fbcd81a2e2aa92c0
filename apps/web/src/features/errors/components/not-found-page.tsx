import { ErrorPage } from './error-page.tsx';

/** The page for any unknown path (spec 2.1): code 404 with an Indonesian title and message. */
export function NotFoundPage() {
  return (
    <ErrorPage
      code={404}
      title="Halaman Tidak Ditemukan"
      message="Maaf, halaman yang Anda cari tidak ada atau telah dipindahkan."
    />
  );
}
