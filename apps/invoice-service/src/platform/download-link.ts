/** A short-lived (presigned) download link, as use cases answer it; http/presenters.ts presentLink shows it. */
export interface DownloadLink {
  url: string;
  filename: string;
  contentType?: string;
  expiresIn: number;
}
