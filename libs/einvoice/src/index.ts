export type * from './model';
export {
  taxTreatments,
  listTaxTreatments,
  getTaxTreatment,
  isTaxTreatment,
  exemptionFor,
  fatturaPaNatura,
  type Locale,
  type TaxTreatmentDefinition,
  type TaxTreatmentListEntry,
} from './tax-treatments';
export { invoiceTotals, effectiveDeliverTo } from './totals';
export { toCii, CII_GUIDELINE, type CiiProfile } from './cii';
export { toUbl, UBL_CUSTOMIZATION, type UblProfile } from './ubl';
export { embeddableAttachments, EMBEDDABLE_MIME_CODES, type LeftOut } from './attachments';
export { toFatturaPA } from './fatturapa';
export { toFacturae } from './facturae';
export {
  toEInvoiceXml,
  einvoiceFormats,
  einvoiceFileName,
  embeddedXmlFileName,
  formatForApiInvoiceFormat,
  type EInvoiceFormat,
  type ApiInvoiceFormat,
} from './formats';
export { requirementsFor, type Requirement } from './requirements';
export * from './fixtures';
