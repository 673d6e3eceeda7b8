/**
 * `@inv/einvoice/rules`: the e-invoice model and its pure rules (tax treatments, totals, format names, what each
 * format requires), without the XML writers. The writers load xmlbuilder2 and its DOM (~3 MB of heap, ~12 MB of
 * RSS with their code), which only the renderer needs; a service's main thread that validates or lists imports
 * from here (idle RSS). The `@inv/einvoice` barrel re-exports all of it.
 */
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
export { embeddableAttachments, EMBEDDABLE_MIME_CODES, type LeftOut } from './attachments';
export {
  einvoiceFormats,
  einvoiceFileName,
  embeddedXmlFileName,
  formatForApiInvoiceFormat,
  type EInvoiceFormat,
  type ApiInvoiceFormat,
} from './format-names';
export { requirementsFor, type Requirement } from './requirements';
