/**
 * PDF rendering for document-service: PDF/A-3b invoices (optionally Factur-X / ZUGFeRD / XRechnung
 * hybrids with the XML embedded) and customer account statements, in German or English.
 */
export { renderInvoicePdf } from './invoice';
export { renderStatementPdf } from './statement';
export { templates, getTemplate, DEFAULT_TEMPLATE_ID, type TemplateInfo } from './templates';
export { preloadFonts } from './fonts';
export type {
  AccountStatement,
  PdfAttachment,
  PdfTotals,
  RenderInvoiceOptions,
  RenderStatementOptions,
  StatementEntry,
  StatementEntryType,
  TemplateId,
} from './types';
