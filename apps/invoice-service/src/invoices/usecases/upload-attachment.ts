import type { CompanyId } from '@inv/contracts';
import { eventMessage } from '@inv/runtime';
import { fromBuffer } from 'file-type';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { AppError, conflict } from '@inv/service-kit';
import type { AttachmentDoc } from '../db/attachments';
import { attachmentCounter } from '../../platform';
import { acceptType, ATTACHMENT_BYTES_PER_INVOICE, ATTACHMENTS_PER_INVOICE, sanitizeFilename } from '../domain/attachment-rules';
import type { InvoicesDeps } from '../deps';
import { loadDraft } from './load-invoice';
import { receiveUpload } from './receive-upload';

/**
 * POST /invoice/{id}/attachments: a draft's attachment, streamed in (busboy, 5 MiB cut while streaming),
 * typed by its content (file-type), stored in object storage, recorded with its SHA-256. At most 20
 * attachments and 25 MiB per invoice, reserved atomically with the record (db/attachments.ts `reserve`).
 * Finalization freezes them with the invoice.
 */
export async function uploadAttachment(
  deps: InvoicesDeps,
  companyId: CompanyId,
  invoiceId: number,
  req: { headers: IncomingHttpHeaders; body: Readable },
): Promise<Omit<AttachmentDoc, '_id'>> {
  const inv = await loadDraft(deps, companyId, invoiceId);
  // an early answer before the bytes are read; the limits themselves are held by the reservation below
  refuseOver(invoiceId, await deps.attachments.usage(companyId, invoiceId), 0);
  const file = await receiveUpload(req.headers, req.body);
  try {
    const type = acceptType(await fromBuffer(file.head));
    if (!type.ok) {
      throw new AppError(
        'unsupported_media_type',
        `attachments must be PDF, DOCX, XLSX, PNG, JPEG, WebP, GIF or TIFF; this file is ${type.found}`,
        { code: 'UNSUPPORTED_ATTACHMENT_TYPE' },
      );
    }
    if (file.size === 0) throw new AppError('unsupported_media_type', 'the file is empty', { code: 'UNSUPPORTED_ATTACHMENT_TYPE' });
    await deps.attachments.ensureUsage(companyId, invoiceId);
    refuseOver(invoiceId, await deps.attachments.usage(companyId, invoiceId), file.size);
    const id = await deps.counters.next(attachmentCounter(companyId));
    const filename = sanitizeFilename(file.filename, type.ext);
    const key = `${companyId}/invoices/${invoiceId}/attachments/${id}-${filename.replace(/[^A-Za-z0-9._-]/g, '_')}`;
    await deps.objects.putFile(key, file.path, type.contentType);
    const doc: Omit<AttachmentDoc, '_id'> = {
      id,
      companyId,
      invoiceId,
      filename,
      contentType: type.contentType,
      size: file.size,
      sha256: file.sha256,
      description: file.description,
      key,
      createdAt: deps.now(),
    };
    // before the attachment is stored: a finalization from now on looks for it (validate-invoice.ts)
    if (inv.attachmentsUploaded === false) await deps.invoices.noteAttachmentUpload(companyId, invoiceId);
    deps.drafts.forget(companyId, invoiceId);
    try {
      // the reservation of count and bytes, the record and its audit event together (the outbox): concurrent
      // uploads conflict on the usage document and retry, so no two of them take the last place
      await deps.commit(async (session, emit) => {
        const reserved = await deps.attachments.reserve(
          companyId,
          invoiceId,
          file.size,
          { count: ATTACHMENTS_PER_INVOICE, bytes: ATTACHMENT_BYTES_PER_INVOICE },
          session,
        );
        if (!reserved.ok) refuseOver(invoiceId, reserved, file.size);
        await deps.attachments.create(doc, session);
        emit(
          eventMessage('invoice.changed.v1', companyId, {
            invoiceId,
            action: 'attachment_added',
            attachmentId: id,
            fields: ['file', 'description'],
          }),
        );
      });
    } catch (err) {
      await deps.objects.remove(key).catch(() => undefined); // nothing refers to the bytes
      throw err;
    }
    return doc;
  } finally {
    await file.cleanup();
  }
}

/** 409 ATTACHMENT_LIMIT_REACHED or 413 ATTACHMENT_QUOTA_EXCEEDED when one more attachment of `size` bytes does not fit. */
function refuseOver(invoiceId: number, used: { count: number; bytes: number }, size: number) {
  if (used.count >= ATTACHMENTS_PER_INVOICE)
    throw conflict(`invoice ${invoiceId} has ${used.count} attachments, the most an invoice may have`, 'ATTACHMENT_LIMIT_REACHED');
  if (used.bytes + size > ATTACHMENT_BYTES_PER_INVOICE) {
    throw new AppError(
      'payload_too_large',
      `the attachments of an invoice may total at most ${ATTACHMENT_BYTES_PER_INVOICE} bytes (25 MiB); ${used.bytes} are used`,
      { code: 'ATTACHMENT_QUOTA_EXCEEDED' },
    );
  }
}
