import type { BankStatementQuery, CompanyId } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import type { InvoiceDeps } from '../../platform/deps';

/** GET /bank-statements/{id}: the statement and one page of its entries with their proposals. */
export async function getBankStatement(deps: InvoiceDeps, companyId: CompanyId, id: number, q: BankStatementQuery) {
  const [statement, page] = await Promise.all([deps.bankStatements.get(companyId, id), deps.bankStatements.entries(companyId, id, q)]);
  if (!statement) throw notFound(`bank statement ${id}`);
  return { statement, ...page };
}
