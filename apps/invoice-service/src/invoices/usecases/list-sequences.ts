import type { CompanyId } from '@inv/contracts';
/** GET /numbering/: the company's numbering sequences (created with the defaults on first use). */
import type { DocumentType } from '../domain/number-patterns';
import type { InvoicesDeps } from '../deps';

const TYPES: DocumentType[] = ['invoice', 'credit_note'];

export async function listSequences(deps: InvoicesDeps, companyId: CompanyId) {
  const now = deps.now();
  return Promise.all(TYPES.map((t) => deps.numbering.ensure(companyId, t, now)));
}
