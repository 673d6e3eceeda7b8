import type { InboundDocument, InboundSummary } from '@inv/contracts';
import type { InboundDoc } from '../db/inbound-documents';

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
    format: d.format,
    profile: d.profile,
    ...(d.version ? { version: d.version } : {}),
    customization_id: d.customizationId,
    document_type: d.documentType,
    ...(d.supplierId !== undefined ? { supplier_id: d.supplierId } : {}),
    ...(d.duplicateOf !== undefined ? { duplicate_of: d.duplicateOf } : {}),
    iban_differs: d.ibanDiffers ?? false,
  };
}

export function toInboundDocument(d: Omit<InboundDoc, '_id'>): InboundDocument {
  return { ...common(d), findings: d.findings, content: d.content };
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
