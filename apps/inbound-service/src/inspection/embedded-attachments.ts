import { createHash } from 'node:crypto';
import type { InboundFinding } from '@inv/contracts';
import { AppError } from '@inv/service-kit';
import type { AttachmentLimits } from '../domain/attachments';
import type { EmbeddedFile, Inspection } from './types';
import type { PdfEmbeddedFile } from './pdf-einvoice';
import { xpathNodes, xpathString, type XmlDoc } from './validator';

const MIB = 1024 * 1024;
const mib = (b: number) => `${Math.round((b / MIB) * 10) / 10} MiB`;

/**
 * Decodes the base64 attachments of a parsed UBL or CII e-invoice, in document order (the order of
 * content.attachments), within the limits: one over a limit is named in a warning (INB-ATTACHMENT) and not kept.
 * The XML passed the size guard, so a decoded file is at most 3/4 of it; the limits bound what is stored.
 */
export function decodeAttachments(
  doc: XmlDoc,
  syntax: 'ubl' | 'cii',
  limits: AttachmentLimits,
): { files: EmbeddedFile[]; findings: InboundFinding[] } {
  const root = xpathNodes('/*', doc)[0];
  const rootName = xpathString('local-name(.)', root);
  const [refs, binary, base] =
    syntax === 'ubl'
      ? [
          xpathNodes('*:AdditionalDocumentReference', root),
          '*:Attachment/*:EmbeddedDocumentBinaryObject',
          `/${rootName}[1]/AdditionalDocumentReference`,
        ]
      : [
          xpathNodes('*:SupplyChainTradeTransaction/*:ApplicableHeaderTradeAgreement/*:AdditionalReferencedDocument', root),
          '*:AttachmentBinaryObject',
          `/${rootName}[1]/SupplyChainTradeTransaction[1]/ApplicableHeaderTradeAgreement[1]/AdditionalReferencedDocument`,
        ];
  const files: EmbeddedFile[] = [];
  const findings: InboundFinding[] = [];
  let total = 0;
  refs.forEach((ref, i) => {
    if (xpathNodes(binary, ref).length === 0) return;
    const n = i + 1;
    const warn = (message: string) =>
      findings.push({ rule: 'INB-ATTACHMENT', severity: 'warning', location: `${base}[${n}]`, message, source: 'attachments' });
    if (files.length >= limits.count) return warn(`attachment ${n} not stored: more than ${limits.count} embedded attachments`);
    const bytes = Buffer.from(xpathString(binary, ref), 'base64');
    if (bytes.length === 0) return warn(`attachment ${n} not stored: its embedded content is empty or not base64`);
    if (bytes.length > limits.bytes)
      return warn(`attachment ${n} not stored: ${mib(bytes.length)} decoded, more than ${mib(limits.bytes)} per attachment`);
    if (total + bytes.length > limits.totalBytes)
      return warn(`attachment ${n} not stored: the attachments would exceed ${mib(limits.totalBytes)} in all`);
    total += bytes.length;
    const attr = (name: string) => xpathString(`${binary}/@${name}`, ref).trim().slice(0, 200) || undefined;
    files.push({
      n,
      filename: attr('filename'),
      mimeCode: attr('mimeCode'),
      bytes,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
  });
  return { files, findings };
}

/**
 * The files a ZUGFeRD/Factur-X PDF embeds beside its invoice XML, as further attachments after those of the XML
 * (content.attachments, numbered on), decoded within the same limits (a compressed one is inflated at most to the
 * per-attachment limit); one over a limit or not decodable is named in a warning and not kept.
 */
export function withPdfAttachments(inspection: Inspection, others: PdfEmbeddedFile[], limits: AttachmentLimits): Inspection {
  const files = [...(inspection.attachments ?? [])];
  const entries = [...inspection.content.attachments];
  const findings: InboundFinding[] = [];
  let total = files.reduce((sum, f) => sum + f.bytes.byteLength, 0);
  others.forEach((o, i) => {
    entries.push({ filename: o.name, mime_code: o.mimeCode, description: o.description });
    const n = entries.length;
    const warn = (message: string) =>
      findings.push({
        rule: 'INB-ATTACHMENT',
        severity: 'warning',
        location: `PDF EmbeddedFiles[${i + 1}]`,
        message,
        source: 'attachments',
      });
    if (files.length >= limits.count) return warn(`attachment ${n} not stored: more than ${limits.count} embedded attachments`);
    let bytes: Buffer;
    try {
      bytes = o.read(limits.bytes);
    } catch (err) {
      if (err instanceof AppError && err.code === 'DOCUMENT_TOO_LARGE')
        return warn(`attachment ${n} not stored: more than ${mib(limits.bytes)} per attachment once decoded`);
      return warn(`attachment ${n} not stored: the embedded file cannot be decoded`);
    }
    if (bytes.length === 0) return warn(`attachment ${n} not stored: the embedded file is empty`);
    if (total + bytes.length > limits.totalBytes)
      return warn(`attachment ${n} not stored: the attachments would exceed ${mib(limits.totalBytes)} in all`);
    total += bytes.length;
    files.push({ n, filename: o.name, mimeCode: o.mimeCode, bytes, sha256: createHash('sha256').update(bytes).digest('hex') });
  });
  return {
    report: { ...inspection.report, findings: [...inspection.report.findings, ...findings] },
    content: { ...inspection.content, attachments: entries },
    attachments: files,
  };
}

export type { EmbeddedFile } from './types';
