import { z } from 'zod';
import { EmailRecord, EmailTexts, EmailTextsUpdate, SendEmailRequest } from '@inv/contracts';
import { body, bodyErrors, commonErrors, conflict, intId, json, notFound, problem, type Operation } from '../builder';

/** Sending an invoice by e-mail, the e-mail texts and the e-mails sent (part of invoicePaths). */
export function emailPaths(op: (o: Omit<Operation, 'tags'>) => Operation): Record<string, Record<string, unknown>> {
  const id = intId('id', 'invoice id');
  return {
    '/invoice/{id}/send_email': {
      parameters: [id],
      post: op({
        operationId: 'sendInvoiceEmail',
        summary: 'Send a finalized invoice by e-mail',
        description:
          'Queues the e-mail (202) and sends it through SMTP in the background: the PDF (attach_pdf, default true), the XML (attach_xml, default for XML formats) and chosen attachments. ' +
          'Subject and text come from the German or English template (invoice number, total, due date) unless given. Temporary SMTP failures are retried with backoff; ' +
          'the outcome is in GET /invoice/{id}/emails. An OPEN invoice becomes SENT when the server accepts the e-mail. At most 10 recipients and 20 MiB. ' +
          "Recipients must be the customer's addresses (its e-mail, EM electronic address or PEC) or the seller's contact address. " +
          'At most 10 sends per invoice and 200 messages per company (one per recipient) per UTC day: 429 EMAIL_LIMIT_EXCEEDED with Retry-After beyond.',
        requestBody: body(SendEmailRequest, { to: ['ap@buyer.example'], attachment_ids: [12] }),
        responses: {
          202: json(z.object({ message: z.string(), email_id: z.string() }), 'queued (Location: the e-mail list)'),
          ...notFound(),
          ...conflict('not finalized (INVOICE_NOT_SENDABLE)'),
          ...bodyErrors(),
          413: problem('attachments over 20 MiB (EMAIL_TOO_LARGE), or a body over 1 MiB (PAYLOAD_TOO_LARGE)'),
          ...commonErrors(),
          429: problem(
            'a daily e-mail limit of the invoice or the company (EMAIL_LIMIT_EXCEEDED; `scope`, `limit`, `retry_after`), or the rate limit',
          ),
        },
      }),
    },
    '/invoice/email-texts': {
      get: op({
        operationId: 'getEmailTexts',
        summary: 'Get the e-mail texts',
        description: "The company's invoice e-mail texts (German and English) and the placeholders.",
        responses: { 200: json(EmailTexts), ...commonErrors() },
      }),
      put: op({
        operationId: 'updateEmailTexts',
        summary: 'Replace the e-mail texts',
        description: 'Per language; unknown placeholders answer 400.',
        requestBody: body(EmailTextsUpdate, {
          de: {
            subject: '{document} {number} von {seller}',
            body: 'Guten Tag,\n\nanbei unsere {document} {number} über {total}{due_date}.\n\n{seller}',
          },
        }),
        responses: { 200: json(EmailTexts.extend({ message: z.string() })), ...bodyErrors(), ...commonErrors() },
      }),
      delete: op({
        operationId: 'resetEmailTexts',
        summary: 'Reset the e-mail texts',
        description: 'Back to the default e-mail texts.',
        responses: { 200: json(EmailTexts.extend({ message: z.string() })), ...commonErrors() },
      }),
    },
    '/invoice/{id}/emails': {
      parameters: [id],
      get: op({
        operationId: 'listInvoiceEmails',
        summary: 'List sent e-mails',
        description: 'E-mails sent for the invoice, newest first, with status and the SMTP error.',
        responses: { 200: json(z.object({ emails: z.array(EmailRecord) })), ...notFound(), ...commonErrors() },
      }),
    },
  };
}
