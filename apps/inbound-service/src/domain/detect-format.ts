import type { InboundFormat } from '@inv/contracts';
import { AppError } from '@inv/service-kit';

export const NS = {
  cii: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ublInvoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  ublCreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
} as const;

export interface DetectedFormat {
  format: InboundFormat;
  syntax: 'ubl' | 'cii';
  xsd: 'cii' | 'ubl-invoice' | 'ubl-creditnote';
  profile: string;
  version?: string;
}

/**
 * The format from the root element and the specification identifier (BT-24) the document declares, so the
 * rules of that specification are run: XRechnung's CIUS, Peppol BIS Billing 3.0, or plain EN 16931.
 * `fromPdf`: the XML came out of a PDF. A CII declaring XRechnung is read as XRechnung (its rules run) wherever it came
 * from; another CII from a PDF is a ZUGFeRD/Factur-X (`factur-x`). A UBL from a PDF (our XRechnung PDF embeds the UBL
 * as xrechnung.xml) is read like the same UBL sent as XML.
 */
export function detectFormat(root: { namespace: string; localName: string }, customizationId: string, fromPdf = false): DetectedFormat {
  const id = customizationId.trim();
  const xr = /xeinkauf\.de:kosit:(extension:)?xrechnung_(\d+\.\d+)/.exec(id);
  const peppol = /urn:fdc:peppol\.eu:2017:poacc:billing:3\.0/.test(id);
  const fx = /urn:factur-x\.eu:1p0:(minimum|basicwl|basic|extended)|urn:zugferd|urn:ferd/i.exec(id);
  if (root.namespace === NS.cii && root.localName === 'CrossIndustryInvoice') {
    if (fromPdf && !xr)
      return {
        format: 'factur-x',
        syntax: 'cii',
        xsd: 'cii',
        profile: fx ? `Factur-X ${fx[1]?.toUpperCase() ?? 'ZUGFeRD'}` : 'Factur-X EN16931',
      };
    if (xr)
      return { format: 'xrechnung-cii', syntax: 'cii', xsd: 'cii', profile: xr[1] ? 'XRechnung Extension' : 'XRechnung', version: xr[2] };
    return { format: 'cii-en16931', syntax: 'cii', xsd: 'cii', profile: fx ? `Factur-X ${fx[1]?.toUpperCase() ?? 'ZUGFeRD'}` : 'EN16931' };
  }
  const ubl =
    root.namespace === NS.ublInvoice && root.localName === 'Invoice'
      ? 'ubl-invoice'
      : root.namespace === NS.ublCreditNote && root.localName === 'CreditNote'
        ? 'ubl-creditnote'
        : undefined;
  if (!ubl)
    throw new AppError(
      'unsupported_media_type',
      `root element {${root.namespace.slice(0, 100)}}${root.localName.slice(0, 60)} is not a UBL Invoice, UBL CreditNote or CII CrossIndustryInvoice`,
      {
        code: 'UNSUPPORTED_FORMAT',
      },
    );
  if (xr) return { format: 'xrechnung-ubl', syntax: 'ubl', xsd: ubl, profile: xr[1] ? 'XRechnung Extension' : 'XRechnung', version: xr[2] };
  if (peppol) return { format: 'peppol-ubl', syntax: 'ubl', xsd: ubl, profile: 'Peppol BIS Billing', version: '3.0' };
  return { format: 'ubl-en16931', syntax: 'ubl', xsd: ubl, profile: 'EN16931' };
}
