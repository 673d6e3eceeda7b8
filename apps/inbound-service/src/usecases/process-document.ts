import { INBOUND_XML_MAX_BYTES, type CompanyId } from '@inv/contracts';
import { formatDecimal, sumDecimals } from '@inv/money';
import { eventMessage } from '@inv/runtime';
import { AppError } from '@inv/service-kit';
import type { InboundDoc, InboundReading, StoredAttachment } from '../db/inbound-documents';
import { attachmentFilename, safeKeyName, servedContentType } from '../domain/attachments';
import { ibanDiffers, matchSupplier, senderIds } from '../domain/supplier-match';
import type { InboundDeps } from '../support/deps';
import type { EmbeddedFile } from '../inspection/embedded-attachments';
import type { WorkOutcome } from '../workers/document-scheduler';
import type { Inspection } from '../inspection/inspect';
import { removeObjects } from './delete-document';

const DEC = /^-?\d+(\.\d+)?$/;
const dec = (v: string | undefined) => (v !== undefined && DEC.test(v.trim()) ? v.trim() : undefined);

/**
 * Reads and validates one stored upload (the document scheduler's work, workers/document-scheduler.ts: one document
 * at a time, companies in turn, at most INBOUND_CPU_SHARE of a core; the inspection in the inspector's worker threads),
 * matches the supplier, flags a repeated number, and in one transaction turns the document RECEIVED with its reading
 * and announces `inbound.received.v1` (for the DATEV supplier bookings and webhooks). The job is claimed with a lease
 * first: a document whose job has ended, that was deleted or that another process holds is left alone, and the end is
 * written only from PROCESSING, so a redelivered command or a sweep reads it once. A document that is no readable
 * e-invoice (what the inspector refuses with a 4xx, the bounds of xml-guard.ts included) or that takes longer than the
 * inspection timeout (VALIDATION_TIMEOUT) is REJECTED with the reason at once: its job fails, never retried. Other
 * errors (storage, busy workers) give the job back for another attempt after a delay (retryAfterMs); the attempt after
 * the last (also when a document's reading crashed the process every time) fails it with PROCESSING_FAILED.
 */
export async function processDocument(deps: InboundDeps, companyId: CompanyId, id: number): Promise<WorkOutcome> {
  const doc = await deps.documents.claim(companyId, id, deps.now(), deps.leaseMs);
  if (!doc) return; // ended, deleted, or another process reads it
  const attempt = doc.attempts ?? 1;
  if (attempt > deps.maxAttempts) return reject(deps, doc, PROCESSING_FAILED);
  let inspection: Inspection;
  try {
    const bytes = await deps.objects.get(doc.objectKey);
    inspection = await deps.inspector.check(
      { bytes, mediaType: doc.mediaType, filename: doc.filename },
      INBOUND_XML_MAX_BYTES,
      deps.attachmentLimits,
    );
  } catch (err) {
    if (err instanceof AppError && err.kind !== 'unavailable') return reject(deps, doc, { code: err.code, message: err.message });
    if (attempt >= deps.maxAttempts) {
      deps.logger.warn({ err, inboundId: id }, 'inbound document could not be processed');
      return reject(deps, doc, PROCESSING_FAILED);
    }
    const retryAfterMs = deps.retryDelaysMs[attempt - 1] ?? deps.retryDelaysMs.at(-1) ?? 1000;
    deps.logger.info({ err, inboundId: id, attempt, retryAfterMs }, 'inbound document: reading failed; tried again later');
    await deps.documents.release(companyId, id, new Date(deps.now().getTime() + retryAfterMs));
    return { retryAfterMs };
  }
  const attachmentFiles = await storeAttachments(deps, companyId, id, inspection.attachments ?? []);
  const reading = await readingOf(deps, companyId, id, inspection, attachmentFiles);
  const finished = await deps.commit(async (session, emit) => {
    if (!(await deps.documents.finish(companyId, id, reading, deps.now(), session))) return false;
    emit(eventMessage('inbound.received.v1', companyId, receivedEvent(doc, reading), `inbound-received:${companyId}:${id}`));
    return true;
  });
  if (finished) signal(deps, companyId, id);
  // deleted while it was read: its attachments go too (another delivery that finished stored the same keys: kept)
  else if (attachmentFiles.length && !(await deps.documents.get(companyId, id)))
    await removeObjects(
      deps,
      attachmentFiles.map((a) => a.key),
    );
}

const PROCESSING_FAILED = { code: 'PROCESSING_FAILED', message: 'the document could not be processed; please upload it again' };

/**
 * The decoded attachments beside the original, `<company>/inbound/<id>/attachments/<n>-<safe name>` (the same keys
 * when the command comes again), with a content type that is never active content (domain/attachments.ts).
 */
