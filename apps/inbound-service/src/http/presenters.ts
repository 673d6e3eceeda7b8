import { INBOUND_TASK, type InboundDocument, type InboundJob, type InboundSummary, type Supplier } from '@inv/contracts';
import type { InboundDoc } from '../db/inbound-documents';
import type { SupplierDoc } from '../db/suppliers';
import type { FileLink } from '../usecases/document-pdf';

type Stored = Omit<InboundDoc, '_id' | 'content' | 'findings'>;

function common(d: Stored) {
  return {
    id: d.id,
    status: d.status,
    valid: d.valid,
    received_at: d.receivedAt.toISOString(),
    ...(d.filename ? { filename: d.filename } : {}),
    media_type: d.mediaType,
    size: d.size,
    sha256: d.sha256,
    ...(d.format ? { format: d.format } : {}),
    ...(d.profile ? { profile: d.profile } : {}),
    ...(d.version ? { version: d.version } : {}),
    ...(d.customizationId !== undefined ? { customization_id: d.customizationId } : {}),
    ...(d.documentType ? { document_type: d.documentType } : {}),
    ...(d.error ? { error: d.error } : {}),
    ...(d.supplierId !== undefined ? { supplier_id: d.supplierId } : {}),
    ...(d.duplicateOf !== undefined ? { duplicate_of: d.duplicateOf } : {}),
    iban_differs: d.ibanDiffers ?? false,
  };
}

/** The detail: the list entry's fields (one shape) and the findings and the reading. */
export function toInboundDocument(d: Omit<InboundDoc, '_id'>): InboundDocument {
  return { ...toInboundSummary(d), ...(d.findings ? { findings: d.findings } : {}), ...(d.content ? { content: d.content } : {}) };
}

export function toInboundSummary(d: Stored): InboundSummary {
  const s = d.summary;
  return {
    ...common(d),
    ...(s.number ? { number: s.number } : {}),
    ...(s.issueDate ? { issue_date: s.issueDate } : {}),
    ...(s.sellerName ? { seller_name: s.sellerName } : {}),
    ...(d.sellerVatId ? { seller_vat_id: d.sellerVatId } : {}),
    ...(s.payable ? { payable: s.payable } : {}),
    ...(s.currency ? { currency: s.currency } : {}),
    error_count: s.errorCount,
  };
}

/** The job of a received document (its id is the document's): PROCESSING is queued until a worker took it up. */
export function toInboundJob(d: Omit<InboundDoc, '_id'>): InboundJob {
  const status = d.status === 'RECEIVED' ? 'finished' : d.status === 'REJECTED' ? 'failed' : d.startedAt ? 'started' : 'queued';
  const base = `/api/v1/inbound/${d.id}`;
  return {
    id: d.id,
    task: INBOUND_TASK,
    status,
    document_id: d.id,
    ...(d.status === 'REJECTED'
      ? { error_code: d.error?.code ?? 'PROCESSING_FAILED', error_message: d.error?.message ?? 'not readable' }
      : {}),
    created_at: d.receivedAt.toISOString(),
    started_at: d.startedAt?.toISOString() ?? null,
    finished_at: d.finishedAt?.toISOString() ?? null,
    links: { self: `${base}/job`, document: base, pdf: `${base}/pdf` },
  };
}

export const toSupplier = (s: SupplierDoc): Supplier => ({
  id: s.id,
  name: s.name,
  ...(s.vatId ? { vat_id: s.vatId } : {}),
  ...(s.peppolId ? { peppol_id: s.peppolId } : {}),
  ibans: s.ibans,
  created_at: s.createdAt.toISOString(),
  updated_at: s.updatedAt.toISOString(),
});

/** GET /inbound/{id}/pdf, /original and /attachments/{n}: the presigned link (with the type it is served with, but for the PDF view). */
export const presentFileLink = (l: FileLink) => ({
  url: l.url,
  filename: l.filename,
  ...(l.contentType !== undefined ? { content_type: l.contentType } : {}),
  expires_in: l.expiresInSeconds,
});
