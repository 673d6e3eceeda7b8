import { z } from 'zod';
import { Attachment, AttachmentLink, AttachmentUpload, MessageBody } from '@inv/contracts';
import { commonErrors, conflict, intId, json, notFound, problem, requestSchema, type Operation } from '../builder';

/** The attachments of an invoice (part of invoicePaths). */
export function attachmentPaths(op: (o: Omit<Operation, 'tags'>) => Operation): Record<string, Record<string, unknown>> {
  const id = intId('id', 'invoice id');
  return {
    '/invoice/{id}/attachments': {
      parameters: [id],
      get: op({
        operationId: 'listInvoiceAttachments',
        summary: 'List attachments',
        responses: { 200: json(z.object({ attachments: z.array(Attachment) })), ...notFound(), ...commonErrors() },
      }),
      post: op({
        operationId: 'addInvoiceAttachment',
        summary: 'Upload an attachment',
        description:
          'To a draft, as multipart/form-data with `file` and `description`. ' +
          'PDF, DOCX, XLSX, PNG, JPEG, WebP, GIF or TIFF, typed by content (a renamed executable or an HTML page answers 415 naming what was found). ' +
          'At most 5 MiB per file, cut while streaming (413 ATTACHMENT_TOO_LARGE, nothing stored); at most 20 attachments (409 ATTACHMENT_LIMIT_REACHED) and 25 MiB per invoice (413 ATTACHMENT_QUOTA_EXCEEDED). ' +
          'Finalization freezes them and embeds them in the e-invoice where the format allows.',
        requestBody: { required: true, content: { 'multipart/form-data': { schema: requestSchema(AttachmentUpload) } } },
        responses: {
          201: json(Attachment.extend({ message: z.string() }), 'stored (Location: the attachment)'),
          ...notFound(),
          ...conflict('not a draft (INVOICE_NOT_DRAFT) or 20 attachments already (ATTACHMENT_LIMIT_REACHED)'),
          413: problem('over 5 MiB (ATTACHMENT_TOO_LARGE) or over 25 MiB per invoice (ATTACHMENT_QUOTA_EXCEEDED)'),
          415: problem('not an accepted type (UNSUPPORTED_ATTACHMENT_TYPE)'),
          ...commonErrors(),
        },
      }),
    },
    '/invoice/{id}/attachments/{attachment_id}': {
      parameters: [
        id,
        { name: 'attachment_id', in: 'path', required: true, description: 'attachment id', schema: { type: 'integer', minimum: 1 } },
      ],
      get: op({
        operationId: 'getInvoiceAttachment',
        summary: 'Get an attachment link',
        description: 'A presigned link to the attachment.',
        responses: { 200: json(AttachmentLink), ...notFound(), ...commonErrors() },
      }),
      delete: op({
        operationId: 'deleteInvoiceAttachment',
        summary: 'Delete an attachment of a draft',
        responses: { 200: json(MessageBody), ...notFound(), ...conflict('not a draft (INVOICE_NOT_DRAFT)'), ...commonErrors() },
      }),
    },
  };
}
