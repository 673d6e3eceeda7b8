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

/** The root element's local name and namespace (declared on the root element itself), or undefined when there is no root tag. */
export function rootElement(text: string): { namespace: string; local: string } | undefined {
  const tag = rootTag(text);
  const name = tag && /^<([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)/.exec(tag);
  if (!tag || !name) return undefined;
  const prefix = name[1]?.slice(0, -1);
  const decl = new RegExp(`\\sxmlns${prefix ? `:${prefix.replace(/[.-]/g, '\\$&')}` : ''}\\s*=\\s*(["'])([^"']*)\\1`).exec(tag);
  return { namespace: decl?.[2] ?? '', local: name[2]! };
}

/**
 * Whether a text looks like an e-invoice by its root element alone (UBL Invoice or CreditNote, CII CrossIndustryInvoice):
 * how a PDF's embedded files are told apart, whatever their names. Only the prolog and the root's start tag are read.
 */
export function isInvoiceRoot(text: string): boolean {
  const root = rootElement(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  return root !== undefined && ROOTS[root.namespace] === root.local;
}

/**
 * What an upload can be refused for at once, cheaply and before it is accepted (linear passes over the text, no
 * parser): the guard of xml-guard.ts (size, encoding, DTD and entities, depth), then the root element, which must be a
 * UBL Invoice or CreditNote or a CII CrossIndustryInvoice by name and namespace (declared on the root element itself,
 * where the root's namespace must be declared). Whether the rest is well-formed and what it says is the job's work.
 */
export function precheckXml(bytes: Uint8Array, maxBytes: number): void {
  const text = guardXml(bytes, maxBytes);
  const root = rootElement(text);
  if (!root) throw new AppError('invalid_data', 'the document has no root element', { code: 'XML_NOT_WELL_FORMED' });
  if (ROOTS[root.namespace] !== root.local)
    throw new AppError(
      'unsupported_media_type',
      `root element {${root.namespace.slice(0, 100)}}${root.local.slice(0, 60)} is not a UBL Invoice, UBL CreditNote or CII CrossIndustryInvoice`,
      { code: 'UNSUPPORTED_FORMAT' },
    );
}
