import { AppError } from '@inv/service-kit';
import { NS } from './detect-format';
import { guardXml } from './xml-guard';

const ROOTS: Record<string, string> = {
  [NS.cii]: 'CrossIndustryInvoice',
  [NS.ublInvoice]: 'Invoice',
  [NS.ublCreditNote]: 'CreditNote',
};

/** The first start tag after the prolog (declaration, comments, processing instructions, blanks); undefined when there is none. */
export function rootTag(text: string): string | undefined {
  let i = 0;
  for (;;) {
    const lt = text.indexOf('<', i);
    if (lt < 0) return undefined;
    if (text.slice(i, lt).trim()) return undefined; // text before the root
    if (text.startsWith('<?', lt)) {
      const end = text.indexOf('?>', lt + 2);
      if (end < 0) return undefined;
      i = end + 2;
    } else if (text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt + 4);
      if (end < 0) return undefined;
      i = end + 3;
    } else {
      const end = text.indexOf('>', lt);
      return end < 0 ? undefined : text.slice(lt, end + 1);
    }
  }
}

/**
 * What an upload can be refused for at once, cheaply and before it is accepted (linear passes over the text, no
 * parser): the guard of xml-guard.ts (size, encoding, DTD and entities, depth), then the root element, which must be a
 * UBL Invoice or CreditNote or a CII CrossIndustryInvoice by name and namespace (declared on the root element itself,
 * where the root's namespace must be declared). Whether the rest is well-formed and what it says is the job's work.
 */
export function precheckXml(bytes: Uint8Array, maxBytes: number): void {
  const text = guardXml(bytes, maxBytes);
  const tag = rootTag(text);
  const name = tag && /^<([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)/.exec(tag);
  if (!tag || !name) throw new AppError('invalid_data', 'the document has no root element', { code: 'XML_NOT_WELL_FORMED' });
  const prefix = name[1]?.slice(0, -1);
  const local = name[2]!;
  const decl = new RegExp(`\\sxmlns${prefix ? `:${prefix.replace(/[.-]/g, '\\$&')}` : ''}\\s*=\\s*(["'])([^"']*)\\1`).exec(tag);
  const namespace = decl?.[2] ?? '';
  if (ROOTS[namespace] !== local)
    throw new AppError(
      'unsupported_media_type',
      `root element {${namespace.slice(0, 100)}}${local.slice(0, 60)} is not a UBL Invoice, UBL CreditNote or CII CrossIndustryInvoice`,
      { code: 'UNSUPPORTED_FORMAT' },
    );
}
