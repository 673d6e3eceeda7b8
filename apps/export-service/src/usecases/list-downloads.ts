import type { CompanyId } from '@inv/contracts';
import type { DownloadDoc } from '../db/downloads';
import type { ExportDeps } from '../support/deps';

/** GET /downloads/: the company's export files, newest first. */
export const listDownloads = (deps: ExportDeps, companyId: CompanyId): Promise<DownloadDoc[]> => deps.downloads.list(companyId);
