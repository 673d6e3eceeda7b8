import type { EventEmitter } from 'node:events';
import type { CompanyId } from '@inv/contracts';
import type { PlatformDeps } from '../platform';
import type { AttachmentsRepo } from './db/attachments';
import type { DraftCache } from './db/draft-cache';
import type { InvoicesRepo } from './db/invoices';
import type { JobsRepo } from './db/jobs';
import type { NumberingRepo } from './db/numbering';
import type { ProductsRepo } from './db/products';

/** What the invoices feature (drafts, positions, numbering, finalization, credit notes, products, attachments) uses. */
export interface InvoicesDeps extends PlatformDeps {
  invoices: InvoicesRepo;
  /** Drafts as this process last wrote their positions, for a few seconds (db/draft-cache.ts). */
  drafts: DraftCache;
  jobs: JobsRepo;
  attachments: AttachmentsRepo;
  numbering: NumberingRepo;
  products: ProductsRepo;
  presignTtlSeconds: number;
  /** The next position id of the company, taken from the `position` counter in blocks (db/position-ids.ts). */
  positionIds: (companyId: CompanyId) => Promise<number>;
  defaultTemplateId: number;
  /**
   * Emits a job id whenever this process handled a change of that job's status (wakes long-polling requests),
   * with the job as written when it changed (undefined when the message changed nothing).
   */
  jobSignals: EventEmitter;
}
