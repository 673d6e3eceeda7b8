/**
 * The contracts' plain tables: constants without zod. The barrel (`@inv/contracts`) re-exports them; code that must
 * stay light imports them from `@inv/contracts/tables` instead, so as not to build every schema of the API. That
 * code is libs/einvoice as document-service's render workers load it: each worker is an isolate of its own, and the
 * barrel (zod and a few hundred schemas) cost each 6 MB of live heap for two constants (worker heap 24.5 -> 18.1 MB;
 * document-service's idle RSS 164 -> 156 MB).
 */
export { taxTreatmentRules } from './api/tax';
export * from './vat-rates';
export * from './test-mode';

/** BT-125 mime codes EN 16931 (and so PEPPOL BIS 3 and XRechnung) allow for embedded documents. */
export const EMBEDDABLE_MIME_CODES = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.oasis.opendocument.spreadsheet',
] as const;
