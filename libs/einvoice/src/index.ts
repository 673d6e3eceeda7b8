// The pure rules (also `@inv/einvoice/rules`, for code that must not load the XML writers) and the writers.
export * from './rules';
export { toCii, CII_GUIDELINE, type CiiProfile } from './cii';
export { toUbl, UBL_CUSTOMIZATION, type UblProfile } from './ubl';
export { toFatturaPA } from './fatturapa';
export { toFacturae } from './facturae';
export { toEInvoiceXml } from './formats';
export * from './fixtures';
