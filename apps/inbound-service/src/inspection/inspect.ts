import { AppError } from '@inv/service-kit';
import type { InboundFinding } from '@inv/contracts';
import { checkArithmetic } from '../domain/arithmetic';
import { detectFormat } from '../domain/detect-format';
import { checkVatRates } from '../domain/vat-rates';
import { guardXml } from '../domain/xml-guard';
import type { AttachmentLimits } from '../domain/attachments';
import type { ConformanceKit } from './conformance-kit';
import { decodeAttachments } from './embedded-attachments';
import type { Inspection } from './types';
import { readContent } from './read-content';
import { parseXml, validateDocument, xpathNodes, xpathString } from './validator';

export type { Inspection } from './types';

/** XRechnung versions the kit's rules are written for (xrechnung/xslt: XRechnung 3.0.2). */
const XRECHNUNG_RULES_VERSION = '3.0';

/**
 * One XML e-invoice from bytes to a validation report and our JSON reading of it: the hostile-input guard,
 * parse, format from the declared specification, XSD plus the Schematron rule sets of that format, the
 * independent arithmetic check. Throws AppError (4xx) for what is not an e-invoice at all.
 */
export async function inspectXml(
  kit: ConformanceKit,
  bytes: Uint8Array,
  opts: { maxBytes: number; fromPdf?: boolean; attachmentLimits?: AttachmentLimits },
): Promise<Inspection> {
  const text = guardXml(bytes, opts.maxBytes);
  const doc = parseXml(text);
  const root = xpathNodes('/*', doc)[0] as { namespaceURI?: string | null; localName?: string } | undefined;
  if (!root) throw new AppError('invalid_data', 'the document has no root element', { code: 'XML_NOT_WELL_FORMED' });
  const cii = xpathString('/*/*:ExchangedDocumentContext/*:GuidelineSpecifiedDocumentContextParameter/*:ID', doc);
  const ubl = xpathString('/*/*:CustomizationID', doc);
  const format = detectFormat({ namespace: root.namespaceURI ?? '', localName: root.localName ?? '' }, cii || ubl, opts.fromPdf);
  const customizationId = (cii || ubl).trim().slice(0, 300);
  const { findings, rulesApplied } = await validateDocument(kit, text, doc, format);
  const content = readContent(doc, format.syntax);
  const arithmetic = checkArithmetic(content);
  const notes: InboundFinding[] = [];
  if (format.version && format.format.startsWith('xrechnung') && format.version !== XRECHNUNG_RULES_VERSION)
    notes.push({
      rule: 'INB-VERSION',
      severity: 'warning',
      location: format.syntax === 'ubl' ? '/Invoice[1]/CustomizationID[1]' : '/CrossIndustryInvoice[1]/ExchangedDocumentContext[1]',
      message: `the document declares XRechnung ${format.version}; it was checked with the rules of XRechnung ${XRECHNUNG_RULES_VERSION}.2, the version in force`,
      source: 'xrechnung',
    });
  const embedded = opts.attachmentLimits ? decodeAttachments(doc, format.syntax, opts.attachmentLimits) : undefined;
  const all = [...findings, ...arithmetic, ...checkVatRates(content), ...notes, ...(embedded?.findings ?? [])];
  const creditNote = root.localName === 'CreditNote' || content.type_code === '381';
  return {
    report: {
      valid: !all.some((f) => f.severity === 'fatal' || f.severity === 'error'),
      format: format.format,
      syntax: format.syntax,
      document_type: creditNote ? 'CREDIT_NOTE' : 'INVOICE',
      customization_id: customizationId,
      profile: format.version ? `${format.profile} ${format.version}` : format.profile,
      version: format.version,
      rules_applied: rulesApplied,
      findings: all,
    },
    content,
    ...(embedded ? { attachments: embedded.files } : {}),
  };
}
