import { notFound } from '@inv/service-kit';
import type { DownloadDoc } from '../db/downloads';
import type { ExportDeps } from './deps';

/** GET /downloads/: the company's export files, newest first. */
export const listDownloads = (deps: ExportDeps, companyId: string): Promise<DownloadDoc[]> => deps.downloads.list(companyId);

/** GET /downloads/{id}/download: a presigned link that saves the ZIP under its name. */
export async function downloadLink(deps: ExportDeps, companyId: string, id: number) {
  const d = await deps.downloads.get(companyId, id);
  if (!d) throw notFound(`download ${id}`);
  const url = await deps.objects.presignGet(d.key, d.filename);
  return { url, filename: d.filename, expires_in: deps.presignTtlSeconds };
}

/** DELETE /downloads/{id}: the record goes, and the object with it. */
export async function deleteDownload(deps: ExportDeps, companyId: string, id: number) {
  const d = await deps.downloads.get(companyId, id);
  if (!d) throw notFound(`download ${id}`);
  await deps.objects.remove(d.key);
  await deps.downloads.remove(companyId, id);
}