async function storeAttachments(deps: InboundDeps, companyId: CompanyId, id: number, files: EmbeddedFile[]): Promise<StoredAttachment[]> {
  const stored: StoredAttachment[] = [];
  for (const f of files) {
    const filename = attachmentFilename(f.n, f.filename, f.mimeCode);
    const contentType = servedContentType(f.mimeCode);
    const key = `${companyId}/inbound/${id}/attachments/${f.n}-${safeKeyName(filename)}`;
    await deps.objects.put(key, Buffer.from(f.bytes.buffer, f.bytes.byteOffset, f.bytes.byteLength), contentType);
    stored.push({ n: f.n, key, filename, contentType, size: f.bytes.byteLength, sha256: f.sha256 });
  }
  return stored;
}

async function reject(deps: InboundDeps, doc: InboundDoc, error: { code: string; message: string }): Promise<void> {
  const rejected = await deps.commit((session) => deps.documents.reject(doc.companyId, doc.id, error, deps.now(), session));
  if (rejected) signal(deps, doc.companyId, doc.id);
}

const signal = (deps: InboundDeps, companyId: CompanyId, id: number) => deps.jobSignals.emit(`${companyId}:${id}`);

async function readingOf(
  deps: InboundDeps,
  companyId: CompanyId,
  id: number,
  { report, content: read }: Inspection,
  attachmentFiles: StoredAttachment[],
): Promise<InboundReading> {
  const content = {
    ...read,
    attachments: read.attachments.map((a, i) => {
      const file = attachmentFiles.find((f) => f.n === i + 1);
      return file ? { ...a, download: `/api/v1/inbound/${id}/attachments/${file.n}`, size: file.size, sha256: file.sha256 } : a;
    }),
  };
  const sellerVatId = senderIds(content).vatId;
  const supplier = matchSupplier(await deps.suppliers.candidates(companyId, senderIds(content)), content);
  const duplicateOf = content.number
    ? await deps.documents.firstWithNumber(companyId, { supplierId: supplier?.id, sellerVatId }, content.number)
    : undefined;
  return {
    valid: report.valid,
    format: report.format,
    profile: report.profile,
    version: report.version,
    customizationId: report.customization_id,
    documentType: report.document_type,
    findings: report.findings,
    content,
    sellerVatId,
    supplierId: supplier?.id,
    duplicateOf,
    ibanDiffers: ibanDiffers(supplier, content),
    attachmentFiles,
    summary: {
      number: content.number,
      issueDate: content.issue_date,
      sellerName: content.seller.name,
      payable: content.totals.payable,
      currency: content.currency,
      errorCount: report.findings.filter((f) => f.severity === 'fatal' || f.severity === 'error').length,
    },
  };
}

/** The event's data: the document's amounts as it states them (decimal strings; one that is no decimal is left out). */
function receivedEvent(doc: InboundDoc, r: InboundReading) {
  const c = r.content;
  const totalVat = dec(c.totals.tax_total) ?? sumOf(c.vat_breakdown.map((v) => v.tax_amount));
  return {
    inboundId: doc.id,
    format: r.format,
    valid: r.valid,
    number: c.number,
    issueDate: c.issue_date,
    typeCode: c.type_code,
    currency: c.currency,
    supplierId: r.supplierId,
    sellerName: c.seller.name,
    sellerVatId: r.sellerVatId,
    totalNet: dec(c.totals.tax_exclusive),
    totalVat,
    totalGross: dec(c.totals.tax_inclusive),
    ...(c.tax_currency && dec(c.totals.tax_total_tax_currency)
      ? { taxCurrency: c.tax_currency, totalVatTaxCurrency: dec(c.totals.tax_total_tax_currency) }
      : {}),
    ...(c.service_period ? { servicePeriod: c.service_period } : {}),
    ...(r.duplicateOf !== undefined ? { duplicateOf: r.duplicateOf } : {}),
    vatBreakdown: c.vat_breakdown.flatMap((v) => {
      const net = dec(v.taxable_amount);
      const vat = dec(v.tax_amount);
      return net !== undefined && vat !== undefined ? [{ category: v.category ?? 'S', rate: dec(v.rate) ?? '0', net, vat }] : [];
    }),
    original: {
      key: doc.objectKey,
      filename: doc.filename ?? `inbound-${doc.id}.${doc.mediaType === 'application/pdf' ? 'pdf' : 'xml'}`,
      contentType: doc.mediaType,
      size: doc.size,
    },
  };
}

function sumOf(values: string[]): string | undefined {
  const decs = values.map(dec);
  if (!decs.length || decs.some((v) => v === undefined)) return undefined;
  return formatDecimal(sumDecimals(decs as string[]));
}
