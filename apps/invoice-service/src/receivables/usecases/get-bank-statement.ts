import type { BankStatementQuery, CompanyId } from '@inv/contracts';
import { notFound } from '@inv/service-kit';
import type { ReceivablesDeps } from '../deps';

/** GET /bank-statements/{id}: the statement and one page of its entries with their proposals. */
export async function getBankStatement(deps: ReceivablesDeps, companyId: CompanyId, id: number, q: BankStatementQuery) {
  const [statement, page] = await Promise.all([deps.bankStatements.get(companyId, id), deps.bankStatements.entries(companyId, id, q)]);
  if (!statement) throw notFound(`bank statement ${id}`);
  return { statement, ...page };
}
