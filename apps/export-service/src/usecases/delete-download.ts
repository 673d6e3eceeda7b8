import type { CompanyId } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import type { ExportDeps } from '../support/deps';

/** DELETE /downloads/{id}: the record goes, and the object with it. */
export async function deleteDownload(deps: ExportDeps, companyId: CompanyId, id: number) {
  const d = await deps.downloads.get(companyId, id);
  if (!d) throw notFound(`download ${id}`);
  await deps.objects.remove(d.key);
  await deps.downloads.remove(companyId, id);
}
