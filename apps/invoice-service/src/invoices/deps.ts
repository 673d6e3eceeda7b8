import type { EventEmitter } from 'node:events';
import type { CompanyId, StatusUpdate } from '@inv/contracts';
import type { Emit } from '@inv/outbox';
import type { ClientSession } from 'mongoose';
import type { InvoiceDoc } from './domain/invoice';
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
  /** What receivables does inside this feature's transactions (the port below). */
  settlement: InvoiceSettlement;
}

/**
 * What the receivables feature does inside a transaction of the invoices feature: the composition root wires it
 * (receivables' `invoiceSettlement`), so invoices/ never imports receivables/ and the features form no circle.
 */
export interface InvoiceSettlement {
  /** A credit note just finalized settles against the invoice it corrects, in the finalization's transaction. */
  creditNoteFinalized(session: ClientSession, emit: Emit, companyId: CompanyId, note: InvoiceDoc, now: Date): Promise<void>;
  /**
   * PUT /invoice/{id}/status PAID: one payment of the open amount (source `status`, no Skonto) in the caller's
   * transaction, which makes the invoice PAID; false, with nothing done, when nothing is open.
   */
  payOpenAmount(
    session: ClientSession,
    emit: Emit,
    companyId: CompanyId,
    inv: InvoiceDoc,
    input: Extract<StatusUpdate, { status: 'PAID' }>,
    paymentId: number,
  ): Promise<boolean>;
}
