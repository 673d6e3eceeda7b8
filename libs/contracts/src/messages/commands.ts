import { z } from 'zod';
import { DocumentFormat } from './message-fields';
import { InvoiceSnapshot } from './snapshot';

/** Work for exactly one owner, on the commands direct exchange. */
export const commands = {
  /**
   * Sends one e-mail (the mail module: invoice-service today, a mail-service later without a contract
   * change). Attachments are object-storage keys; the outcome comes back as mail.sent / mail.failed.
   */
  'mail.send.v1': z.object({
    emailId: z.string(),
    /** Who asked, so the outcome reaches the right consumer (e.g. `invoice:42`). */
    subjectRef: z.string(),
    from: z.string(),
    replyTo: z.string().optional(),
    to: z.array(z.string()).min(1),
    cc: z.array(z.string()).default([]),
    bcc: z.array(z.string()).default([]),
    subject: z.string(),
    text: z.string(),
    attachments: z.array(z.object({ key: z.string(), filename: z.string(), contentType: z.string() })).default([]),
  }),
  /** Runs an accounting export job (export-service sends it to itself through its outbox). */
  'export.run-export.v1': z.object({ jobId: z.string() }),
  /**
   * Reads and validates a received e-invoice whose original is stored (inbound-service sends it to itself through its
   * outbox when it accepts the upload; the document's id is its job's id).
   */
  'inbound.process-document.v1': z.object({ inboundId: z.number().int() }),
  'document.render-invoice.v1': z.object({
    jobId: z.string(),
    invoiceId: z.number().int(),
    format: DocumentFormat,
    templateId: z.number().int(),
    snapshot: InvoiceSnapshot,
    /**
     * The invoice's attachments (bytes in object storage under the company's prefix), embedded where the
     * format allows: PDF/A-3 associated files (AFRelationship /Supplement), UBL AdditionalDocumentReference.
     */
    attachments: z
      .array(
        z.object({
          id: z.number().int(),
          key: z.string(),
          filename: z.string(),
          contentType: z.string(),
          size: z.number().int(),
          description: z.string().optional(),
        }),
      )
      .max(20)
      .optional(),
    /** The letterhead logo as the company had it at finalization (read from object storage by the renderer). */
    logo: z.object({ key: z.string(), contentType: z.enum(['image/png', 'image/jpeg']) }).optional(),
  }),
} as const;
