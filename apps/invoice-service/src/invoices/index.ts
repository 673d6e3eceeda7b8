/**
 * The face of the invoices feature (drafts, positions, numbering, finalization, credit notes, products, attachments):
 * what other features and the service's entry points may use. Everything else in invoices/ is its own business;
 * eslint.config.mjs refuses imports that reach past this file.
 */
export type { InvoiceSettlement, InvoicesDeps } from './deps';
// the document types and the rules on them that payments, reminders and e-mails read
export type { InvoiceDoc, PositionDoc, StoredFile } from './domain/invoice';
export { canMoveByPayment, statusAfterReversal } from './domain/status-machine';
export { grossCentsOf, jsonNumber, totalsOf } from './domain/totals';
export type { ValidationResult } from './usecases/validate-invoice';
export { formatNumber } from './domain/number-patterns';
export { loadInvoice } from './usecases/load-invoice';
// the one builder of invoice.status-changed.v1
export { statusChanged } from './usecases/status-changed';
// for the composition root: repositories (the routes are in routes.ts)
export { attachmentsRepo } from './db/attachments';
export type { AttachmentDoc } from './db/attachments';
export { draftCache } from './db/draft-cache';
export { invoicesRepo } from './db/invoices';
export { jobsRepo } from './db/jobs';
export type { JobDoc } from './db/jobs';
export { numberingRepo } from './db/numbering';
export type { SequenceDoc } from './db/numbering';
export { positionIdsPerCompany } from './db/position-ids';
export { productsRepo } from './db/products';
export type { ProductDoc } from './db/products';
// for the consumers of document-service's render events
export { completeFinalization } from './usecases/complete-finalization';
export { failFinalization } from './usecases/fail-finalization';
export { recordFinalizeEnded } from './usecases/finalize-timing';
export { markJobStarted } from './usecases/mark-job-started';
// for the presenters
export { nextValueOf } from './usecases/update-sequence';
