import { createHash } from 'node:crypto';
import type { InboundFinding } from '@inv/contracts';
import type { AttachmentLimits } from '../domain/attachments';
import { xpathNodes, xpathString, type XmlDoc } from './validator';

/** A file embedded in the e-invoice, decoded; `n` is its place (from 1) among the document's attachments (content.attachments). */
export interface EmbeddedFile {
  n: number;
  filename?: string;
  mimeCode?: string;
  bytes: Uint8Array;
  sha256: string;
}

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
