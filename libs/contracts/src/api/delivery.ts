import { z } from 'zod';
import { LanguageCode } from './languages';
import { EMBEDDABLE_MIME_CODES } from '../tables';
import { safeText } from './safe-text';

/** Invoice attachments and e-mail delivery. */
export const Attachment = z
  .object({
    id: z.number().int(),
    filename: z.string().meta({ description: 'sanitised; the extension follows the sniffed type' }),
    content_type: z.string().meta({ description: 'sniffed from the content, never taken from the name' }),
    size: z.number().int().meta({ description: 'bytes' }),
    sha256: z.string(),
    description: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({
    id: 'Attachment',
    example: {
      id: 12,
      filename: 'AGB 2026.pdf',
      content_type: 'application/pdf',
      size: 48211,
      sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      description: 'Terms and conditions',
      created_at: '2026-11-24T09:00:00.000Z',
    },
  });

export const AttachmentUpload = z
  .object({
    file: z
      .string()
      .meta({ format: 'binary', description: 'PDF, DOCX, XLSX, PNG, JPEG, WebP, GIF or TIFF; at most 5 MiB (5,242,880 bytes)' }),
    description: z.string().max(500).optional(),
  })
  .meta({ id: 'AttachmentUpload' });

export const AttachmentLink = z
  .object({
    url: z.string().meta({ description: 'presigned; valid for expires_in seconds' }),
    filename: z.string(),
    content_type: z.string(),
    expires_in: z.number().int(),
  })
  .meta({ id: 'AttachmentLink' });

const Address = z.string().trim().max(254);
const Addresses = z.union([Address, z.array(Address).max(10)]);

/** POST /invoice/{id}/send_email. Addresses are checked one by one in the use case (400 names the bad one). */
export const SendEmailRequest = z
  .object({
    to: Addresses.meta({ description: 'one address or a list; at most 10 recipients in to, cc and bcc together' }),
    cc: Addresses.optional(),
    bcc: Addresses.optional().meta({ description: 'only in the SMTP envelope, never in the headers' }),
    subject: safeText(z.string().trim().min(1).max(200))
      .optional()
      .meta({ description: 'default: from the German or English template after the language' }),
    message: safeText(z.string().max(10_000), { multiLine: true })
      .optional()
      .meta({ description: 'the text body; default: from the template (invoice number, total, due date)' }),
    attach_pdf: z.boolean().default(true),
    attach_xml: z.boolean().optional().meta({ description: 'default true for invoices with an XML format' }),
    attachment_ids: z
      .array(z.number().int().positive())
      .max(20)
      .optional()
      .meta({ description: "ids of the invoice's attachments to add" }),
    language: LanguageCode.optional().meta({
      description: "de or en (German and English are accepted too, in any case); default: the customer's language on the invoice",
    }),
  })
  .meta({ id: 'SendEmailRequest' });
export type SendEmailRequest = z.output<typeof SendEmailRequest>;

export const EmailRecord = z
  .object({
    id: z.string(),
    status: z.enum(['queued', 'sent', 'failed', 'unconfirmed']).meta({
      description:
        'unconfirmed: the service stopped after handing the complete message to the SMTP server and before its answer; it may have been delivered and is not sent again (at most once)',
    }),
    to: z.array(z.string()),
    cc: z.array(z.string()),
    bcc: z.array(z.string()),
    subject: z.string(),
    attachments: z.array(z.string()).meta({ description: 'file names' }),
    message_id: z.string().nullable().meta({ description: 'the Message-ID header' }),
    error: z.string().nullable().meta({ description: "when failed or unconfirmed: the reason, with the SMTP server's answer" }),
    created_at: z.string(),
    sent_at: z.string().nullable(),
  })
  .meta({ id: 'EmailRecord' });

const Template = z.object({
  subject: safeText(z.string().trim().min(1).max(200)).optional(),
  body: safeText(z.string().trim().min(1).max(10_000), { multiLine: true }).optional(),
});
/** PUT /invoice/email-texts: the company's own e-mail texts per language (DELETE goes back to the defaults). */
export const EmailTextsUpdate = z
  .object({ de: Template.optional(), en: Template.optional() })
  .meta({ id: 'EmailTextsUpdate', description: 'placeholders: {number}, {document}, {total}, {due_date}, {seller}, {customer}' });
export type EmailTextsUpdate = z.input<typeof EmailTextsUpdate>;

const TemplateOut = z.object({ subject: z.string(), body: z.string(), is_default: z.boolean() });
export const EmailTexts = z.object({ de: TemplateOut, en: TemplateOut, placeholders: z.array(z.string()) }).meta({ id: 'EmailTexts' });

export { EMBEDDABLE_MIME_CODES };

/**
 * Where an invoice's attachments end up for its format: every one in the PDF/A-3 (associated files), and
 * in UBL formats (XRECHNUNG, PEPPOL) also in the XML when EN 16931 allows the type. Answers the ones the
 * XML cannot carry, with the reason (the validation result lists them as warnings).
 */
export function attachmentsNotInXml(
  format: string,
  attachments: readonly { filename: string; contentType: string }[],
): { filename: string; reason: string }[] {
  if (format === 'XRECHNUNG' || format === 'PEPPOL') {
    return attachments
      .filter((a) => !(EMBEDDABLE_MIME_CODES as readonly string[]).includes(a.contentType))
      .map((a) => ({
        filename: a.filename,
        reason: `${a.contentType} may not be embedded in a UBL e-invoice (allowed: PDF, PNG, JPEG, CSV, XLSX, ODS); it is in the PDF only`,
      }));
  }
  if (format === 'PDF') return [];
  const where = format === 'ZUGFERD' ? 'embedded in the PDF/A-3 beside the XML' : 'sent in the PDF only';
  return attachments.map((a) => ({ filename: a.filename, reason: `${format} XML carries no attachments; ${where}` }));
}
