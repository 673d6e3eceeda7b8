import type { CompanyId } from '@inv/contracts';

/**
 * Public ids (invoices, products, attachments) are numbered per company: a company's first invoice is 1, whatever
 * other companies did, so an id tells nothing about other tenants' volume. One counter per company and kind; the
 * documents are stored under `companyKey(companyId, id)` and brought to that shape at start by
 * `migrateToCompanyKeys` (libs/runtime company-keys.ts).
 */
export const invoiceCounter = (companyId: CompanyId) => `invoice:${companyId}`;
export const productCounter = (companyId: CompanyId) => `product:${companyId}`;
export const attachmentCounter = (companyId: CompanyId) => `attachment-id:${companyId}`;
export const paymentCounter = (companyId: CompanyId) => `payment:${companyId}`;
