import type { CompanyId } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import type { ExportDeps } from '../support/deps';

/** GET /downloads/{id}/download: a presigned link that saves the ZIP under its name. */
export async function downloadLink(deps: ExportDeps, companyId: CompanyId, id: number) {
  const d = await deps.downloads.get(companyId, id);
  if (!d) throw notFound(`download ${id}`);
  const url = await deps.objects.presignGet(d.key, d.filename);
  return { url, filename: d.filename, expiresInSeconds: deps.presignTtlSeconds };
}
