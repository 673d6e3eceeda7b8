import { z } from 'zod';
import { CreatedInvoice, CreatedJob, EmailRecord, Invoice, Job, PositionAdded, Validation } from '@inv/contracts';

/**
 * The parts of invoice-service's answers a run and the template check read, taken from the contracts
 * (libs/contracts): the shared client checks each 2xx answer against them, so an answer that changed shape is a
 * clear error (ServiceAnswerInvalid), never a field read as undefined. Only the members read are named: the other
 * members of an answer are the invoice API's to add and change.
 */
export const invoiceAnswers = {
  /** POST /invoice/ */
  created: CreatedInvoice.pick({ invoice_id: true }),
  /** GET /invoice/{id}: its positions, counted (their shape is not read). */
  draft: z.object({ positions: z.array(z.unknown()).optional() }),
  /** PUT /invoice/{id} */
  updated: Invoice.pick({ id: true }),
  /** POST /invoice/{id}/positions */
  positionAdded: PositionAdded.pick({ id: true }),
  /** POST /invoice/{id}/job */
  jobQueued: CreatedJob.pick({ job_id: true }),
  /** GET /invoice/{id}/job/{job_id} */
  job: Job.pick({ status: true, error_message: true }),
  /** GET /invoice/?status=DRAFT&customer_id=… */
  drafts: z.object({ invoices: z.array(Invoice.pick({ id: true, meta: true })) }),
  /** GET /invoice/{id}/emails */
  emails: z.object({ emails: z.array(EmailRecord.pick({ id: true })) }),
  /** POST /invoice/{id}/send_email (202; the contract of the operation in the OpenAPI document) */
  emailQueued: z.object({ email_id: z.string() }),
  /** POST /invoice/validate */
  validation: Validation.pick({ valid: true, errors: true, vat_check: true }),
};
